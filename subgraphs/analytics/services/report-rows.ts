import { EntityManager } from '@mikro-orm/postgresql';
import { arrayLiteral } from '../../../core/db/array-literal';
import { ReportType } from '../entities/report';

const BATCH = 5_000;
/** A timestamp column as ISO 8601 UTC without fractions, the v1 spelling. */
const at = (column: string, alias = column.replace(/^\w+\./, '')) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as ${alias}`;

/** What a report's rows are read with: its period and the customers it is narrowed to (a segment's). */
export interface RowFilter {
  from: Date | null;
  to: Date | null;
  customerIds: string[] | null;
}

interface Source {
  columns: string[];
  /** The columns holding numbers (numeric read as text, exact): never formulas, so a leading `-` stays as it is. */
  numbers: string[];
  /** The select: the key `k` first (the first column), then the other columns in order. */
  select: string;
  /** The primary key the rows are paged by, as the select's table names it: its index gives each page in order. */
  key: string;
  /** The time column the period applies to; the customer column a segment narrows. */
  time: string;
  customer: string | null;
  where?: string;
}

/** The columns of each report, read from the read model only, in a stable order (the key). */
const SOURCES: Record<ReportType, Source> = {
  customers: {
    columns: ['customer_id', 'name', 'email', 'phone', 'tier', 'points_balance', 'points_earned', 'points_redeemed', 'registered_at'],
    numbers: ['points_balance', 'points_earned', 'points_redeemed'],
    key: 'customer_id',
    select: `select customer_id as k, name, email, phone, tier_name as tier, points_balance::text, points_earned::text, points_redeemed::text, ${at('registered_at')} from analytics.customer`,
    time: 'registered_at',
    customer: 'customer_id',
    where: 'deleted_at is null and registered_at is not null',
  },
  points: {
    columns: ['transaction_id', 'customer_id', 'type', 'points', 'reason', 'balance_after', 'created_at'],
    numbers: ['points', 'balance_after'],
    key: 'transaction_id',
    select: `select transaction_id as k, customer_id, type, points::text, reason, balance_after::text, ${at('created_at')} from analytics.points_entry`,
    time: 'created_at',
    customer: 'customer_id',
  },
  transactions: {
    columns: ['transaction_id', 'customer_id', 'amount', 'refunded', 'status', 'store_id', 'category', 'points_earned', 'occurred_at'],
    numbers: ['amount', 'refunded', 'points_earned'],
    key: 'transaction_id',
    select: `select transaction_id as k, customer_id, amount::text, refunded::text, status, store_id, category, points_earned::text, ${at('occurred_at')} from analytics.purchase`,
    time: 'occurred_at',
    customer: 'customer_id',
  },
  campaigns: {
    columns: ['campaign_id', 'name', 'type', 'status', 'start_date', 'end_date', 'participants', 'conversions'],
    numbers: ['participants', 'conversions'],
    key: 'c.campaign_id',
    select: `select c.campaign_id as k, c.name, c.type, c.status, ${at('c.start_date')}, ${at('c.end_date')},
                    (select count(*) from analytics.campaign_participant p where p.campaign_id = c.campaign_id)::text as participants,
                    (select count(completed_at) from analytics.campaign_participant p where p.campaign_id = c.campaign_id)::text as conversions
               from analytics.campaign c`,
    time: 'c.start_date',
    customer: null,
  },
  rewards: {
    columns: ['claim_id', 'reward_id', 'customer_id', 'points', 'claimed_at', 'redeemed_at'],
    numbers: ['points'],
    key: 'reward_code_id',
    select: `select reward_code_id as k, reward_id, customer_id, points::text, ${at('claimed_at')}, ${at('redeemed_at')} from analytics.reward_claim`,
    time: 'claimed_at',
    customer: 'customer_id',
  },
};

export const reportColumns = (type: ReportType): string[] => SOURCES[type].columns;

/** The positions of a report's number columns (in `reportColumns`). */
export const reportNumberColumns = (type: ReportType): Set<number> => new Set(SOURCES[type].numbers.map((column) => SOURCES[type].columns.indexOf(column)));

/**
 * A report's rows, read page by page by key (5,000 at a time, each page a walk of the key's index from
 * the last key of the one before, in the key's own order: uuids as uuids, text keys in the database's
 * collation): memory stays bounded whatever the report's size, and rows come in key order. A segment
 * narrows customer reports; campaigns are not narrowed.
 */
export async function* reportRows(em: EntityManager, type: ReportType, filter: RowFilter): AsyncGenerator<unknown[]> {
  const source = SOURCES[type];
  const key = source.key;
  const conditions = source.where ? [source.where] : [];
  const params: unknown[] = [];
  if (filter.from) conditions.push(`${source.time} >= ?`) && params.push(filter.from);
  if (filter.to) conditions.push(`${source.time} <= ?`) && params.push(filter.to);
  if (filter.customerIds && source.customer) conditions.push(`${source.customer} = any(?::uuid[])`) && params.push(arrayLiteral(filter.customerIds));
  for (let after: string | null = null; ; ) {
    const where = [...conditions, ...(after === null ? [] : [`${key} > ?`])];
    const rows: Array<Record<string, unknown>> = await em.execute(
      `${source.select} ${where.length ? `where ${where.join(' and ')}` : ''} order by ${key} limit ${BATCH}`,
      after === null ? params : [...params, after],
    );
    for (const row of rows) yield [row.k, ...Object.values(row).slice(1)];
    if (rows.length < BATCH) return;
    after = String(rows[rows.length - 1].k);
  }
}
