import { timeOrderedId } from '../../../core/ids';
import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { BatchLoader } from '../../../core/batch-loader';
import { readRowsByIds } from '../../../core/db/coalesced-read';
import { AppError } from '../../../core/errors';
import { tallyTotal } from '../../../core/db/tally';
import { findPage, Page } from '../../../core/pagination';
import { PointTransaction } from '../entities/point-transaction';
import { BalanceFormat, BalanceWindowArgs, DailySummaryArgs, DailySummaryItem, HistoryArgs, PointBalance, PointExpiration, PointMovementInput } from '../types/point.types';
import { keepRefusal, onceForKey } from './idempotency';
import { LedgerService, PointMovement } from './ledger.service';

const DAY_MS = 24 * 3600 * 1000;

/** The part of a member's standing a balance read asks for: the current balance, or the lifetime sum of a format. */
const CURRENT = 'current';

/** The current balance (expired points never count) and, when asked, the lifetime sums of earned and spent points of each member. */
const standingsSql = (sums: boolean) => `select m.id::text as member_id,
        (b.point_amount - coalesce((select sum(l.remaining) from point.point_lot l
                                     where l.member_id = m.id and l.remaining > 0 and l.expires_at <= now()), 0))::text as point_amount,
        b.purchase_amount::text as purchase_amount, b.pending_amount::text as pending_amount${
          sums
            ? `,
        s.earned, s.earned_purchase, s.burned, s.burned_purchase
   from unnest($1::uuid[]) as m(id)
   left join point.point_balance b on b.member_id = m.id
   cross join lateral (select coalesce(sum(t.amount) filter (where t.action_type = 'EARN'), 0)::text as earned,
                              coalesce(sum(t.purchase_amount) filter (where t.action_type = 'EARN'), 0)::text as earned_purchase,
                              coalesce(sum(t.amount) filter (where t.action_type = 'SPEND'), 0)::text as burned,
                              coalesce(sum(t.purchase_amount) filter (where t.action_type = 'SPEND'), 0)::text as burned_purchase
                         from point.point_transaction t where t.member_id = m.id and t.action_type in ('EARN', 'SPEND')) s`
            : `
   from unnest($1::uuid[]) as m(id)
   left join point.point_balance b on b.member_id = m.id`
        }`;
const STANDINGS = { current: standingsSql(false), withSums: standingsSql(true) };

interface StandingRow {
  member_id: string;
  point_amount: string | null;
  purchase_amount: string | null;
  pending_amount: string | null;
  earned?: string;
  earned_purchase?: string;
  burned?: string;
  burned_purchase?: string;
}

