import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { Logger } from '../logger';
import { DEFAULT_RETRY, ensureQueue, inTransaction, JOB_QUEUE_SCHEMA, RetryPolicy, workOn } from './job-queue';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, linksTo } from '../tracing';
import { PublishedEvent } from './outbox-event';

export interface EventConsumerOptions<T> {
  /** The consuming domain's ORM: its schema holds the consumer's positions and parked events. */
  orm: MikroORM<PostgreSqlDriver>;
  boss: PgBoss;
  logger: Logger;
  queue: string;
  /** The event types to receive: the queue is subscribed to exactly these. */
  events: readonly string[];
  /** Applies one event in the consumer's transaction; a throw rolls it back and the job is tried again. */
  apply: (em: EntityManager, event: PublishedEvent<T>) => Promise<unknown>;
  retry?: RetryPolicy;
  batchSize?: number;
}

/** The consumer-side tables, in the consuming domain's schema (one set serves all its queues). */
export function consumerTablesSql(schema: string): string {
  return `
    -- The last event applied per queue and aggregate of a producing domain (source).
    create table ${schema}.event_position (
      queue text not null,
      source text not null,
      aggregate_id text not null,
      last_sequence bigint,
      updated_at timestamptz not null default now(),
      primary key (queue, source, aggregate_id)
    );
    -- Events that arrived before their predecessor was applied; applied right after it.
    create table ${schema}.parked_event (
      queue text not null,
      source text not null,
      aggregate_id text not null,
      sequence bigint not null,
      previous_sequence bigint not null,
      event_id uuid not null,
      type text not null,
      message jsonb not null,
      parked_at timestamptz not null default now(),
      primary key (queue, source, aggregate_id, sequence)
    );
    create unique index parked_event_next_uidx on ${schema}.parked_event (queue, source, aggregate_id, previous_sequence);
    -- Events without an aggregate already applied, per queue.
    create table ${schema}.consumed_event (
      queue text not null,
      event_id uuid not null,
      consumed_at timestamptz not null default now(),
      primary key (queue, event_id)
    );`;
}

/**
 * The second shape of the consumer-side tables (a migration of each consuming domain, after
 * `consumerTablesSql`): a position says whether events of its stream are parked, so that applying an
 * event looks for parked successors only when there are some.
 */
export function consumerParkedFlagSql(schema: string): string {
  return `
    alter table ${schema}.event_position add column parked boolean not null default false;
    update ${schema}.event_position p set parked = true
     where exists (select 1 from ${schema}.parked_event e where e.queue = p.queue and e.source = p.source and e.aggregate_id = p.aggregate_id);`;
}

/** An event that is part of an aggregate's stream (from a relay that numbers them). */
type ChainedEvent = PublishedEvent & { source: string; sequence: string; aggregateId: string };
const isChained = (event: PublishedEvent): event is ChainedEvent => Boolean(event.source && event.sequence && event.aggregateId);

/**
 * Consumes a queue of published events: creates the queue with a retry policy (backoff) and a
 * dead-letter queue, subscribes it to `events`, and applies each job in its own transaction.
 *
 * - An event without an aggregate is applied once per event id (`consumed_event`).
 * - An aggregate's events are applied in the order the producer committed them. The position
 *   (`event_position`) holds the last sequence applied. One statement claims it: it moves the position
 *   to the event when the position is the event's `previousSequence` (or null, with no position yet:
 *   the first this queue received), and locks the position row for the transaction whatever it finds.
 *   A claimed event is applied, then, only when the position says some are parked, the parked events
 *   that follow it, in chain order, in the same transaction. An event not claimed is a repeat when
 *   its sequence is at or below the position (it changes nothing); any other is parked
 *   (`parked_event`, job completed) until its predecessor is applied. A failing event thus holds back
 *   only its own aggregate, and only until it is applied (after a retry, or replayed from the
 *   dead-letter queue); its rollback takes the position back with what it applied.
 * - A parked event that fails when its turn comes is put back on the queue as a new job, so it gets
 *   its own retries and dead letter; what it changed is rolled back, rows and entities alike.
 */
