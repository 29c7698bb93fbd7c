import type { DomainContract } from '../../core/module';

/**
 * The analytics domain's contract: a read model fed by the other domains' events (Part 3 "Analytics"),
 * dashboards and CSV reports. Plain data, importable by any domain. It publishes no events.
 */
export const ANALYTICS = {
  name: 'analytics',
  permissions: {
    /** Every figure and report: the `analytics` scope of the v1 surface (admin and marketing, contract section 2). */
    read: 'analytics:read',
  },
  grants: {
    marketing: ['analytics:read'],
  },
  events: {},
} as const satisfies DomainContract;

/**
 * Where a report's file is downloaded (`<PUBLIC_URL>/analytics/reports/<id>/download?expires&signature`,
 * served by the REST adapter without a token), and the purpose its URLs are signed for.
 */
export const REPORT_DOWNLOAD = { path: (reportId: string) => `/analytics/reports/${reportId}/download`, purpose: 'analytics-report' } as const;
