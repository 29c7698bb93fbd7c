import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../core/errors';
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
 * key's answer for good), then completes in one transaction under its row lock: its codes and
 * `reward.claimed` in the outbox, committed together (the units were counted with the stock, in step 1).
 * A refused spend compensates, in one transaction under the same lock: the units go back to the stock and
 * off the counts, and the redemption is FAILED with its reason. A spend that goes unanswered writes nothing. Several actors may spend at once (the
 * key makes them one spend, or one refusal); the row lock makes one of them complete or compensate, and
 * the others, re-reading the row under the lock, answer what it did. A settled redemption answers its
 * outcome again.
 */
export async function settleRedemption(em: EntityManager, redemption: Redemption, calls: RedemptionCalls, requestId?: string): Promise<RedemptionOutcome> {
  if (redemption.state === RedemptionState.COMPLETED) return { state: 'COMPLETED', redemption, codes: await codesOf(em, redemption) };
  if (redemption.state === RedemptionState.FAILED) return { state: 'FAILED', reason: failureOf(redemption) };
  let transactionId: string | null = null;
  if (hundredths(redemption.pointUsage) > 0) {
    await atRedemptionStep('spending', redemption);
    const spent = await calls.spend(redemption, requestId);
    if (spent.kind === 'unknown') return { state: 'PENDING', error: spent.error };
    if (spent.kind === 'refused') return compensate(em, redemption.id, spent.message);
    transactionId = spent.transactionId;
  }
  await atRedemptionStep('spent', redemption);
  return em.fork().transactional(async (tx) => {
    const claimedAt = new Date();
    // The row lock, and whether it is still PENDING (else another actor settled it: its outcome).
    const [row] = await tx.execute(
      `update reward.redemption r set state = 'COMPLETED', point_transaction_id = ?, completed_at = ?, updated_at = ?
         from reward.reward w where r.id = ? and r.state = 'PENDING' and w.id = r.reward_id
       returning r.*, w.time_use_with_in as reward_time_use_with_in, w.window_end as reward_window_end`,
      [transactionId, claimedAt, claimedAt, redemption.id],
    );
    if (!row) return outcomeOf(tx, redemption.id);
    const { reward_time_use_with_in: timeUseWithIn, reward_window_end: windowEnd, ...columns } = row;
    const completed = tx.map(Redemption, columns);
    const codes = await complete(tx, completed, { timeUseWithIn, windowEnd: windowEnd && new Date(windowEnd) }, claimedAt);
    await atRedemptionStep('issued', completed);
    return { state: 'COMPLETED', redemption: completed, codes };
  });
}

/** The outcome of a redemption another actor settled, as it stands. */
async function outcomeOf(em: EntityManager, id: string): Promise<RedemptionOutcome> {
  const redemption = await em.findOneOrFail(Redemption, { id });
  if (redemption.state === RedemptionState.COMPLETED) return { state: 'COMPLETED', redemption, codes: await codesOf(em, redemption) };
  return { state: 'FAILED', reason: failureOf(redemption) };
}

/** The reason a FAILED redemption keeps. */
export const failureOf = (redemption: Redemption): RedeemReason => ({
  code: redemption.failureCode as RedeemRefusal,
  message: redemption.failureMessage ?? '',
});

/** A redemption's codes, in the order they were issued. */
const codesOf = (em: EntityManager, redemption: Redemption) => em.find(RewardCode, { redemptionId: redemption.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });

/**
 * Step 3 in the caller's transaction, for a redemption just written COMPLETED (it had no code: codes are
 * written only with COMPLETED; its units were counted when they were taken): its `quantity` codes and
 * `reward.claimed` for each code in the outbox. No row every redeemer waits on is touched here.
 */
export async function complete(em: EntityManager, redemption: Redemption, reward: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>, claimedAt: Date): Promise<RewardCode[]> {
  const codes = await issueRewardCodes(
    em,
    { rewardId: redemption.rewardId, rewardCatalogId: redemption.rewardCatalogId, memberId: redemption.memberId, redemptionId: redemption.id, expiredAt: codeExpiry(reward, claimedAt) },
    redemption.quantity,
  );
  const events = codes.map((code) => {
    const claimed: RewardClaimed = {
      memberId: redemption.memberId,
      rewardId: redemption.rewardId,
      rewardCatalogId: redemption.rewardCatalogId,
      rewardCodeId: code.id,
      pointUsage: redemption.pointUsage,
      expiredAt: code.expiredAt.toISOString(),
      claimedAt: claimedAt.toISOString(),
    };
    return { id: randomUUID(), payload: claimed };
  });
  await em.execute(
    `insert into reward.outbox_event (id, type, payload, aggregate_id, occurred_at)
     select e.id, ?, e.payload, ?, ? from jsonb_to_recordset(?::jsonb) as e(id uuid, payload jsonb)`,
    [REWARD.events.claimed, redemption.memberId, claimedAt, JSON.stringify(events)],
  );
  return codes;
}

/**
 * The compensation of step 1 for a refused spend, in one transaction: the redemption FAILED with the
 * point domain's reason if it is still PENDING (the row lock; else another actor settled it: its
 * outcome), and its units back: to the stock if it took them, off the reward's and the catalog's counts
 * (the reward's row first, as they were taken).
 */
function compensate(em: EntityManager, id: string, message: string): Promise<RedemptionOutcome> {
  return em.fork().transactional(async (tx) => {
    const [row] = await tx.execute(
      `update reward.redemption set state = 'FAILED', failure_code = ?, failure_message = ?, updated_at = now() where id = ? and state = 'PENDING' returning *`,
      [RedeemRefusal.NOT_ENOUGH_POINTS, message, id],
    );
    if (!row) return outcomeOf(tx, id);
    const redemption = tx.map(Redemption, row);
    await tx.execute(
      `with reward as (
         update reward.reward set stock = stock + ?, redeemed_count = redeemed_count - ?, updated_at = case when ? then now() else updated_at end where id = ? returning id)
       update reward.reward_catalog c set redeemed_count = c.redeemed_count - ? from (select count(*) from reward) as counted where c.id = ?`,
      [redemption.stockTaken ? redemption.quantity : 0, redemption.quantity, redemption.stockTaken, redemption.rewardId, redemption.quantity, redemption.rewardCatalogId],
    );
    return { state: 'FAILED', reason: failureOf(redemption) };
  });
}
