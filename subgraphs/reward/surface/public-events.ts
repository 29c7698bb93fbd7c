import { v1Time, wholePoints } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { REWARD, RewardClaimed, RewardRedeemed } from '../contract';

/** The reward domain's events as Part 3 webhook events. */
export const REWARD_PUBLIC_EVENTS: PublicEvent[] = [
  {
    internal: REWARD.events.claimed,
    type: 'reward.claimed',
    data: (claim: RewardClaimed) => ({
      customer_id: claim.memberId,
      reward_id: claim.rewardCatalogId,
      claim_id: claim.rewardCodeId,
      points_spent: wholePoints(claim.pointUsage),
      expires_at: v1Time(claim.expiredAt),
      claimed_at: v1Time(claim.claimedAt),
    }),
  },
  {
    internal: REWARD.events.redeemed,
    type: 'reward.redeemed',
    data: (use: RewardRedeemed) => ({ customer_id: use.memberId, reward_id: use.rewardCatalogId, claim_id: use.rewardCodeId, redeemed_at: v1Time(use.usedAt) }),
  },
];