export async function startEventConsumer<T = Record<string, unknown>>(options: EventConsumerOptions<T>): Promise<void> {
  const { orm, boss, logger, queue, events } = options;
  const schema = orm.config.get('schema')!;
  await ensureQueue(boss, orm.config.get('clientUrl')!, queue, options.retry ?? DEFAULT_RETRY);
  const { rows: subscribed } = await boss.getDb().executeSql(`select event from ${JOB_QUEUE_SCHEMA}.subscription where name = $1`, [queue]);
  for (const { event } of subscribed) if (!events.includes(event)) await boss.unsubscribe(event, queue);
  for (const type of events) await boss.subscribe(type, queue);

  // A type the queue no longer subscribes to (a job from before) is passed over, its position taken.
  const apply = async (em: EntityManager, event: PublishedEvent) => {
    if (events.includes(event.type)) await options.apply(em, event as PublishedEvent<T>);
  };

  const applyChained = async (em: EntityManager, event: ChainedEvent) => {
    const stream = [queue, event.source, event.aggregateId];
    const previous = event.previousSequence ?? null;
    // Claims the event's turn, or (no row back) finds it taken or not yet come; locks the position row either way.
    const [claim]: Array<{ last: string | null; parked: boolean }> = await em.execute(
      `insert into ${schema}.event_position as p (queue, source, aggregate_id, last_sequence)
       values (?, ?, ?, case when ?::bigint is null then ?::bigint end)
       on conflict (queue, source, aggregate_id) do update set last_sequence = ?::bigint, updated_at = now()
         where p.last_sequence is not distinct from ?::bigint
       returning last_sequence::text as last, parked`,
      [...stream, previous, event.sequence, event.sequence, previous],
    );
    // A row back with a position is the claim (a new row without one: the stream's first event here is not its first).
    if (claim?.last == null) {
      // Not its turn: the rare path (a repeat, or an event that arrived before its predecessor was applied).
      const last = claim ? null : (await em.execute(`select last_sequence::text as last from ${schema}.event_position where queue = ? and source = ? and aggregate_id = ?`, stream))[0].last;
      if (last !== null && BigInt(event.sequence) <= BigInt(last)) return;
      await em.execute(
        `with parked as (
           insert into ${schema}.parked_event (queue, source, aggregate_id, sequence, previous_sequence, event_id, type, message)
           values (?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing)
         update ${schema}.event_position set parked = true where queue = ? and source = ? and aggregate_id = ?`,
        [...stream, event.sequence, previous, event.id, event.type, JSON.stringify(event), ...stream],
      );
      logger.debug({ queue, eventId: event.id, aggregateId: event.aggregateId, waitsFor: previous }, 'event parked until its predecessor is applied');
      return;
    }
    await apply(em, event);
    if (claim.parked) await applyParked(em, stream, event.sequence);
  };

  /** The parked events that follow `last`, in chain order; then the position past them, and whether some are still parked. */
  const applyParked = async (em: EntityManager, stream: string[], last: string) => {
    for (;;) {
      const [next]: Array<{ sequence: string; message: ChainedEvent }> = await em.execute(
        `delete from ${schema}.parked_event where queue = ? and source = ? and aggregate_id = ? and previous_sequence = ?
         returning sequence::text as sequence, message`,
        [...stream, last],
      );
      if (!next) break;
      // Each parked event in a savepoint with an identity map of its own: a failure rolls back its rows,
      // and no entity it changed is left in `em` for the outer commit to flush.
      await em.flush();
      em.clear();
      try {
        await em.transactional((inner) => apply(inner, next.message), { clear: true });
      } catch (error) {
        logger.warn({ err: error, queue, eventId: next.message.id }, 'parked event failed: back on the queue');
        await boss.insert([{ name: queue, data: next.message }], { db: inTransaction(em) });
        break;
      }
      last = next.sequence;
    }
    await em.execute(
      `update ${schema}.event_position p set last_sequence = ?, updated_at = now(),
              parked = exists (select 1 from ${schema}.parked_event e where e.queue = p.queue and e.source = p.source and e.aggregate_id = p.aggregate_id)
        where queue = ? and source = ? and aggregate_id = ?`,
      [last, ...stream],
    );
  };

  // Each event in a trace of its own, linked to the request that committed it (its statements within).
  const consume = (event: PublishedEvent) =>
    inSpan(`consume ${event.type}`, { root: true, kind: SpanKind.CONSUMER, links: linksTo([event.traceContext]), attributes: { 'messaging.destination.name': queue, 'messaging.message.id': event.id } }, () =>
      orm.em.fork().transactional(async (em) => {
        if (isChained(event)) return applyChained(em, event);
        const fresh = await em.execute(`insert into ${schema}.consumed_event (queue, event_id) values (?, ?) on conflict do nothing returning event_id`, [queue, event.id]);
        if (fresh.length > 0) await apply(em, event);
      }),
    );

  await workOn<PublishedEvent>(boss, queue, { batchSize: options.batchSize ?? 20, pollingIntervalSeconds: 0.5 }, async (jobs) => {
    // One job at a time, in queue order (pg-boss hands a batch out in no particular order: sorted by
    // its own order, created_on then id); a failure fails that job alone (pg-boss retries it).
    const ordered = [...jobs].sort((a, b) => a.createdOn.getTime() - b.createdOn.getTime() || a.id.localeCompare(b.id));
    for (const job of ordered) {
      try {
        await consume(job.data);
      } catch (error) {
        logger.warn({ err: error, queue, eventId: job.data.id, type: job.data.type }, 'event failed');
        await boss.fail(queue, job.id, error as Error);
      }
    }
  });
  logger.debug({ queue, events }, 'event consumer started');
}