/** Balances, earning and spending, history and daily summaries. */
export class PointService {
  /**
   * Balances and lifetime sums asked within one tick (a customer read with its points asks for its
   * balance, its earned and its spent points at once): one statement for all of them.
   */
  private readonly standings = new BatchLoader<string, PointBalance | undefined>((keys) => this.standingsOf(keys), undefined);

  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
  ) {}

  earn(input: PointMovementInput, caller: Principal, idempotencyKey?: string): Promise<PointTransaction> {
    return this.move('earn', input, caller, idempotencyKey);
  }

  spend(input: PointMovementInput, caller: Principal, idempotencyKey?: string): Promise<PointTransaction> {
    return this.move('spend', input, caller, idempotencyKey);
  }

  /**
   * `spend` as a saga's step (a redemption's points): once per key, and a refusal (400, the balance
   * short) is the key's answer for good, kept as the key's record, so that a concurrent actor of the same
   * saga asking again after the member earned is refused too, never spending what its saga compensated.
   * A spend under the key committed meanwhile is answered instead.
   */
  async spendOnce(input: PointMovementInput, caller: Principal, idempotencyKey: string): Promise<PointTransaction> {
    try {
      return await this.spend(input, caller, idempotencyKey);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'BAD_REQUEST') throw error;
      if (await keepRefusal(this.em, scopeOf('spend', caller), idempotencyKey, input, error)) throw error;
      return this.spend(input, caller, idempotencyKey);
    }
  }

  /** Current balances: expired points never count, even before the expiry job has run. */
  async balances(memberIds: string[]): Promise<Map<string, PointBalance>> {
    const rows: Array<{ member_id: string; point_amount: string; purchase_amount: string; pending_amount: string }> = await this.em.execute(
      `select b.member_id,
              (b.point_amount - coalesce((select sum(l.remaining) from point.point_lot l
                                           where l.member_id = b.member_id and l.remaining > 0 and l.expires_at <= now()), 0))::text as point_amount,
              b.purchase_amount::text as purchase_amount, b.pending_amount::text as pending_amount
         from point.point_balance b where b.member_id in (?)`,
      [memberIds],
    );
    const found = new Map(
      rows.map((row) => [row.member_id, { memberId: row.member_id, pointAmount: row.point_amount, purchaseAmount: row.purchase_amount, pendingAmount: row.pending_amount }]),
    );
    return new Map(memberIds.map((id) => [id, found.get(id) ?? { memberId: id, pointAmount: '0', purchaseAmount: '0', pendingAmount: '0' }]));
  }

  /** `standings`: keys are `<part> <memberId>`, part CURRENT or a BalanceFormat. */
  private async standingsOf(keys: string[]): Promise<Map<string, PointBalance>> {
    const asked = keys.map((key) => key.split(' ') as [string, string]);
    const memberIds = [...new Set(asked.map(([, memberId]) => memberId.toLowerCase()))];
    const sums = asked.some(([part]) => part !== CURRENT);
    const rows = await readRowsByIds<StandingRow>(this.em, sums ? STANDINGS.withSums : STANDINGS.current, memberIds, 'member_id');
    const byMember = new Map(rows.map((row) => [row.member_id, row]));
    return new Map(
      asked.map(([part, memberId], index) => {
        const row = byMember.get(memberId.toLowerCase());
        const [pointAmount, purchaseAmount] =
          part === BalanceFormat.earn ? [row?.earned, row?.earned_purchase] : part === BalanceFormat.burn ? [row?.burned, row?.burned_purchase] : [row?.point_amount, row?.purchase_amount];
        return [keys[index], { memberId, pointAmount: pointAmount ?? '0', purchaseAmount: purchaseAmount ?? '0', pendingAmount: row?.pending_amount ?? '0' }];
      }),
    );
  }

  /**
   * Sums over a window: `earn` the points earned, `burn` the points spent, neither the net change
   * (earned - spent - expired); purchaseAmount sums the purchases of the same entries. Without a window,
   * the current balance (without a format) or the lifetime sums (`standings`).
   */
  async balanceInWindow(memberId: string, window: BalanceWindowArgs): Promise<PointBalance> {
    if (!window.start && !window.end) return (await this.standings.load(`${window.format ?? CURRENT} ${memberId}`))!;
    const [from, to] = bounds(window.start, window.end);
    const types = window.format === BalanceFormat.earn ? ['EARN'] : window.format === BalanceFormat.burn ? ['SPEND'] : ['EARN', 'SPEND', 'EXPIRE'];
    const [row] = await this.em.execute(
      `select coalesce(sum(case when action_type = 'EARN' or ? then amount else -amount end), 0)::text as point_amount,
              coalesce(sum(purchase_amount), 0)::text as purchase_amount,
              coalesce((select pending_amount from point.point_balance where member_id = ?), 0)::text as pending_amount
         from point.point_transaction
        where member_id = ? and action_type in (?) and created_at >= ? and created_at < ?`,
      [Boolean(window.format), memberId, memberId, types, from, to],
    );
    return { memberId, pointAmount: row.point_amount, purchaseAmount: row.purchase_amount, pendingAmount: row.pending_amount };
  }

  /** Newest first; a far page costs what a near one does (core/pagination `findPage`). */
  async history(args: HistoryArgs): Promise<Page<PointTransaction>> {
    const where: Record<string, unknown> = {};
    if (args.memberIds?.length) where.memberId = { $in: args.memberIds };
    if (args.actionType) where.actionType = args.actionType;
    if (args.sourceBy) where.sourceBy = args.sourceBy;
    if (args.startDate || args.endDate) {
      const [from, to] = bounds(args.startDate, args.endDate);
      where.createdAt = { $gte: from, $lt: to };
    }
    const total = await this.historyTotal(args, where);
    return findPage(this.em, PointTransaction, where, { createdAt: 'desc', id: 'desc' }, args, total);
  }

  /**
   * Filtered only by members (or not at all), the total is kept: the members' entry counts on their
   * balance rows, or the ledger's tally. Other filters count the entries they select.
   */
  private async historyTotal(args: HistoryArgs, where: Record<string, unknown>): Promise<number> {
    if (args.actionType || args.sourceBy || args.startDate || args.endDate) return this.em.count(PointTransaction, where);
    if (!args.memberIds?.length) return tallyTotal(this.em, 'point', 'entries');
    const [row] = await this.em.execute(`select coalesce(sum(entry_count), 0)::text as n from point.point_balance where member_id in (?)`, [args.memberIds]);
    return Number(row.n);
  }

  /**
   * The next points to expire: the earliest expiry still ahead among the member's lots with points
   * left, and the points left in the lots expiring then; null when nothing is due to expire.
   */
  async nextExpiration(memberId: string): Promise<PointExpiration | null> {
    const [row]: Array<{ points: string; expires_at: Date }> = await this.em.execute(
      `select sum(remaining)::text as points, expires_at
         from point.point_lot
        where member_id = ? and remaining > 0 and expires_at > now()
        group by expires_at order by expires_at limit 1`,
      [memberId],
    );
    return row ? { memberId, points: row.points, expiresAt: new Date(row.expires_at) } : null;
  }

  /** Per UTC day: points earned, spent and expired, and the net change; for one member or for all. */
  async dailySummary(args: DailySummaryArgs, memberId?: string): Promise<DailySummaryItem[]> {
    const [from, to] = bounds(args.startDate ?? new Date(Date.now() - 30 * DAY_MS).toISOString(), args.endDate);
    return this.em.execute(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date,
              coalesce(sum(amount) filter (where action_type = 'EARN'), 0)::text as earned,
              coalesce(sum(amount) filter (where action_type = 'SPEND'), 0)::text as spent,
              coalesce(sum(amount) filter (where action_type = 'EXPIRE'), 0)::text as expired,
              coalesce(sum(case when action_type = 'EARN' then amount else -amount end), 0)::text as "netChange"
         from point.point_transaction
        where created_at >= ? and created_at < ? and (?::uuid is null or member_id = ?::uuid)
        group by 1 order by 1`,
      [from, to, memberId ?? null, memberId ?? null],
    );
  }

  /**
   * The entry's id is chosen first, so that an Idempotency-Key's claim records it with the key: with the
   * ledger's two statements, a movement is `begin`, the claim (with a key), the lock, the ledger
   * statement and `commit`. The entry is then in the unit of work: reading it back sends nothing.
   */
  private move(kind: 'earn' | 'spend', input: PointMovementInput, caller: Principal, idempotencyKey?: string): Promise<PointTransaction> {
    return this.em.transactional(async (em) => {
      const entryId = timeOrderedId();
      const work = async () => {
        const movement = { ...toMovement(input), id: entryId };
        const transaction = kind === 'earn' ? await this.ledger.earn(em, movement) : await this.ledger.spend(em, movement);
        return transaction.id;
      };
      const { id } = await onceForKey(em, scopeOf(kind, caller), idempotencyKey, input, work, entryId);
      return em.findOneOrFail(PointTransaction, { id });
    });
  }
}

/** The scope of a caller's idempotency keys of earns or spends. */
const scopeOf = (kind: 'earn' | 'spend', caller: Principal) => `${kind}:${caller.kind}:${caller.id}`;

/** Amounts arrive validated to at most 2 decimals, so fixing them to 2 decimals is exact. */
export function toMovement(input: PointMovementInput): PointMovement {
  return {
    memberId: input.memberId,
    amount: input.amount.toFixed(2),
    purchaseAmount: (input.purchaseAmount ?? 0).toFixed(2),
    shopId: input.shopId,
    categoryId: input.categoryId,
    note: input.note,
    sourceBy: input.sourceBy,
  };
}

/** [from, to) of a window; a date without a time as `end` includes that whole day. */
export function bounds(start?: string, end?: string): [Date, Date] {
  const from = start ? new Date(start) : new Date(0);
  const to = end ? new Date(new Date(end).getTime() + (/^\d{4}-\d{2}-\d{2}$/.test(end) ? DAY_MS : 1)) : new Date('9999-12-31T23:59:59.999Z');
  return [from, to];
}
