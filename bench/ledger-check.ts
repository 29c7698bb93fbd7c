import { Pool } from 'pg';

export interface MemberLedger {
  memberId: string;
  /** point.point_balance.point_amount (0 when the member has no balance row). */
  balance: string;
  /** Sum over point.point_transaction: EARN - SPEND - EXPIRE. */
  ledgerSum: string;
  /** Sum of point.point_lot.remaining. */
  openLots: string;
  transactions: number;
  /** point.point_balance.entry_count, which must equal `transactions`. */
  entryCount: number;
  negativeBalanceAfter: number;
}

export interface LedgerCheck {
  members: MemberLedger[];
  transactions: number;
  /** One line per broken invariant; empty when the check passes. */
  problems: string[];
}

/**
 * For each member: the ledger sum (EARN - SPEND - EXPIRE) equals the balance row, the open lots
 * add up to the same amount, the balance row counts every entry, and no transaction records a
 * negative balance_after.
 */
export async function checkLedger(pool: Pool, memberIds: string[]): Promise<LedgerCheck> {
  const { rows } = await pool.query<{
    member_id: string;
    balance: string;
    ledger_sum: string;
    open_lots: string;
    transactions: string;
    entry_count: string;
    negative: string;
    consistent: boolean;
  }>(
    `with members as (select unnest($1::uuid[]) as member_id),
          ledger as (
            select member_id,
                   sum(case action_type when 'EARN' then amount when 'SPEND' then -amount when 'EXPIRE' then -amount end) as total,
                   count(*) as transactions,
                   count(*) filter (where balance_after < 0) as negative
              from point.point_transaction where member_id = any($1::uuid[]) group by member_id),
          -- Open lots only (remaining is never negative): the partial index of open lots serves it, a large ledger is not read whole.
          lots as (select member_id, sum(remaining) as open from point.point_lot where member_id = any($1::uuid[]) and remaining > 0 group by member_id)
     select m.member_id,
            coalesce(b.point_amount, 0)::text as balance,
            coalesce(l.total, 0)::text as ledger_sum,
            coalesce(o.open, 0)::text as open_lots,
            coalesce(l.transactions, 0) as transactions,
            coalesce(b.entry_count, 0) as entry_count,
            coalesce(l.negative, 0) as negative,
            coalesce(b.point_amount, 0) = coalesce(l.total, 0) and coalesce(o.open, 0) = coalesce(l.total, 0) as consistent
       from members m
       left join point.point_balance b on b.member_id = m.member_id
       left join ledger l on l.member_id = m.member_id
       left join lots o on o.member_id = m.member_id
      order by m.member_id`,
    [memberIds],
  );
  const members = rows.map((row) => ({
    memberId: row.member_id,
    balance: row.balance,
    ledgerSum: row.ledger_sum,
    openLots: row.open_lots,
    transactions: Number(row.transactions),
    entryCount: Number(row.entry_count),
    negativeBalanceAfter: Number(row.negative),
  }));
  const problems: string[] = [];
  for (const [i, member] of members.entries()) {
    if (!rows[i].consistent) {
      problems.push(`${member.memberId}: balance ${member.balance}, ledger sum ${member.ledgerSum}, open lots ${member.openLots}`);
    }
    if (member.entryCount !== member.transactions) problems.push(`${member.memberId}: entry count ${member.entryCount} for ${member.transactions} transactions`);
    if (member.negativeBalanceAfter > 0) problems.push(`${member.memberId}: ${member.negativeBalanceAfter} transactions with a negative balance_after`);
  }
  return { members, transactions: members.reduce((sum, member) => sum + member.transactions, 0), problems };
}

/**
 * The outbox beside the ledger: each of the members' entries has exactly one `points.*` event in
 * point.outbox_event naming it, and no event names an entry that is not there. One line per problem.
 */
export async function checkOutbox(pool: Pool, memberIds: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ entries: number; events: number; missing: number; orphans: number }>(
    `with entries as (select id::text as id from point.point_transaction where member_id = any($1::uuid[])),
          events as (select payload->>'transactionId' as id from point.outbox_event
                      where aggregate_id = any($1::text[]) and type in ('points.earned', 'points.redeemed', 'points.expired'))
     select (select count(*) from entries)::int as entries,
            (select count(*) from events)::int as events,
            (select count(*) from entries e where not exists (select 1 from events v where v.id = e.id))::int as missing,
            (select count(*) from events v where not exists (select 1 from entries e where e.id = v.id))::int as orphans`,
    [memberIds],
  );
  const { entries, events, missing, orphans } = rows[0];
  if (entries === events && missing === 0 && orphans === 0) return [];
  return [`outbox: ${events} events for ${entries} ledger entries (${missing} entries without an event, ${orphans} events without an entry)`];
}
