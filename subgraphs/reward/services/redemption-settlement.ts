import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation, Statement } from '../../../core/db/statement';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { AppError } from '../../../core/errors';
import { currentTraceparent } from '../../../core/tracing';
import { REWARD, RewardClaimed } from '../contract';
import { Redemption, RedemptionState } from '../entities/redemption';
import { Reward } from '../entities/reward';
import { RewardCode } from '../entities/reward-code';
import { RedeemReason, RedeemRefusal } from '../types/redemption.types';
import { hundredths } from './redeem-rules';
import { RedemptionCalls } from './redemption-calls';
import { atRedemptionStep } from './redemption-test-hooks';
import { codeExpiry, inIssueOrder, issueRewardCodes, randomCode } from './reward-code-issuer';

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
export async function settleRedemption(
  em: EntityManager,
  redemption: Redemption,
  calls: RedemptionCalls,
  requestId?: string,
  reward?: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>,
): Promise<RedemptionOutcome> {
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
  const expiry = reward ?? (await em.findOneOrFail(Reward, { id: redemption.rewardId }, INCLUDING_DELETED));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await completeOnce(em, redemption, transactionId, expiry);
    } catch (error) {
      // A drawn code equal to an unused one fails the statement, undone as a whole: draw again.
      if (!isUniqueViolation(error) || attempt === CODE_DRAWS) throw error;
    }
  }
}

/** Draws of a redemption's codes before completing it gives up (each collides with odds of about unused codes / 30⁶). */
const CODE_DRAWS = 5;

/**
 * Step 3 in one statement, so atomic without a transaction: the redemption COMPLETED if it is still
 * PENDING (its row lock; else another actor settled it: its outcome), its `quantity` codes drawn at
 * random (one equal to an unused code fails the whole statement) and `reward.claimed` for each code in
 * the outbox. No row every redeemer waits on is touched: the units were counted when they were taken.
 */
const completeRedemption = new Statement<{ id: string; transactionId: string | null; claimedAt: Date; expiredAt: Date; codeIds: string[]; codes: string[]; type: string; events: string; traceContext: string | null }>(`
  with completed as (
    update reward.redemption set state = 'COMPLETED', point_transaction_id = :transactionId, completed_at = :claimedAt, updated_at = :claimedAt
     where id = :id and state = 'PENDING' returning *),
  issued as (
    insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, redemption_id, expired_at, created_at, updated_at)
    select drawn.id, drawn.code, completed.reward_id, completed.reward_catalog_id, completed.member_id, completed.id, :expiredAt, :claimedAt, :claimedAt
      from completed, unnest(:codeIds::uuid[], :codes::text[]) as drawn(id, code)
    returning *),
  claimed as (
    insert into reward.outbox_event (id, type, payload, aggregate_id, occurred_at, trace_context)
    select e.id, :type, e.payload, completed.member_id, :claimedAt, :traceContext::text from completed, jsonb_to_recordset(:events::jsonb) as e(id uuid, payload jsonb))
  select completed.*, (select json_agg(issued) from issued) as issued_codes from completed`);

async function completeOnce(em: EntityManager, redemption: Redemption, transactionId: string | null, reward: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>): Promise<RedemptionOutcome> {
  const claimedAt = new Date();
  const expiredAt = codeExpiry(reward, claimedAt);
  const codeIds = Array.from({ length: redemption.quantity }, () => randomUUID());
  const events = codeIds.map((rewardCodeId) => ({ id: randomUUID(), payload: claimedEvent(redemption, rewardCodeId, expiredAt, claimedAt) }));
  const [row] = await completeRedemption.run<Record<string, unknown>>(em, {
    id: redemption.id,
    transactionId,
    claimedAt,
    expiredAt,
    codeIds,
    codes: codeIds.map(randomCode),
    type: REWARD.events.claimed,
    events: JSON.stringify(events),
    traceContext: currentTraceparent(),
  });
  // Read afresh: `em` may hold the row as it was before the other actor settled it.
  if (!row) return outcomeOf(em.fork(), redemption.id);
  const { issued_codes: issued, ...columns } = row;
  const codes = (issued as Array<Record<string, unknown>>).map((code) => em.map(RewardCode, code));
  return { state: 'COMPLETED', redemption: em.map(Redemption, columns), codes: inIssueOrder(codes) };
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

/** `reward.claimed` for one code of the redemption. */
const claimedEvent = (redemption: Redemption, rewardCodeId: string, expiredAt: Date, claimedAt: Date): RewardClaimed => ({
  memberId: redemption.memberId,
  rewardId: redemption.rewardId,
  rewardCatalogId: redemption.rewardCatalogId,
  rewardCodeId,
  pointUsage: redemption.pointUsage,
  expiredAt: expiredAt.toISOString(),
  claimedAt: claimedAt.toISOString(),
});

/**
 * A grant's step 3 in the caller's transaction, for a redemption just written COMPLETED (it had no code: codes are
 * written only with COMPLETED; its units were counted when they were taken): its `quantity` codes and
 * `reward.claimed` for each code in the outbox. No row every redeemer waits on is touched here.
 */
export async function complete(em: EntityManager, redemption: Redemption, reward: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>, claimedAt: Date): Promise<RewardCode[]> {
  const codes = await issueRewardCodes(
    em,
    { rewardId: redemption.rewardId, rewardCatalogId: redemption.rewardCatalogId, memberId: redemption.memberId, redemptionId: redemption.id, expiredAt: codeExpiry(reward, claimedAt) },
    redemption.quantity,
  );
  const events = codes.map((code) => ({ id: randomUUID(), payload: claimedEvent(redemption, code.id, code.expiredAt, claimedAt) }));
  await em.execute(
    `insert into reward.outbox_event (id, type, payload, aggregate_id, occurred_at, trace_context)
     select e.id, ?, e.payload, ?, ?, ?::text from jsonb_to_recordset(?::jsonb) as e(id uuid, payload jsonb)`,
    [REWARD.events.claimed, redemption.memberId, claimedAt, currentTraceparent(), JSON.stringify(events)],
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
