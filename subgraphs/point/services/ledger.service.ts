import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { PointExpiryPolicy } from '../settings';
import { badRequest } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { PointActionType, PointSource, PointTransaction } from '../entities/point-transaction';
import { POINT, PointLedgerEntry } from '../contract';
import { expiresAtFor } from './expiry-policy';

/** A movement of points for one member; amounts are decimal strings. */
export interface PointMovement {
  memberId: string;
  amount: string;
  purchaseAmount?: string;
  shopId?: string | null;
  categoryId?: string | null;
  note?: string | null;
  sourceBy?: PointSource | null;
  requestTicketId?: string | null;
  receiptVerificationId?: string | null;
  /** An award's own transaction id, given by its caller. */
  referenceId?: string | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * The ledger: every change of a balance writes its transaction, its lots and its outbox event in the
 * caller's database transaction. The member's balance row is locked first and serves as the member's
 * mutex, so concurrent earns, spends and expiries apply one after another and never overdraw.
 */
export class LedgerService {
  constructor(private readonly policy: PointExpiryPolicy) {}

  /** Must run inside a transaction (`em.transactional`). */
  async earn(em: EntityManager, movement: PointMovement): Promise<PointTransaction> {
    await this.lockAndExpire(em, movement.memberId);
    const transaction = await this.record(em, PointActionType.EARN, movement, movement.amount);
    if (Number(movement.amount) > 0) {
      await em.execute(
        `insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
        [randomUUID(), movement.memberId, transaction.id, movement.amount, movement.amount, transaction.createdAt, expiresAtFor(this.policy, transaction.createdAt)],
      );
    }
    this.announce(em, POINT.events.earned, transaction);
    return transaction;
  }

  /** Must run inside a transaction. Refuses (400 on `amount`) a spend larger than the balance. */
  async spend(em: EntityManager, movement: PointMovement): Promise<PointTransaction> {
    const balance = await this.lockAndExpire(em, movement.memberId);
    const [{ enough }] = await em.execute(`select ?::numeric <= ?::numeric as enough`, [movement.amount, balance]);
    if (!enough) throw badRequest(`Insufficient points: the balance is ${balance}`, 'amount');
    await em.execute(
      `with ordered as (
         select id, remaining,
                coalesce(sum(remaining) over (order by earned_at, id rows between unbounded preceding and 1 preceding), 0) as before
           from point.point_lot where member_id = ? and remaining > 0)
       update point.point_lot lot
          set remaining = lot.remaining - least(ordered.remaining, ?::numeric - ordered.before)
         from ordered
        where lot.id = ordered.id and ordered.before < ?::numeric`,
      [movement.memberId, movement.amount, movement.amount],
    );
    const transaction = await this.record(em, PointActionType.SPEND, movement, `-${movement.amount}`);
    this.announce(em, POINT.events.redeemed, transaction);
    return transaction;
  }

  /** Expires the member's lots that are due; must run inside a transaction. Returns how many. */
  async expireDue(em: EntityManager, memberId: string): Promise<number> {
    await this.lock(em, memberId);
    return this.expireLocked(em, memberId);
  }

  /** Locks the member's balance row (creating it at zero) and expires what is due; returns the balance. */
  private async lockAndExpire(em: EntityManager, memberId: string): Promise<string> {
    const balance = await this.lock(em, memberId);
    return (await this.expireLocked(em, memberId)) > 0 ? (await this.lock(em, memberId)) : balance;
  }

  private async lock(em: EntityManager, memberId: string): Promise<string> {
    await em.execute(`insert into point.point_balance (member_id) values (?) on conflict do nothing`, [memberId]);
    const [row] = await em.execute(`select point_amount::text as balance from point.point_balance where member_id = ? for update`, [memberId]);
    return row.balance;
  }

  private async expireLocked(em: EntityManager, memberId: string): Promise<number> {
    const lots: Array<{ remaining: string }> = await em.execute(
      `with due as (select id, remaining from point.point_lot where member_id = ? and remaining > 0 and expires_at <= now())
       update point.point_lot lot set remaining = 0 from due where lot.id = due.id
       returning due.remaining::text as remaining`,
      [memberId],
    );
    for (const lot of lots) {
      const transaction = await this.record(em, PointActionType.EXPIRE, { memberId, amount: lot.remaining, note: 'Points expired' }, `-${lot.remaining}`);
      this.announce(em, POINT.events.expired, transaction);
    }
    return lots.length;
  }

  /**
   * Appends one entry: moves the locked balance by `points` (and the purchases by the movement's), counts
   * the entry on the balance row (what a history page reports as its total), and writes the entry.
   */
  private async record(em: EntityManager, actionType: PointActionType, movement: PointMovement, points: string): Promise<PointTransaction> {
    const [{ balance_after: balanceAfter }] = await em.execute(
      `update point.point_balance
          set point_amount = point_amount + ?::numeric, purchase_amount = purchase_amount + ?::numeric,
              entry_count = entry_count + 1, updated_at = now()
        where member_id = ? returning point_amount::text as balance_after`,
      [points, movement.purchaseAmount ?? '0', movement.memberId],
    );
    const transaction = em.create(PointTransaction, {
      memberId: movement.memberId,
      actionType,
      amount: movement.amount,
      purchaseAmount: movement.purchaseAmount ?? '0',
      shopId: movement.shopId ?? null,
      categoryId: movement.categoryId ?? null,
      note: movement.note ?? null,
      sourceBy: movement.sourceBy ?? null,
      balanceAfter,
      requestTicketId: movement.requestTicketId ?? null,
      receiptVerificationId: movement.receiptVerificationId ?? null,
      referenceId: movement.referenceId ?? null,
      metadata: movement.metadata ?? null,
    });
    await em.flush();
    return transaction;
  }

  private announce(em: EntityManager, type: string, transaction: PointTransaction): void {
    const entry: PointLedgerEntry = {
      transactionId: transaction.id,
      memberId: transaction.memberId,
      actionType: transaction.actionType,
      amount: transaction.amount,
      purchaseAmount: transaction.purchaseAmount,
      shopId: transaction.shopId,
      categoryId: transaction.categoryId,
      sourceBy: transaction.sourceBy,
      balanceAfter: transaction.balanceAfter,
      createdAt: transaction.createdAt.toISOString(),
      note: transaction.note,
      referenceId: transaction.referenceId,
      metadata: transaction.metadata,
    };
    recordEvent(em, type, entry, { aggregateId: transaction.memberId });
  }
}
