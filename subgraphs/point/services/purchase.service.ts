import { timeOrderedId } from '../../../core/ids';
import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { Principal } from '../../../core/auth/principal';
import { findPage, Page } from '../../../core/pagination';
import { POINT, TransactionCompleted, TransactionRefunded } from '../contract';
import { Purchase, PurchaseStatus } from '../entities/purchase';
import { PurchaseRefund } from '../entities/purchase-refund';
import { PointSource } from '../entities/point-transaction';
import { MAX_POINTS } from '../types/point.types';
import { PurchaseListArgs, RecordPurchaseInput, RefundPurchaseInput } from '../types/purchase.types';
import { onceForKey } from './idempotency';
import { LedgerService, PointMovement } from './ledger.service';
import { bounds } from './point.service';
import { KnownMembers } from '../../../core/known-members';
import { fromUnits, minUnits, toUnits } from '../../../core/decimal';
import { daysAfter, EarningSource, RuleEarning } from './earning-rules/rule-earning';
import { ReferralProgram } from './referral-program';

const TRANSACTION = 'Transaction';
/** A purchase may say it happened a little ahead of our clock (the till's clock), not more. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Purchases (v1 transactions): recorded with their points in one transaction, refunded in part or in
 * whole with their points taken back in proportion. Money and points are decimal strings; every sum,
 * product and comparison is done by PostgreSQL on numerics.
 */
