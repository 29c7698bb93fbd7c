import { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { REWARD, RewardClaimed } from '../contract';
import { Redemption, RedemptionState } from '../entities/redemption';
import { Reward } from '../entities/reward';
import { RewardCode } from '../entities/reward-code';
import { RedeemReason, RedeemRefusal } from '../types/redemption.types';
import { hundredths } from './redeem-rules';
import { RedemptionCalls } from './redemption-calls';
import { atRedemptionStep } from './redemption-test-hooks';
import { codeExpiry, issueRewardCodes } from './reward-code-issuer';

/** Where a redemption stands after an attempt to settle it. */
export type RedemptionOutcome =
  | { state: 'COMPLETED'; redemption: Redemption; codes: RewardCode[] }
  | { state: 'FAILED'; reason: RedeemReason }
  /** The spend went unanswered: still PENDING, for a repeat or the recovery job. */
  | { state: 'PENDING'; error: AppError };

/**
 * Steps 2 and 3 of a redemption, for any actor (the request, a repeat, the recovery job), with no
 * transaction of this schema open while the points are spent. A PENDING redemption spends its points
 * (idempotent on its key: a spend made by an earlier try is answered, not repeated; a refusal is the
 * key's answer for good), then completes in one transaction under its row lock: its codes, the reward's
 * and catalog's `redeemed_count` and `reward.claimed` in the outbox, committed together. A refused spend
 * compensates, in one transaction under the same lock: the stock goes back and the redemption is FAILED
 * with its reason. A spend that goes unanswered writes nothing. Several actors may spend at once (the
 * key makes them one spend, or one refusal); the row lock makes one of them complete or compensate, and
 * the others, re-reading the row under the lock, answer what it did. A settled redemption answers its
 * outcome again.
 */
export async function settleRedemption(em: EntityManager, redemption: Redemption, calls: RedemptionCalls, requestId?: string): Promise<RedemptionOutcome> {
  if (redemption.state === RedemptionState.COMPLETED) return { state: 'COMPLETED', redemption, codes: await codesOf(em, redemption) };
  if (redemption.state === RedemptionState.FAILED) return { state: 'FAILED', reason: failureOf(redemption) };
  let transactionId: string | null = null;
  if (hundredths(redemption.pointUsage) > 0) {
    const spent = await calls.spend(redemption, requestId);
    if (spent.kind === 'unknown') return { state: 'PENDING', error: spent.error };
    if (spent.kind === 'refused') {
      await atRedemptionStep('refused', redemption);
      return underLock(em, redemption.id, (tx, locked) => compensate(tx, locked, spent.message));
    }
    transactionId = spent.transactionId;
  }
  await atRedemptionStep('spent', redemption);
  return underLock(em, redemption.id, async (tx, locked, reward) => {
    const codes = await complete(tx, locked, reward, transactionId);
    await atRedemptionStep('issued', locked);
    return { state: 'COMPLETED', redemption: locked, codes };
  });
}

/**
 * Runs `settle` on a PENDING redemption in a transaction holding its row lock (read afresh with what its
 * codes' expiry needs of its reward); one another actor settled meanwhile answers its outcome instead.
 */
function underLock(
  em: EntityManager,
  id: string,
  settle: (tx: EntityManager, redemption: Redemption, reward: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>) => Promise<RedemptionOutcome>,
): Promise<RedemptionOutcome> {
  return em.fork().transactional(async (tx) => {
    const [row] = await tx.execute(
      `select r.*, w.time_use_with_in as reward_time_use_with_in, w.window_end as reward_window_end
         from reward.redemption r join reward.reward w on w.id = r.reward_id where r.id = ? for update of r`,
      [id],
    );
    const { reward_time_use_with_in: timeUseWithIn, reward_window_end: windowEnd, ...columns } = row;
    const redemption = tx.map(Redemption, columns);
    if (redemption.state === RedemptionState.COMPLETED) return { state: 'COMPLETED', redemption, codes: await codesOf(tx, redemption) };
    if (redemption.state === RedemptionState.FAILED) return { state: 'FAILED', reason: failureOf(redemption) };
    return settle(tx, redemption, { timeUseWithIn, windowEnd: windowEnd && new Date(windowEnd) });
  });
}

/** The reason a FAILED redemption keeps. */
export const failureOf = (redemption: Redemption): RedeemReason => ({
  code: redemption.failureCode as RedeemRefusal,
  message: redemption.failureMessage ?? '',
});

/** A redemption's codes, in the order they were issued. */
const codesOf = (em: EntityManager, redemption: Redemption) => em.find(RewardCode, { redemptionId: redemption.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });

/**
 * Step 3 in the caller's transaction, on a PENDING redemption under its row lock (it has no code: codes
 * are written only with COMPLETED): its `quantity` codes, the counts, and `reward.claimed` for each.
 */
export async function complete(em: EntityManager, redemption: Redemption, reward: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>, transactionId: string | null): Promise<RewardCode[]> {
  const claimedAt = new Date();
  const codes = await issueRewardCodes(
    em,
    { rewardId: redemption.rewardId, rewardCatalogId: redemption.rewardCatalogId, memberId: redemption.memberId, redemptionId: redemption.id, expiredAt: codeExpiry(reward, claimedAt) },
    redemption.quantity,
  );
  // Catalog before reward, the order every redemption takes their rows in: the reward's update waits for the catalog's.
  await em.execute(
    `with catalog as (update reward.reward_catalog set redeemed_count = redeemed_count + ? where id = ? returning id)
     update reward.reward set redeemed_count = redeemed_count + ? where id = ? and exists (select from catalog)`,
    [redemption.quantity, redemption.rewardCatalogId, redemption.quantity, redemption.rewardId],
  );
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

/** The compensation of step 1 for a refused spend: the units of stock back, the redemption FAILED with the point domain's reason. */
async function compensate(em: EntityManager, redemption: Redemption, message: string): Promise<RedemptionOutcome> {
  if (redemption.stockTaken) await em.execute(`update reward.reward set stock = stock + ?, updated_at = now() where id = ?`, [redemption.quantity, redemption.rewardId]);
  Object.assign(redemption, { state: RedemptionState.FAILED, failureCode: RedeemRefusal.NOT_ENOUGH_POINTS, failureMessage: message });
  await em.flush();
  return { state: 'FAILED', reason: failureOf(redemption) };
}
