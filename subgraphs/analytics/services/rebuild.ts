import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { POINT } from '../../point/contract';
import { ANALYTICS_EVENT_SOURCES, applyAnalyticsEventsOn, applyStagedPurchases, READ_MODEL_TABLES } from './read-model';

/** Events fetched at a time (one statement each); purchases applied per statement, straight from the staged rows. */
const BATCH = 2_000;
const PURCHASE_BATCH = 20_000;
/** The staging table of one domain's history (temporary: no WAL, dropped at commit). */
const STAGED = 'analytics_rebuild_staged';

interface StagedRow {
  n: string;
  id: string;
  type: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

export interface RebuildResult {
  /** Events read from the outboxes, by publishing domain. */
  events: Record<string, number>;
  /** Events applied (every one: the read model starts empty). */
  applied: number;
}

/**
 * Empties the read model and applies the history of every domain that feeds it, read from each domain's
 * outbox (`<domain>.outbox_event`: every event it ever published, kept after publication) in the order
 * it committed them. One transaction: readers see the old figures until the new ones are complete, and
 * the consumer waits on the emptied tables, then passes over the events the rebuild applied (their ids
 * are in `applied_event`) and applies the ones committed since.
 *
 * Each domain's events of the read model's types are first copied, numbered in commit order, into a
 * temporary table (the outboxes have no index on their sequence once published: paging them would
 * sort the whole outbox per page). Purchases, the bulk, are then applied as sets of PURCHASE_BATCH
 * inside the database; the other events one by one in commit order. Applying the purchases first is
 * the same as in order: nothing else reads or writes what a purchase writes, except its refund, which
 * comes after it anyway.
 */
export async function rebuildReadModel(orm: MikroORM<PostgreSqlDriver>, onProgress?: (source: string, events: number) => void): Promise<RebuildResult> {
  const sources = new Map<string, string[]>();
  for (const [type, source] of Object.entries(ANALYTICS_EVENT_SOURCES)) sources.set(source, [...(sources.get(source) ?? []), type]);
  const client = new Client({ connectionString: orm.config.get('clientUrl') });
  // A connection lost between two statements: the next one fails (and with it the rebuild), not the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`truncate ${READ_MODEL_TABLES.map((table) => `analytics.${table}`).join(', ')}`);
    const result: RebuildResult = { events: {}, applied: 0 };
    for (const [source, types] of sources) {
      const { rowCount } = await client.query(
        `create temporary table ${STAGED} on commit drop as
           select row_number() over (order by sequence) as n, id, type, payload, occurred_at from ${source}.outbox_event where type = any($1::text[])`,
        [types],
      );
      const total = rowCount ?? 0;
      // Its statistics: the planner then hashes a set of purchases against the ids it applied (a nested loop over 20,000 x 20,000 took 30 s).
      await client.query(`create index on ${STAGED} (n)`);
      await client.query(`analyze ${STAGED}`);
      result.events[source] = 0;
      if (types.includes(POINT.events.transactionCompleted)) {
        for (let from = 0; from < total; from += PURCHASE_BATCH) {
          result.applied += await applyStagedPurchases(client, STAGED, from, from + PURCHASE_BATCH);
          onProgress?.(source, Math.min(total, from + PURCHASE_BATCH));
        }
      }
      for (let after = 0; ; ) {
        const { rows } = await client.query<StagedRow>(
          `select n, id, type, payload, occurred_at from ${STAGED} where n > $1 and type <> $2 order by n limit ${BATCH}`,
          [after, POINT.events.transactionCompleted],
        );
        const events = rows.map((row): PublishedEvent => ({ id: row.id, type: row.type, occurredAt: new Date(row.occurred_at).toISOString(), data: row.payload }));
        result.applied += await applyAnalyticsEventsOn(client, events);
        if (rows.length < BATCH) break;
        after = Number(rows[rows.length - 1].n);
      }
      result.events[source] = total;
      onProgress?.(source, total);
      await client.query(`drop table ${STAGED}`);
    }
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
