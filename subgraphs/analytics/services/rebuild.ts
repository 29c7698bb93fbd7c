import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { ANALYTICS_EVENT_SOURCES, applyAnalyticsEventsOn, READ_MODEL_TABLES } from './read-model';

const BATCH = 2_000;

interface OutboxRow {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
  sequence: string;
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
 */
export async function rebuildReadModel(orm: MikroORM<PostgreSqlDriver>, onProgress?: (source: string, events: number) => void): Promise<RebuildResult> {
  const sources = new Map<string, string[]>();
  for (const [type, source] of Object.entries(ANALYTICS_EVENT_SOURCES)) sources.set(source, [...(sources.get(source) ?? []), type]);
  const client = new Client({ connectionString: orm.config.get('clientUrl') });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`truncate ${READ_MODEL_TABLES.map((table) => `analytics.${table}`).join(', ')}`);
    const result: RebuildResult = { events: {}, applied: 0 };
    for (const [source, types] of sources) {
      result.events[source] = 0;
      for (let after = '0'; ; ) {
        const { rows } = await client.query<OutboxRow>(
          `select id, type, payload, occurred_at, sequence::text as sequence from ${source}.outbox_event
            where type = any($1::text[]) and outbox_event.sequence > $2::bigint order by outbox_event.sequence limit ${BATCH}`,
          [types, after],
        );
        const events = rows.map((row): PublishedEvent => ({ id: row.id, type: row.type, occurredAt: new Date(row.occurred_at).toISOString(), data: row.payload }));
        result.applied += await applyAnalyticsEventsOn(client, events);
        result.events[source] += rows.length;
        if (rows.length > 0) onProgress?.(source, result.events[source]);
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1].sequence;
      }
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