export class PurchaseService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly members: KnownMembers,
    private readonly earning: RuleEarning,
    private readonly referrals: ReferralProgram,
  ) {}

  /**
   * Records a purchase and earns its points: whole points, `amount × conversionRate` rounded down, by
   * the store's live active rule, else the default rule (none active: 0 points, still recorded). The
   * EARN entry is written even for 0 points: it carries the purchase amount to tiers and badges. The
   * active earning rules of the `purchase` trigger add one entry each (RuleEarning) in the same
   * transaction; `pointsEarned` is the base and theirs together. A qualifying purchase completes the
   * member's pending referral in the same transaction (ReferralProgram.completeBy).
   * An `externalId` already recorded for the store answers that purchase and earns nothing (409 when
   * it names another customer or amount); two such records racing each other meet on the unique index.
   * An Idempotency-Key is deduplicated per caller in the purchase's own transaction (onceForKey): a
   * repeat answers the purchase it recorded, another body is 409.
   */
  async record(input: RecordPurchaseInput, caller: Principal, idempotencyKey?: string, requestId?: string): Promise<Purchase> {
    const occurredAt = input.occurredAt ? new Date(input.occurredAt) : new Date();
    if (occurredAt.getTime() > Date.now() + CLOCK_SKEW_MS) throw badRequest('occurredAt must not be in the future', 'occurredAt');
    await this.members.assertExists(input.customerId, requestId);
    // Amounts arrive validated to at most 2 decimals, so fixing them to 2 decimals is exact.
    const amount = input.amount.toFixed(2);
    const storeId = input.storeId ?? null;
    const externalId = input.externalId ?? null;
    return this.em.transactional(async (em) => {
      const { id } = await onceForKey(em, `purchase:${caller.kind}:${caller.id}`, idempotencyKey, input, () =>
        this.recordOnce(em, input, { occurredAt, amount, storeId, externalId }),
      );
      return em.findOneOrFail(Purchase, { id }, { refresh: true });
    });
  }

  /** The purchase and its points in the caller's transaction; the id of the purchase (an earlier one for a known externalId). */
  private async recordOnce(
    em: EntityManager,
    input: RecordPurchaseInput,
    { occurredAt, amount, storeId, externalId }: { occurredAt: Date; amount: string; storeId: string | null; externalId: string | null },
  ): Promise<string> {
    const id = timeOrderedId();
    const inserted: Array<{ id: string }> = await em.execute(
      `insert into point.purchase (id, member_id, amount, store_id, category, external_id, occurred_at, status, created_at, updated_at)
       values (?, ?, ?::numeric, ?, ?, ?, ?, 'COMPLETED', now(), now())
       on conflict do nothing returning id`,
      [id, input.customerId, amount, storeId, input.category ?? null, externalId, occurredAt],
    );
    if (inserted.length === 0) return (await this.earlier(em, { storeId, externalId: externalId!, memberId: input.customerId, amount })).id;
    const priced = await priceByShopRule(em, amount, storeId);
    const category = input.category ?? null;
    const earning = await this.earning.prepare(em, {
      type: 'purchase',
      id,
      memberId: input.customerId,
      facts: { trigger: 'purchase', occurredAt, amount, storeId, category, basePoints: priced.points },
      sourceBy: PointSource.Purchase,
    });
    const base = {
      memberId: input.customerId,
      amount: priced.points,
      purchaseAmount: amount,
      shopId: storeId,
      categoryId: category,
      note: `Purchase ${id}`,
      sourceBy: PointSource.Purchase,
      // points.earned names the purchase (Part 3's transaction_id), as an award names its caller's transaction.
      referenceId: id,
    };
    const entryId = await this.earnOrHold(em, base, earning.source);
    const byRules = await this.earning.apply(em, { ...earning, source: { ...earning.source, baseEntryId: entryId ?? undefined } });
    await em.execute(`update point.purchase set points_earned = ?::numeric, point_rule_id = ?, earn_entry_id = ? where id = ?`, [
      pointsInAll(priced.points, byRules),
      priced.ruleId,
      entryId,
      id,
    ]);
    await this.referrals.completeBy(em, { id, memberId: input.customerId, amount, occurredAt });
    const purchase = await em.findOneOrFail(Purchase, { id }, { refresh: true });
    announceCompleted(em, purchase);
    return purchase.id;
  }

  /**
   * The base earn of a purchase, under the member's balance lock: an EARN entry (its id), or a hold until
   * the return window (POINT_PENDING_DAYS) has passed since the purchase (null: no entry yet; the hold
   * carries the purchase amount to its activation, so tiers see neither before).
   */
  private async earnOrHold(em: EntityManager, base: PointMovement, source: EarningSource): Promise<string | null> {
    const days = this.earning.pendingDaysOf(source);
    if (days === 0) return (await this.ledger.earn(em, base)).id;
    await this.ledger.lock(em, base.memberId);
    await this.ledger.hold(em, { ...base, activatesAt: daysAfter(source.facts.occurredAt, days), sourceType: source.type, sourceId: source.id });
    return null;
  }

  /**
   * Refunds `amount` (all that is not yet refunded unless given) under the purchase's row lock, so that
   * refunds racing each other never give back more than the purchase. The points owed back in total are
   * `pointsEarned × refunded / amount` rounded down (all of them once fully refunded); this refund takes
   * back what that adds, as far as the balance holds it, and records the rest as unrecovered.
   * An Idempotency-Key is deduplicated per caller in the refund's own transaction, before the row lock:
   * a repeat (or a concurrent twin, which waits for the first to commit) refunds nothing and answers
   * the transaction; another body is 409.
   */
  async refund(id: string, input: RefundPurchaseInput, caller: Principal, idempotencyKey?: string): Promise<Purchase> {
    return this.em.transactional(async (em) => {
      await onceForKey(em, `refund:${caller.kind}:${caller.id}`, idempotencyKey, { id, input }, async () => (await this.refundOnce(em, id, input)).id);
      return em.findOneOrFail(Purchase, { id }, { refresh: true });
    });
  }

  /** One refund in the caller's transaction; the refund row. */
  private async refundOnce(em: EntityManager, id: string, input: RefundPurchaseInput): Promise<PurchaseRefund> {
    const purchase = await em.findOne(Purchase, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!purchase) throw notFound(TRANSACTION, id);
    if (purchase.status === PurchaseStatus.REFUNDED) throw conflict('The transaction is already fully refunded', 'status');
    const [step]: Array<{ refund: string; fits: boolean; remaining: string; refunded: string; full: boolean; owed: string }> = await em.execute(
      `with given as (select p.*, coalesce(?::numeric, p.amount - p.refunded_amount) as refund from point.purchase p where p.id = ?)
       select refund::text as refund, refund <= amount - refunded_amount as fits, (amount - refunded_amount)::text as remaining,
              (refunded_amount + refund)::text as refunded, refunded_amount + refund = amount as "full",
              (case when refunded_amount + refund >= amount then points_earned
                    else trunc(points_earned * (refunded_amount + refund) / amount) end
               - points_reversed - points_unrecovered)::numeric(20, 2)::text as owed
         from given`,
      [input.amount == null ? null : input.amount.toFixed(2), id],
    );
    if (!step.fits) throw conflict(`amount exceeds the ${step.remaining} not yet refunded`, 'amount');
    // Held points of the purchase go first (their rows locked before the member's balance, as the activation job locks them).
    const cancelledHeld = await this.cancelHeldFirst(em, purchase, step.owed);
    await this.ledger.expireDue(em, purchase.memberId);
    const [taking]: Array<{ taken: string; unrecovered: string }> = await em.execute(
      `select least(?::numeric - ?::numeric, point_amount)::numeric(20, 2)::text as taken, greatest(?::numeric - ?::numeric - point_amount, 0)::numeric(20, 2)::text as unrecovered
         from point.point_balance where member_id = ?`,
      [step.owed, cancelledHeld, step.owed, cancelledHeld, purchase.memberId],
    );
    const spend =
      Number(taking.taken) > 0
        ? await this.ledger.spend(em, {
            memberId: purchase.memberId,
            amount: taking.taken,
            shopId: purchase.storeId,
            categoryId: purchase.category,
            note: `Refund of purchase ${purchase.id}`,
            sourceBy: PointSource.Purchase,
            referenceId: purchase.id,
          })
        : null;
    const reversed = pointsInAll(taking.taken, [{ points: cancelledHeld }]);
    const refund = em.create(PurchaseRefund, {
      purchaseId: purchase.id,
      memberId: purchase.memberId,
      amount: step.refund,
      pointsReversed: reversed,
      pointsUnrecovered: taking.unrecovered,
      spendEntryId: spend?.id ?? null,
    });
    await em.execute(
      `update point.purchase
          set refunded_amount = ?::numeric, status = ?, points_reversed = points_reversed + ?::numeric,
              points_unrecovered = points_unrecovered + ?::numeric, updated_at = now()
        where id = ?`,
      [step.refunded, step.full ? PurchaseStatus.REFUNDED : PurchaseStatus.PARTIALLY_REFUNDED, reversed, taking.unrecovered, purchase.id],
    );
    await em.flush();
    const refunded = await em.findOneOrFail(Purchase, { id }, { refresh: true });
    announceRefunded(em, refunded, refund);
    return refund;
  }

  /**
   * Cancels up to `owed` points of the purchase's pending holds (its base earn's and its rules'), the
   * newest first; returns how many (a decimal string). The holds' rows are locked here.
   */
  private async cancelHeldFirst(em: EntityManager, purchase: Purchase, owed: string): Promise<string> {
    const held: Array<{ id: string; amount: string }> = await em.execute(
      `select id, amount::text as amount from point.pending_points
        where source_type = 'purchase' and source_id = ? and status = 'pending' and amount > 0
        order by created_at desc, id desc for update`,
      [purchase.id],
    );
    let left = toUnits(owed, 2)!;
    const cancellations: Array<{ id: string; memberId: string; amount: string }> = [];
    for (const hold of held) {
      if (left <= 0n) break;
      const taken = minUnits(left, toUnits(hold.amount, 2)!);
      cancellations.push({ id: hold.id, memberId: purchase.memberId, amount: fromUnits(taken, 2) });
      left -= taken;
    }
    await this.ledger.cancelHeld(em, cancellations);
    return fromUnits(toUnits(owed, 2)! - left, 2);
  }

  async get(id: string): Promise<Purchase> {
    const purchase = await this.em.findOne(Purchase, { id });
    if (!purchase) throw notFound(TRANSACTION, id);
    return purchase;
  }

  /** Newest purchase first (by when it happened); the date window is on `occurredAt`. */
  async list(args: PurchaseListArgs): Promise<Page<Purchase>> {
    const where: Record<string, unknown> = {};
    if (args.customerId) where.memberId = args.customerId;
    if (args.status) where.status = args.status;
    if (args.storeId) where.storeId = args.storeId;
    if (args.dateFrom || args.dateTo) {
      const [from, to] = bounds(args.dateFrom, args.dateTo);
      where.occurredAt = { $gte: from, $lt: to };
    }
    return findPage(this.em, Purchase, where, { occurredAt: 'desc', id: 'desc' }, args, await this.em.count(Purchase, where));
  }

  /** The purchase an external id already names; 409 on `externalId` when the repeat is another purchase. */
  private async earlier(em: EntityManager, repeat: { storeId: string | null; externalId: string; memberId: string; amount: string }): Promise<Purchase> {
    const purchase = await em.findOneOrFail(Purchase, { storeId: repeat.storeId, externalId: repeat.externalId }, { refresh: true });
    const [same] = await em.execute(`select ?::numeric = ?::numeric as equal`, [purchase.amount, repeat.amount]);
    if (purchase.memberId !== repeat.memberId || !same.equal) {
      throw conflict(`externalId ${repeat.externalId} already names another purchase (${purchase.id}) of this store`, 'externalId');
    }
    return purchase;
  }

}

