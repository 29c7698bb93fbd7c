import type { DomainContract } from '../../core/module';

/**
 * The analytics domain's contract: a read model fed by the other domains' events (Part 3 "Analytics"),
 * dashboards and CSV reports. Plain data, importable by any domain. It publishes no events.
 */
export const ANALYTICS = {
  name: 'analytics',
  permissions: {
    /** Every figure, and one's own reports: the `analytics` scope of the v1 surface (admin and marketing, contract section 2). */
    read: 'analytics:read',
    /** Asking for a report (a write: REST needs the `analytics` and `write` scopes). */
    report: 'analytics:report',
    /** Reading every staff member's reports, not only one's own (admin, through `*`). */
    manage: 'analytics:manage',
  },
  permissionScopes: { read: 'analytics', report: ['analytics', 'write'], manage: ['analytics', 'admin'] },
  grants: {
    marketing: ['analytics:read', 'analytics:report'],
  },
  events: {},
} as const satisfies DomainContract;

/**
 * Where a report's file is downloaded (`<PUBLIC_URL>/analytics/reports/<id>/download?expires&signature`,
 * served by the REST adapter without a token), the purpose its URLs are signed for, and the file's key
 * in object storage.
 */
export const REPORT_DOWNLOAD = {
  path: (reportId: string) => `/analytics/reports/${reportId}/download`,
  purpose: 'analytics-report',
  file: (reportId: string) => `reports/${reportId}.csv`,
} as const;
