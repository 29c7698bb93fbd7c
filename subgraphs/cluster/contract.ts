import { call } from '../../core/call-type';
import { event } from '../../core/events/event-type';
import type { DomainContract } from '../../core/module';

/** The cluster domain's contract: tiers, badges, segments and interests. Plain data, importable by any domain. */
export const CLUSTER = {
  name: 'cluster',
  permissions: {
    tierRead: 'tier:read',
    tierManage: 'tier:manage',
    badgeManage: 'badge:manage',
    segmentRead: 'segment:read',
    segmentManage: 'segment:manage',
  },
  permissionScopes: { tierRead: 'read', tierManage: 'write', badgeManage: 'write', segmentRead: 'read', segmentManage: 'write' },
  grants: {
    marketing: ['tier:read', 'tier:manage', 'badge:manage', 'segment:read', 'segment:manage'],
    tenant: ['tier:read'],
  },
  events: {
    tierChanged: event<CustomerTierChanged>('customer.tier_changed'),
    badgeCompleted: event<BadgeCompleted>('badge.completed'),
    tierCatalogChanged: event<TierCatalogChanged>('tier.catalog_changed'),
  },
  /** What other domains ask the cluster in-process when they share its process (core/domain-calls.ts). */
  calls: {
    /**
     * A member's current tier id (`Member.tier`), given the member as auth answers it (`auth.member`:
     * its `projectedTierId`, for a member the cluster has not placed yet); null without one.
     */
    memberTier: call<{ id: string; projectedTierId: string | null }, { tierId: string | null }>('cluster.memberTier'),
  },
} as const satisfies DomainContract;

/**
 * The tier id auth's projection (`auth.member_tier`) holds for a customer a v1 creation promised the entry
 * tier, until the cluster places it (`customer.created` with `startsInEntryTier`): the cluster's
 * `Member.tier` reads it as its entry tier, and the member list's tier filter as the entry tier's id.
 */
export const ENTRY_TIER_PROMISE = 'entry';

/** `customer.tier_changed`: a member's tier moved (aggregate: the member). */
export interface CustomerTierChanged {
  memberId: string;
  fromTierId: string | null;
  toTierId: string | null;
  changeType: 'upgrade' | 'downgrade' | 'expiry' | 'assign';
  source: 'assign' | 'manual' | 'automatic' | 'expiry';
  tierEndAt: string | null;
  snapshot: Record<string, unknown>;
  historyId: string | null;
  /** The v1 (Part 3) fields of the same change, snake_case. */
  customer_id: string;
  from_tier: { id: string; name: string | null; level: number } | null;
  to_tier: { id: string; name: string | null; level: number } | null;
  reason: string | null;
  changed_at: string;
}

/**
 * `tier.catalog_changed` (aggregate: the tier): a tier as it is after a write of its names, level, activity,
 * specialness or deletion, with what another domain needs to match it by name and to tell the entry tier
 * (the live, active, non-special tier of the lowest level, oldest first: `entryTierOf`).
 */
export interface TierCatalogChanged {
  tierId: string;
  name_en: string | null;
  name_th: string | null;
  name_cn: string | null;
  level: number;
  isActive: boolean;
  isSpecial: boolean;
  createdAt: string;
  deletedAt: string | null;
}

/** `badge.completed`: a member completed a badge (aggregate: the member). */
export interface BadgeCompleted {
  memberId: string;
  badgeId: string;
  completedAt: string;
}