/**
 * A purchase's base earn: whole points, `amount × conversionRate` rounded down, by the store's live active
 * shop rule, else the live active default rule (none: 0 points); 400 on `amount` past the largest earn.
 */
export async function priceByShopRule(em: EntityManager, amount: string, storeId: string | null): Promise<{ points: string; ruleId: string | null }> {
  const [priced]: Array<{ points: string; fits: boolean; rule_id: string | null }> = await em.execute(
    `with rule as (select id, conversion_rate from point.point_shop_rule
                    where deleted_at is null and is_active and (shop_id = ? or is_fixed)
                    order by is_fixed limit 1)
     select points::text as points, points <= ?::numeric as fits, rule_id
       from (select trunc(?::numeric * coalesce((select conversion_rate from rule), 0))::numeric(20, 2) as points, (select id from rule) as rule_id) product`,
    [storeId, MAX_POINTS, amount],
  );
  if (!priced.fits) throw badRequest(`The purchase would earn more than ${MAX_POINTS} points`, 'amount');
  return { points: priced.points, ruleId: priced.rule_id };
}

/** The base earn and what the earning rules added, exactly. */
export function pointsInAll(base: string, byRules: Array<{ points: string }>): string {
  return fromUnits(byRules.reduce((sum, rule) => sum + toUnits(rule.points, 2)!, toUnits(base, 2)!), 2);
}

