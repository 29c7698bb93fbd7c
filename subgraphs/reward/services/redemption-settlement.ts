import { EntityManager } from '@mikro-orm/postgresql';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { AppError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { REWARD, RewardClaimed } from '../contract';
import { Redemption, RedemptionState } from '../entities/redemption';
import { Reward } from '../entities/reward';
import { RewardCode } from '../entities/reward-code';
import { RedeemReason, RedeemRefusal } from '../types/redemption.types';
import { hundredths } from './redeem-rules';
import { codeExpiry, issueRewardCode } from './reward-code-issuer';
import { RedemptionPoints } from './redemption-supergraph';
import { atRedemptionStep } from './redemption-test-hooks';

/** Where a redemption stands after an attempt to settle it. */
export type RedemptionOutcome =
  | { state: 'COMPLETED'; redemption: Redemption; codes: RewardCode[] }
  | { state: 'FAILED'; reason: RedeemReason }
  /** The spend went unanswered: still PENDING, for a repeat or the recovery job. */
  | { state: 'PENDING'; error: AppError };

/**
 * Steps 2 and 3 of a redemption, in the caller's transaction, which holds the redemption's row lock
 * (`for update`) throughout, so that one actor at a time (the request, a repeat, the recovery job)
 * settles it. A PENDING redemption spends its points (idempotent: a spend made by an earlier try is
 * answered, not repeated), then completes: its code is issued, the reward's and catalog's
 * `redeemed_count` go up and `reward.claimed` goes to the outbox, committed together. A refused spend
 * compensates: the unit of stock goes back and the redemption is FAILED with its reason. A spend that
 * goes unanswered writes nothing. A settled redemption answers its outcome again.
 */
export async function settleRedemption(em: EntityManager, redemption: Redemption, points: RedemptionPoints, requestId?: string): Promise<RedemptionOutcome> {
  if (redemption.state === RedemptionState.COMPLETED) return { state: 'COMPLETED', redemption, codes: await codesOf(em, redemption) };
  if (redemption.state === RedemptionState.FAILED) return { state: 'FAILED', reason: failureOf(redemption) };
  let transactionId: string | null = null;
  if (hundredths(redemption.pointUsage) > 0) {
    const spent = await points.spend(redemption, requestId);
    if (spent.kind === 'unknown') return { state: 'PENDING', error: spent.error };
    if (spent.kind === 'refused') return compensate(em, redemption, spent.message);
    transactionId = spent.transactionId;
  }
  await atRedemptionStep('spent', redemption);
  const codes = await complete(em, redemption, transactionId);
  await atRedemptionStep('issued', redemption);
  return { state: 'COMPLETED', redemption, codes };
}

/** The reason a FAILED redemption keeps. */
export const failureOf = (redemption: Redemption): RedeemReason => ({
  code: redemption.failureCode as RedeemRefusal,
  message: redemption.failureMessage ?? '',
});

/** A redemption's codes, in the order they were issued. */
const codesOf = (em: EntityManager, redemption: Redemption) => em.find(RewardCode, { redemptionId: redemption.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });

/** Issues the redemption's `quantity` codes (those not issued yet), counts them and announces each (`reward.claimed`). */
async function complete(em: EntityManager, redemption: Redemption, transactionId: string | null): Promise<RewardCode[]> {
  const claimedAt = new Date();
  const reward = await em.findOneOrFail(Reward, { id: redemption.rewardId }, INCLUDING_DELETED);
  const codes = await codesOf(em, redemption);
  while (codes.length < redemption.quantity) {
    codes.push(
      await issueRewardCode(em, {
        rewardId: redemption.rewardId,
        rewardCatalogId: redemption.rewardCatalogId,
        memberId: redemption.memberId,
        redemptionId: redemption.id,
        expiredAt: codeExpiry(reward, claimedAt),
        another: true,
      }),
    );
  }
  // Catalog before reward, the order every redemption takes their rows in.
  await em.execute(`update reward.reward_catalog set redeemed_count = redeemed_count + ? where id = ?`, [redemption.quantity, redemption.rewardCatalogId]);
  await em.execute(`update reward.reward set redeemed_count = redeemed_count + ? where id = ?`, [redemption.quantity, redemption.rewardId]);
  Object.assign(redemption, { state: RedemptionState.COMPLETED, pointTransactionId: transactionId, completedAt: claimedAt });
  for (const code of codes) {
    const claimed: RewardClaimed = {
      memberId: redemption.memberId,
      rewardId: redemption.rewardId,
      rewardCatalogId: redemption.rewardCatalogId,
      rewardCodeId: code.id,
      pointUsage: redemption.pointUsage,
      expiredAt: code.expiredAt.toISOString(),
      claimedAt: claimedAt.toISOString(),
    };
    recordEvent(em, REWARD.events.claimed, claimed, { aggregateId: redemption.memberId });
  }
  await em.flush();
  return codes;
}

async function compensate(em: EntityManager, redemption: Redemption, message: string): Promise<RedemptionOutcome> {
  if (redemption.stockTaken) await em.execute(`update reward.reward set stock = stock + ?, updated_at = now() where id = ?`, [redemption.quantity, redemption.rewardId]);
  Object.assign(redemption, { state: RedemptionState.FAILED, failureCode: RedeemRefusal.NOT_ENOUGH_POINTS, failureMessage: message });
  await em.flush();
  return { state: 'FAILED', reason: failureOf(redemption) };
}
