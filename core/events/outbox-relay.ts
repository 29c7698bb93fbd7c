import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { Pool, PoolClient } from 'pg';
import { transactionOn, withHeldClient } from '../db/held-client';
import { logFailure } from '../unavailable';
import { Logger } from '../logger';
import { JOB_QUEUE_SCHEMA, onConnection, orderedJobId } from './job-queue';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, linksTo } from '../tracing';
import { PublishedEvent } from './outbox-event';

const BATCH = 100;
/** The longest a relay waits before it tries again after failures (the database was unavailable). */
const MAX_BACKOFF_MS = 5_000;

export interface OutboxRelay {
  /** Publishes what is waiting now (nothing while another relay of the domain is at it); resolves with how many events went out. */
  drain: () => Promise<number>;
  stop: () => Promise<void>;
}

interface Row {
  id: string;
  sequence: string;
  type: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
  aggregate_id: string | null;
  trace_context: string | null;
}

/**
 * Moves events from a domain's outbox to the job queue in sequence order: every queue subscribed to an
 * event's type (pg-boss `subscribe`) gets a job. One relay per domain at a time: a drain holds the
 * session lock `outbox:<schema>` around its transaction, so a second relay returns at once instead of
 * publishing the next batch alongside. The jobs are inserted in the same transaction that marks the
 * events published: nothing is lost and nothing goes out twice. Each job names the aggregate's previous
 * event in that same queue (`outbox_delivery`), so consumers can keep a member's events in order.
 */
export function startOutboxRelay(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger, intervalMs = 200): OutboxRelay {
  const schema = orm.config.get('schema')!;
  const pool = new Pool({ connectionString: orm.config.get('clientUrl'), max: 1, idleTimeoutMillis: 5_000 });
  pool.on('error', (error) => logFailure(logger, error, 'outbox relay connection failed'));
  let running: Promise<number> | undefined;

  const lockKey = `outbox:${schema}`;
  // An idle outbox costs one look at its index of unpublished events, not a lock and a transaction: an
  // event committed just after the look is drained at the next tick.
  const pending = `select exists (select 1 from ${schema}.outbox_event where published_at is null) as pending`;
  const drainOnce = () =>
    withHeldClient(pool, async (client) => {
      if (!(await client.query(pending)).rows[0].pending) return 0;
      if (!(await client.query('select pg_try_advisory_lock(hashtext($1)) as locked', [lockKey])).rows[0].locked) return 0;
      // Begun after the lock is held: this transaction's jobs are created after the previous drain's. A
      // failed client is closed (withHeldClient), which releases a lock its failure left held.
      const published = await transactionOn(client, () => publishBatch(client, schema, boss));
      await client.query('select pg_advisory_unlock(hashtext($1))', [lockKey]);
      return published;
    });
  const drain = async () => {
    while (running) await running.catch(() => 0);
    running = drainOnce();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  };
  let stopped = false;
  // After a failure the relay waits, doubling up to MAX_BACKOFF_MS, before it tries again.
  let resumeAt = 0;
  let backoffMs = 0;
  const timer = setInterval(async () => {
    if (running || stopped || Date.now() < resumeAt) return;
    try {
      // A full batch drains again at once, unless the relay stopped meanwhile (its pool is ending).
      while ((await drain()) === BATCH && !stopped);
      backoffMs = 0;
    } catch (error) {
      backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(intervalMs, backoffMs * 2));
      resumeAt = Date.now() + backoffMs;
      logFailure(logger, error, 'outbox relay failed', { schema, retryInMs: backoffMs });
    }
  }, intervalMs);
  return {
    drain,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => 0);
      await pool.end();
    },
  };
}

/**
 * Publishes the oldest unpublished events of the outbox, in the caller's transaction; returns how many.
 * Traced as work of its own, linked to the requests that committed the events; each job carries its
 * event's trace context on to the consumer.
 */
async function publishBatch(client: PoolClient, schema: string, boss: PgBoss): Promise<number> {
  const { rows: events } = await client.query<Row>(
    `select id, sequence::text as sequence, type, payload, occurred_at, aggregate_id, trace_context
       from ${schema}.outbox_event where published_at is null order by outbox_event.sequence limit $1`,
    [BATCH],
  );
  if (events.length === 0) return 0;
  const links = linksTo(events.map((event) => event.trace_context));
  await inSpan(`outbox relay ${schema}`, { root: true, kind: SpanKind.PRODUCER, links, attributes: { 'messaging.batch.message_count': events.length } }, () => publish(client, schema, boss, events));
  return events.length;
}

async function publish(client: PoolClient, schema: string, boss: PgBoss, events: Row[]): Promise<void> {
  const { rows: subscriptions } = await client.query<{ event: string; name: string }>(
    `select event, name from ${JOB_QUEUE_SCHEMA}.subscription where event = any($1::text[]) order by name`,
    [[...new Set(events.map((event) => event.type))]],
  );
  const aggregates = [...new Set(events.flatMap((event) => (event.aggregate_id ? [event.aggregate_id] : [])))];
  const { rows: delivered } = await client.query<{ queue: string; aggregate_id: string; last_sequence: string }>(
    `select queue, aggregate_id, last_sequence::text as last_sequence from ${schema}.outbox_delivery where aggregate_id = any($1::text[])`,
    [aggregates],
  );
  const key = (queue: string, aggregateId: string) => JSON.stringify([queue, aggregateId]);
  const last = new Map(delivered.map((row) => [key(row.queue, row.aggregate_id), row.last_sequence]));
  const moved = new Map<string, { queue: string; aggregateId: string; sequence: string }>();
  const jobs: PgBoss.JobInsert<PublishedEvent>[] = [];
  for (const event of events) {
    for (const { name: queue } of subscriptions.filter((subscription) => subscription.event === event.type)) {
      const message: PublishedEvent = {
        id: event.id,
        type: event.type,
        occurredAt: event.occurred_at.toISOString(),
        data: event.payload,
        source: schema,
        sequence: event.sequence,
        aggregateId: event.aggregate_id,
        previousSequence: event.aggregate_id ? (last.get(key(queue, event.aggregate_id)) ?? null) : null,
        ...(event.trace_context ? { traceContext: event.trace_context } : {}),
      };
      if (event.aggregate_id) {
        last.set(key(queue, event.aggregate_id), event.sequence);
        moved.set(key(queue, event.aggregate_id), { queue, aggregateId: event.aggregate_id, sequence: event.sequence });
      }
      jobs.push({ id: orderedJobId(BigInt(event.sequence)), name: queue, data: message });
    }
  }
  if (jobs.length > 0) await boss.insert(jobs, { db: onConnection(client) });
  const positions = [...moved.values()];
  await client.query(
    `insert into ${schema}.outbox_delivery (queue, aggregate_id, last_sequence)
     select * from unnest($1::text[], $2::text[], $3::bigint[])
     on conflict (aggregate_id, queue) do update set last_sequence = excluded.last_sequence`,
    [positions.map((row) => row.queue), positions.map((row) => row.aggregateId), positions.map((row) => row.sequence)],
  );
  await client.query(`update ${schema}.outbox_event set published_at = now() where id = any($1::uuid[])`, [events.map((event) => event.id)]);
}