function announceCompleted(em: EntityManager, purchase: Purchase): void {
  const completed: TransactionCompleted = {
    transactionId: purchase.id,
    customerId: purchase.memberId,
    amount: purchase.amount,
    storeId: purchase.storeId,
    category: purchase.category,
    externalId: purchase.externalId,
    status: 'completed',
    pointsEarned: purchase.pointsEarned,
    occurredAt: purchase.occurredAt.toISOString(),
    createdAt: purchase.createdAt.toISOString(),
  };
  recordEvent(em, POINT.events.transactionCompleted, completed, { aggregateId: purchase.memberId });
}

function announceRefunded(em: EntityManager, purchase: Purchase, refund: PurchaseRefund): void {
  const refunded: TransactionRefunded = {
    transactionId: purchase.id,
    refundId: refund.id,
    customerId: purchase.memberId,
    amount: refund.amount,
    refundedAmount: purchase.refundedAmount,
    status: purchase.status === PurchaseStatus.REFUNDED ? 'refunded' : 'partially_refunded',
    pointsReversed: refund.pointsReversed,
    pointsUnrecovered: refund.pointsUnrecovered,
    refundedAt: refund.createdAt.toISOString(),
  };
  recordEvent(em, POINT.events.transactionRefunded, refunded, { aggregateId: purchase.memberId });
}
