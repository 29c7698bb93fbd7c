import type { DomainContract } from '../../core/module';

/**
 * The webhook domain's contract: partners' webhook endpoints and the deliveries of the platform's
 * events to them (Part 3 "Events", CONTRACT-v1 section 4). Admin only (admin holds `*`); it publishes
 * no events of its own. Plain data, importable by any domain.
 */
export const WEBHOOK = {
  name: 'webhook',
  permissions: {
    manage: 'webhook:manage',
  },
  permissionScopes: { manage: 'admin' },
  grants: {},
  events: {},
} as const satisfies DomainContract;
