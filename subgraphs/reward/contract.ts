import { event } from '../../core/events/event-type';
import type { DomainContract } from '../../core/module';

/** The reward domain's contract: rewards, reward catalogs and reward codes. Plain data, importable by any domain. */
export const REWARD = {
  name: 'reward',
  permissions: {
    manage: 'reward:manage',
    /** Reading a member's reward codes (its v1 claims) without managing them: tenant staff (contract section 2). */
    read: 'reward:read',
  },
  permissionScopes: { manage: 'write', read: 'read' },
  grants: {
    marketing: ['reward:manage', 'reward:read'],
    tenant: ['reward:read'],
  },
  events: { claimed: event<RewardClaimed>('reward.claimed'), redeemed: event<RewardRedeemed>('reward.redeemed'), codeExpiring: event<RewardCodeExpiring>('reward.code-expiring') },
} as const satisfies DomainContract;

/**
 * `reward.claimed`: a member redeemed a catalog for points and holds a new reward code (aggregate: the
 * member). `pointUsage` is a decimal string with 2 decimals.
 */
export interface RewardClaimed {
  memberId: string;
  rewardId: string;
  rewardCatalogId: string;
  rewardCodeId: string;
  pointUsage: string;
  expiredAt: string;
  claimedAt: string;
}

/** `reward.redeemed`: a staff member marked a member's reward code used (aggregate: the member). */
export interface RewardRedeemed {
  memberId: string;
  rewardId: string;
  rewardCatalogId: string;
  rewardCodeId: string;
  staffId: string;
  usedAt: string;
}

/**
 * `reward.code-expiring`: a member's unused reward code expires within the notice horizon
 * (REWARD_CODE_EXPIRY_NOTICE_DAYS); recorded once per code (aggregate: the member). The code's
 * characters are left out: whoever holds them can have the code used.
 */
export interface RewardCodeExpiring {
  memberId: string;
  rewardId: string;
  rewardCatalogId: string;
  rewardCodeId: string;
  expiredAt: string;
  notifiedAt: string;
}
