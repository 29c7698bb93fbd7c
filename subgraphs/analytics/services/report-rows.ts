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
  /** The select: columns in order, then the key column `k` the rows are paged by. */
  select: string;
  /** The time column the period applies to; the customer column a segment narrows. */
  time: string;
  customer: string | null;
  where?: string;
}

/** The columns of each report, read from the read model only, in a stable order (the key). */
const SOURCES: Record<ReportType, Source> = {
  customers: {
    columns: ['customer_id', 'name', 'email', 'phone', 'tier', 'points_balance', 'points_earned', 'points_redeemed', 'registered_at'],
    select: `select customer_id::text as k, name, email, phone, tier_name as tier, points_balance::text, points_earned::text, points_redeemed::text, ${at('registered_at')} from analytics.customer`,
    time: 'registered_at',
    customer: 'customer_id',
    where: 'deleted_at is null and registered_at is not null',
  },
  points: {
    columns: ['transaction_id', 'customer_id', 'type', 'points', 'reason', 'balance_after', 'created_at'],
    select: `select transaction_id as k, customer_id, type, points::text, reason, balance_after::text, ${at('created_at')} from analytics.points_entry`,
    time: 'created_at',
    customer: 'customer_id',
  },
  transactions: {
    columns: ['transaction_id', 'customer_id', 'amount', 'refunded', 'status', 'store_id', 'category', 'points_earned', 'occurred_at'],
    select: `select transaction_id as k, customer_id, amount::text, refunded::text, status, store_id, category, points_earned::text, ${at('occurred_at')} from analytics.purchase`,
    time: 'occurred_at',
    customer: 'customer_id',
  },
  campaigns: {
    columns: ['campaign_id', 'name', 'type', 'status', 'start_date', 'end_date', 'participants', 'conversions'],
    select: `select c.campaign_id::text as k, c.name, c.type, c.status, ${at('c.start_date')}, ${at('c.end_date')},
                    (select count(*) from analytics.campaign_participant p where p.campaign_id = c.campaign_id)::text as participants,
                    (select count(completed_at) from analytics.campaign_participant p where p.campaign_id = c.campaign_id)::text as conversions
               from analytics.campaign c`,
    time: 'c.start_date',
    customer: null,
  },
  rewards: {
    columns: ['claim_id', 'reward_id', 'customer_id', 'points', 'claimed_at', 'redeemed_at'],
    select: `select reward_code_id as k, reward_id, customer_id, points::text, ${at('claimed_at')}, ${at('redeemed_at')} from analytics.reward_claim`,
    time: 'claimed_at',
    customer: 'customer_id',
  },
};

export const reportColumns = (type: ReportType): string[] => SOURCES[type].columns;

/** The key of a report's source (its first column) as the select names it. */
const keyColumn = (type: ReportType) => (type === 'campaigns' ? 'c.campaign_id::text' : type === 'customers' ? 'customer_id::text' : SOURCES[type].columns[0] === 'claim_id' ? 'reward_code_id' : 'transaction_id');

/**
 * A report's rows, read page by page by key (5,000 at a time): memory stays bounded whatever the
 * report's size, and rows come in key order. A segment narrows customer reports; campaigns are not narrowed.
 */
export async function* reportRows(em: EntityManager, type: ReportType, filter: RowFilter): AsyncGenerator<unknown[]> {
  const source = SOURCES[type];
  const key = keyColumn(type);
  const conditions = source.where ? [source.where] : [];
  const params: unknown[] = [];
  if (filter.from) conditions.push(`${source.time} >= ?`) && params.push(filter.from);
  if (filter.to) conditions.push(`${source.time} <= ?`) && params.push(filter.to);
  if (filter.customerIds && source.customer) conditions.push(`${source.customer} = any(?::uuid[])`) && params.push(arrayLiteral(filter.customerIds));
  for (let after: string | null = null; ; ) {
    const where = [...conditions, ...(after === null ? [] : [`${key} collate "C" > ?`])];
    const rows: Array<Record<string, unknown>> = await em.execute(
      `${source.select} ${where.length ? `where ${where.join(' and ')}` : ''} order by ${key} collate "C" limit ${BATCH}`,
      after === null ? params : [...params, after],
    );
    for (const row of rows) yield [row.k, ...Object.values(row).slice(1)];
    if (rows.length < BATCH) return;
    after = String(rows[rows.length - 1].k);
  }
}
