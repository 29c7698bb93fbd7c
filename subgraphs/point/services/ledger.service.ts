import { TIME_ORDERED_ID_SQL, timeOrderedId } from '../../../core/ids';
import { EntityDictionary, EntityManager } from '@mikro-orm/postgresql';
import { PointExpiryPolicy } from '../settings';
import { badRequest } from '../../../core/errors';
import { Statement } from '../../../core/db/statement';
import { outboxInsertSql } from '../../../core/events/outbox-event';
import { currentTraceparent } from '../../../core/tracing';
import { PointActionType, PointSource, PointTransaction } from '../entities/point-transaction';
import { POINT, PointLedgerEntry, PointsActivated } from '../contract';
import { expiresAtFor } from './expiry-policy';

/** A movement of points for one member; amounts are decimal strings. */
export interface PointMovement {
  /** The entry's id when the caller chose it beforehand (an idempotency claim records it; earn and spend): a new one otherwise. */
  id?: string;
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

/** Points to hold for a member until `activatesAt`, for a source (a purchase, a rule's application). */
export interface PendingHold extends PointMovement {
  activatesAt: Date;
  sourceType: string;
  sourceId: string;
}

/** A hold as `point.pending_points` keeps it (amounts as decimal strings), for its activation. */
export interface HeldPoints {
  id: string;
  member_id: string;
  amount: string;
  purchase_amount: string;
  shop_id: string | null;
  category_id: string | null;
  note: string | null;
  source_by: PointSource | null;
  reference_id: string | null;
  metadata: Record<string, unknown> | null;
  source_type: string;
  source_id: string;
}

/** The columns of `HeldPoints`, as a statement selects them. */
export const HELD_POINTS_COLUMNS = `id, member_id, amount::text as amount, purchase_amount::text as purchase_amount, shop_id, category_id, note, source_by, reference_id, metadata, source_type, source_id`;

/**
 * The ledger: every change of a balance writes its transaction, its lots and its outbox event in the
 * caller's database transaction. The member's balance row is locked first and serves as the member's
 * mutex, so concurrent earns, spends and expiries apply one after another and never overdraw.
 *
 * An earn or a spend is two statements, each built once (`Statement`, bound by the driver): LOCK
 * creates or locks the balance row, then one statement, whose snapshot is taken after the lock so it
 * sees every earlier writer's lots and balance, expires the due lots, checks a spend against the
 * balance left, writes the entries (an EXPIRE per due lot, then the movement's), moves the balance,
 * opens the lot or consumes the oldest ones, and writes each entry's outbox event (`outboxInsertSql`).
 * The rows are written at once, not through the unit of work: events the caller records afterwards
 * (flushed later) follow the ledger's.
 */
export class LedgerService {
  constructor(private readonly policy: PointExpiryPolicy) {}

