import { EntityManager } from '@mikro-orm/postgresql';
import { EventType } from '../../../core/events/event-type';
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
  /** The business transaction of the entry: an award's own transaction id (given by its caller), a purchase's id (its earning and refunds). */
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

  /**
   * Earns for many members at once, set-based (batch awards): the same entries, lots, balance changes
   * and events as `earn` called for each movement in order, in a handful of statements whatever their
   * number. Must run inside a transaction; takes the members' balance locks in member order. Returns
   * the entries' ids in the movements' order.
   */
  async earnMany(em: EntityManager, movements: PointMovement[]): Promise<string[]> {
    if (movements.length === 0) return [];
    const memberIds = [...new Set(movements.map((movement) => movement.memberId))].sort();
    await em.execute(`insert into point.point_balance (member_id) select member_id from jsonb_to_recordset(?::jsonb) as m(member_id uuid) order by member_id on conflict do nothing`, [
      JSON.stringify(memberIds.map((id) => ({ member_id: id }))),
    ]);
    await em.execute(`select member_id from point.point_balance where member_id in (?) order by member_id for update`, [memberIds]);
    const due: Array<{ member_id: string }> = await em.execute(
      `select distinct member_id from point.point_lot where member_id in (?) and remaining > 0 and expires_at <= now()`,
      [memberIds],
    );
    for (const { member_id: memberId } of due) await this.expireLocked(em, memberId);
    const rows = movements.map((movement, ord) => ({
      ord,
      id: randomUUID(),
      member_id: movement.memberId,
      amount: movement.amount,
      note: movement.note ?? null,
      source_by: movement.sourceBy ?? null,
      reference_id: movement.referenceId ?? null,
      metadata: movement.metadata ?? null,
    }));
    const recordset = JSON.stringify(rows);
    const ROWS = `jsonb_to_recordset(?::jsonb) as r(ord int, id uuid, member_id uuid, amount numeric, note text, source_by text, reference_id text, metadata jsonb)`;
    const base = new Date();
    // Entries of one batch a microsecond apart, in order, so that a member's history lists them as given.
    const written: Array<Record<string, any>> = await em.execute(
      `with running as (
         select r.*, b.point_amount + sum(r.amount) over (partition by r.member_id order by r.ord) as balance_after
           from ${ROWS} join point.point_balance b on b.member_id = r.member_id)
       insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, note, source_by, balance_after, reference_id, metadata, created_at, updated_at)
       select id, member_id, 'EARN', amount, 0, note, source_by, balance_after, reference_id, metadata, ?::timestamptz + ord * interval '1 microsecond', ?::timestamptz
         from running order by ord
       returning id, member_id, amount::text as amount, purchase_amount::text as purchase_amount, source_by, note, reference_id, metadata, balance_after::text as balance_after, created_at`,
      [recordset, base, base],
    );
    await em.execute(
      `update point.point_balance b
          set point_amount = b.point_amount + s.total, entry_count = b.entry_count + s.n, updated_at = now()
         from (select member_id, sum(amount) as total, count(*) as n from ${ROWS} group by member_id) s
        where b.member_id = s.member_id`,
      [recordset],
    );
    const byId = new Map(written.map((row) => [row.id, row]));
    const entries = rows.map((row) => byId.get(row.id)!);
    // A lot's expiry is the policy's, counted from its entry's exact time (entries are microseconds apart).
    const lots = entries
      .filter((entry) => Number(entry.amount) > 0)
      .map((entry) => {
        const earnedAt = new Date(entry.created_at);
        const expiresAt = expiresAtFor(this.policy, earnedAt);
        return { id: randomUUID(), transaction_id: entry.id, expires_in_ms: expiresAt ? expiresAt.getTime() - earnedAt.getTime() : null };
      });
    if (lots.length > 0) {
      await em.execute(
        `insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at)
         select l.id, t.member_id, t.id, t.amount, t.amount, t.created_at, t.created_at + l.expires_in_ms * interval '1 millisecond'
           from jsonb_to_recordset(?::jsonb) as l(id uuid, transaction_id uuid, expires_in_ms bigint)
           join point.point_transaction t on t.id = l.transaction_id`,
        [JSON.stringify(lots)],
      );
    }
    const events = entries.map((entry, ord) => {
      const payload: PointLedgerEntry = {
        transactionId: entry.id,
        memberId: entry.member_id,
        actionType: PointActionType.EARN,
        amount: entry.amount,
        purchaseAmount: entry.purchase_amount,
        shopId: null,
        categoryId: null,
        sourceBy: entry.source_by,
        balanceAfter: entry.balance_after,
        createdAt: new Date(entry.created_at).toISOString(),
        note: entry.note,
        referenceId: entry.reference_id,
        metadata: entry.metadata,
      };
      return { ord, id: randomUUID(), payload, aggregate_id: entry.member_id };
    });
    // One statement, rows in order: the outbox trigger numbers each member's events as given.
    await em.execute(
      `insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at)
       select id, ?, payload, aggregate_id, now() from jsonb_to_recordset(?::jsonb) as e(ord int, id uuid, payload jsonb, aggregate_id text) order by ord`,
      [POINT.events.earned, JSON.stringify(events)],
    );
    return entries.map((entry) => entry.id);
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

  private announce(em: EntityManager, type: EventType<PointLedgerEntry>, transaction: PointTransaction): void {
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