  /** Must run inside a transaction (`em.transactional`). */
  async earn(em: EntityManager, movement: PointMovement): Promise<PointTransaction> {
    await LOCK.run(em, { memberId: movement.memberId });
    const createdAt = new Date();
    const [entry] = await EARN.run<EntityDictionary<PointTransaction>>(em, { ...entryParams(movement, createdAt), expiresAt: expiresAtFor(this.policy, createdAt) });
    return em.map(PointTransaction, entry);
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
    for (const { member_id: memberId } of due) await this.expire(em, memberId);
    const rows = movements.map((movement, ord) => ({
      ord,
      id: timeOrderedId(),
      member_id: movement.memberId,
      amount: movement.amount,
      purchase_amount: movement.purchaseAmount ?? '0',
      shop_id: movement.shopId ?? null,
      category_id: movement.categoryId ?? null,
      note: movement.note ?? null,
      source_by: movement.sourceBy ?? null,
      reference_id: movement.referenceId ?? null,
      metadata: movement.metadata ?? null,
    }));
    const recordset = JSON.stringify(rows);
    const ROWS = `jsonb_to_recordset(?::jsonb) as r(ord int, id uuid, member_id uuid, amount numeric, purchase_amount numeric, shop_id text, category_id text, note text, source_by text, reference_id text, metadata jsonb)`;
    const base = new Date();
    // Entries of one batch a microsecond apart, in order, so that a member's history lists them as given.
    const written: Array<Record<string, any>> = await em.execute(
      `with running as (
         select r.*, b.point_amount + sum(r.amount) over (partition by r.member_id order by r.ord) as balance_after
           from ${ROWS} join point.point_balance b on b.member_id = r.member_id)
       insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after, reference_id, metadata, created_at, updated_at)
       select id, member_id, 'EARN', amount, purchase_amount, shop_id, category_id, note, source_by, balance_after, reference_id, metadata, ?::timestamptz + ord * interval '1 microsecond', ?::timestamptz
         from running order by ord
       returning id, member_id, amount::text as amount, purchase_amount::text as purchase_amount, shop_id, category_id, source_by, note, reference_id, metadata, balance_after::text as balance_after, created_at`,
      [recordset, base, base],
    );
    await em.execute(
      `update point.point_balance b
          set point_amount = b.point_amount + s.total, purchase_amount = b.purchase_amount + s.purchases, entry_count = b.entry_count + s.n, updated_at = now()
         from (select member_id, sum(amount) as total, sum(purchase_amount) as purchases, count(*) as n from ${ROWS} group by member_id) s
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
        return { id: timeOrderedId(), transaction_id: entry.id, expires_in_ms: expiresAt ? expiresAt.getTime() - earnedAt.getTime() : null };
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
        shopId: entry.shop_id,
        categoryId: entry.category_id,
        sourceBy: entry.source_by,
        balanceAfter: entry.balance_after,
        createdAt: new Date(entry.created_at).toISOString(),
        note: entry.note,
        referenceId: entry.reference_id,
        metadata: entry.metadata,
      };
      return { ord, payload, aggregate_id: entry.member_id };
    });
    // One statement, rows in order: the outbox trigger numbers each member's events as given.
    await em.execute(
      outboxInsertSql('point', `(select ?::text as type, payload, aggregate_id, ord from jsonb_to_recordset(?::jsonb) as e(ord int, payload jsonb, aggregate_id text)) events`, '?::text'),
      // The trace context's `?` comes first in the text (the select list, before the events' FROM item).
      [currentTraceparent(), POINT.events.earned, JSON.stringify(events)],
    );
    return entries.map((entry) => entry.id);
  }

  /**
   * Holds points for a member (pending points): a row of `point.pending_points` and the balance's
   * `pending_amount`, nothing spendable, no ledger entry; the caller holds the member's balance lock.
   * Returns the hold's id.
   */
  async hold(em: EntityManager, hold: PendingHold): Promise<string> {
    const id = timeOrderedId();
    await em.execute(
      `with held as (
         insert into point.pending_points (id, member_id, amount, original_amount, purchase_amount, shop_id, category_id, note, source_by, reference_id, metadata, source_type, source_id, activates_at)
         values (?, ?, ?::numeric, ?::numeric, ?::numeric, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
         returning member_id, amount)
       update point.point_balance b set pending_amount = b.pending_amount + held.amount, updated_at = now() from held where b.member_id = held.member_id`,
      [
        id,
        hold.memberId,
        hold.amount,
        hold.amount,
        hold.purchaseAmount ?? '0',
        hold.shopId ?? null,
        hold.categoryId ?? null,
        hold.note ?? null,
        hold.sourceBy ?? null,
        hold.referenceId ?? null,
        hold.metadata ? JSON.stringify(hold.metadata) : null,
        hold.sourceType,
        hold.sourceId,
        hold.activatesAt,
      ],
    );
    return id;
  }

  /**
   * Activates held points, set-based: each hold becomes an EARN entry (its lot's expiry counted from now)
   * as `earnMany` writes them, its row `activated`, the balances' pending amounts reduced, and a
   * `points.activated` event each. The caller has locked the rows (`for update`), which are pending.
   */
  async activate(em: EntityManager, holds: HeldPoints[], early: boolean): Promise<void> {
    if (holds.length === 0) return;
    const entryIds = await this.earnMany(
      em,
      holds.map((held) => ({
        memberId: held.member_id,
        amount: held.amount,
        purchaseAmount: held.purchase_amount,
        shopId: held.shop_id,
        categoryId: held.category_id,
        note: held.note,
        sourceBy: held.source_by,
        referenceId: held.reference_id,
        metadata: held.metadata,
      })),
    );
    const activated = JSON.stringify(holds.map((held, index) => ({ id: held.id, entry_id: entryIds[index] })));
    await em.execute(
      `update point.pending_points p set status = 'activated', earn_entry_id = a.entry_id, settled_at = now()
         from jsonb_to_recordset(?::jsonb) as a(id uuid, entry_id uuid) where p.id = a.id`,
      [activated],
    );
    await this.releaseHeld(em, holds.map((held) => ({ memberId: held.member_id, amount: held.amount })));
    const events = holds.map((held, ord) => {
      const payload: PointsActivated = {
        pendingId: held.id,
        memberId: held.member_id,
        amount: held.amount,
        transactionId: entryIds[ord],
        sourceType: held.source_type,
        sourceId: held.source_id,
        referenceId: held.reference_id,
        early,
        activatedAt: new Date().toISOString(),
      };
      return { ord, payload, aggregate_id: held.member_id };
    });
    await em.execute(
      outboxInsertSql('point', `(select ?::text as type, payload, aggregate_id, ord from jsonb_to_recordset(?::jsonb) as e(ord int, payload jsonb, aggregate_id text)) events`, '?::text'),
      [currentTraceparent(), POINT.events.activated, JSON.stringify(events)],
    );
  }

  /**
   * Cancels held points in whole or in part (a refund of their purchase, an admin): each hold loses
   * `amount`, and is `cancelled` when nothing is left; the balances' pending amounts follow. The caller
   * has locked the rows.
   */
  async cancelHeld(em: EntityManager, cancellations: Array<{ id: string; memberId: string; amount: string }>): Promise<void> {
    if (cancellations.length === 0) return;
    await em.execute(
      `update point.pending_points p
          set amount = p.amount - c.amount,
              status = case when p.amount - c.amount = 0 then 'cancelled' else p.status end,
              settled_at = case when p.amount - c.amount = 0 then now() else p.settled_at end
         from jsonb_to_recordset(?::jsonb) as c(id uuid, amount numeric) where p.id = c.id`,
      [JSON.stringify(cancellations.map((cancellation) => ({ id: cancellation.id, amount: cancellation.amount })))],
    );
    await this.releaseHeld(em, cancellations);
  }

  /** Takes amounts off the members' pending amounts (activated or cancelled holds). */
  private async releaseHeld(em: EntityManager, released: Array<{ memberId: string; amount: string }>): Promise<void> {
    await em.execute(
      `update point.point_balance b set pending_amount = b.pending_amount - s.total, updated_at = now()
         from (select member_id, sum(amount) as total from jsonb_to_recordset(?::jsonb) as r(member_id uuid, amount numeric) group by member_id) s
        where b.member_id = s.member_id`,
      [JSON.stringify(released.map((row) => ({ member_id: row.memberId, amount: row.amount })))],
    );
  }

  /** Takes the member's balance lock (creating its row at zero), the member's mutex; must run inside a transaction. */
  async lock(em: EntityManager, memberId: string): Promise<void> {
    await LOCK.run(em, { memberId });
  }

  /** Must run inside a transaction. Refuses (400 on `amount`) a spend larger than the balance (after expiring what is due). */
  async spend(em: EntityManager, movement: PointMovement): Promise<PointTransaction> {
    await LOCK.run(em, { memberId: movement.memberId });
    const [{ enough, balance, ...entry }] = await SPEND.run<{ enough: boolean; balance: string } & EntityDictionary<PointTransaction>>(em, entryParams(movement, new Date()));
    if (!enough) throw badRequest(`Insufficient points: the balance is ${balance}`, 'amount');
    return em.map(PointTransaction, entry);
  }

  /** Expires the member's lots that are due; must run inside a transaction. Returns how many. */
  async expireDue(em: EntityManager, memberId: string): Promise<number> {
    await LOCK.run(em, { memberId });
    return this.expire(em, memberId);
  }

  /** Expires the due lots of a member whose balance row this transaction has locked; returns how many. */
  private async expire(em: EntityManager, memberId: string): Promise<number> {
    const [{ expired }] = await EXPIRE.run<{ expired: number }>(em, { memberId, createdAt: new Date(), traceContext: currentTraceparent() });
    return expired;
  }
}

/** The entry's columns, as a statement returns them for `em.map`. */
const ENTRY_COLUMNS = `id, member_id, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after,
  request_ticket_id, receipt_verification_id, reference_id, metadata, created_at, updated_at`;

/** Creates the member's balance row at zero or locks it: `do update ... where false` locks without writing. */
const LOCK = new Statement<{ memberId: string }>(
  `insert into point.point_balance (member_id) values (:memberId::uuid)
   on conflict (member_id) do update set member_id = excluded.member_id where false`,
);

type EntryParams = ReturnType<typeof entryParams>;

function entryParams(movement: PointMovement, createdAt: Date) {
  return {
    id: movement.id ?? timeOrderedId(),
    memberId: movement.memberId,
    amount: movement.amount,
    purchaseAmount: movement.purchaseAmount ?? '0',
    shopId: movement.shopId ?? null,
    categoryId: movement.categoryId ?? null,
    note: movement.note ?? null,
    sourceBy: movement.sourceBy ?? null,
    requestTicketId: movement.requestTicketId ?? null,
    receiptVerificationId: movement.receiptVerificationId ?? null,
    referenceId: movement.referenceId ?? null,
    metadata: movement.metadata ? JSON.stringify(movement.metadata) : null,
    createdAt,
    traceContext: currentTraceparent(),
  };
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * One ledger statement, after LOCK. `due` are the member's lots past their expiry, oldest expiry first;
 * each becomes an EXPIRE entry, a microsecond apart and before the movement's (so histories list them
 * in order), with the balance running down. A spend is `allowed` when its amount fits the balance left
 * after them (numeric comparison in SQL); when it is not, nothing is written and the statement answers
 * `enough` false with that balance. The events are the entries' `PointLedgerEntry`, in entry order.
 */
function ledgerStatement(kind: 'earn' | 'spend' | 'expire'): string {
  const allowed = kind === 'spend' ? 'where (select enough from allowed)' : '';
  const action = kind === 'earn' ? 'EARN' : 'SPEND';
  const movementEntry = `
    union all
    select :id::uuid, '${action}', :amount::numeric, :purchaseAmount::numeric, :shopId::text, :categoryId::text, :note::text, :sourceBy::text,
           k.points ${kind === 'earn' ? '+' : '-'} :amount::numeric, :requestTicketId::uuid, :receiptVerificationId::uuid, :referenceId::text, :metadata::jsonb,
           :createdAt::timestamptz, (select count(*) from due) + 1
      from kept k ${allowed}`;
  const eventType = `case w.action_type when 'EARN' then ${literal(POINT.events.earned)} when 'SPEND' then ${literal(POINT.events.redeemed)} else ${literal(POINT.events.expired)} end`;
  const payload = `jsonb_build_object(
      'transactionId', w.id, 'memberId', w.member_id, 'actionType', w.action_type, 'amount', w.amount::text,
      'purchaseAmount', w.purchase_amount::text, 'shopId', w.shop_id, 'categoryId', w.category_id, 'sourceBy', w.source_by,
      'balanceAfter', w.balance_after::text, 'createdAt', to_char(w.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'note', w.note, 'referenceId', w.reference_id, 'metadata', w.metadata)`;
  return `
    with balance as (select point_amount from point.point_balance where member_id = :memberId::uuid),
    due as (
      select id, remaining,
             sum(remaining) over (order by expires_at, earned_at, id) as expired_by,
             row_number() over (order by expires_at, earned_at, id) as ord,
             count(*) over () as n
        from point.point_lot
       where member_id = :memberId::uuid and remaining > 0 and expires_at <= now()),
    kept as (select b.point_amount - coalesce((select sum(remaining) from due), 0) as points from balance b),
    ${kind === 'spend' ? 'allowed as (select :amount::numeric <= points as enough, points from kept),' : ''}
    entries as (
      select ${TIME_ORDERED_ID_SQL} as id, 'EXPIRE' as action_type, d.remaining as amount, 0::numeric as purchase_amount,
             null::text as shop_id, null::text as category_id, 'Points expired' as note, null::text as source_by,
             b.point_amount - d.expired_by as balance_after, null::uuid as request_ticket_id, null::uuid as receipt_verification_id,
             null::text as reference_id, null::jsonb as metadata,
             :createdAt::timestamptz - (d.n - d.ord + 1) * interval '1 microsecond' as created_at, d.ord
        from due d cross join balance b ${allowed}
      ${kind === 'expire' ? '' : movementEntry}),
    written as (
      insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after,
                                           request_ticket_id, receipt_verification_id, reference_id, metadata, created_at, updated_at)
      select id, :memberId::uuid, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after,
             request_ticket_id, receipt_verification_id, reference_id, metadata, created_at, created_at
        from entries order by ord
      returning ${ENTRY_COLUMNS}),
    emptied as (update point.point_lot lot set remaining = 0 from due where lot.id = due.id ${kind === 'spend' ? 'and (select enough from allowed)' : ''}),
    moved as (
      update point.point_balance
         set point_amount = point_amount + e.change, purchase_amount = purchase_amount + e.purchases, entry_count = entry_count + e.n, updated_at = now()
        from (select sum(case when action_type = 'EARN' then amount else -amount end) as change, sum(purchase_amount) as purchases, count(*) as n from entries) e
       where member_id = :memberId::uuid and e.n > 0),
    ${
      kind === 'earn'
        ? `opened as (
      insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at)
      select ${TIME_ORDERED_ID_SQL}, :memberId::uuid, :id::uuid, :amount::numeric, :amount::numeric, :createdAt::timestamptz, :expiresAt::timestamptz
       where :amount::numeric > 0),`
        : kind === 'spend'
          ? `ordered as (
      select id, remaining,
             coalesce(sum(remaining) over (order by earned_at, id rows between unbounded preceding and 1 preceding), 0) as before
        from point.point_lot
       where member_id = :memberId::uuid and remaining > 0 and (expires_at is null or expires_at > now())),
    consumed as (
      update point.point_lot lot
         set remaining = lot.remaining - least(o.remaining, :amount::numeric - o.before)
        from ordered o
       where lot.id = o.id and o.before < :amount::numeric and (select enough from allowed)),`
          : ''
    }
    announced as (${outboxInsertSql('point', `(select ${eventType} as type, ${payload} as payload, w.member_id::text as aggregate_id, e.ord from written w join entries e on e.id = w.id) events`, ':traceContext::text')})
    ${
      kind === 'earn'
        ? `select ${ENTRY_COLUMNS} from written where id = :id::uuid`
        : kind === 'spend'
          ? `select a.enough, a.points::text as balance, w.* from allowed a left join written w on w.id = :id::uuid`
          : `select count(*)::int as expired from written`
    }`;
}

const EARN = new Statement<EntryParams & { expiresAt: Date | null }>(ledgerStatement('earn'));
const SPEND = new Statement<EntryParams>(ledgerStatement('spend'));
const EXPIRE = new Statement<{ memberId: string; createdAt: Date; traceContext: string | null }>(ledgerStatement('expire'));
