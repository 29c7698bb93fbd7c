import type { EventType } from './event-type';
import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
import { randomUUID } from 'node:crypto';
import type { MigrationClass } from '../db/orm';
import { currentTraceparent } from '../tracing';

/**
 * An event waiting in a domain's outbox. Written in the same transaction as the change it announces
 * (each domain has an `outbox_event` table in its own schema); the relay publishes it afterwards.
 */
@Entity({ tableName: 'outbox_event' })
export class OutboxEvent {
  [OptionalProps]?: 'id' | 'occurredAt' | 'publishedAt' | 'sequence' | 'aggregateId' | 'traceContext';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  /** Assigned by the table's trigger; within one aggregate, commit order. The relay publishes in this order. */
  @Property({ type: 'bigint', nullable: true }) sequence?: string;
  @Property() type: string;
  @Property({ type: 'jsonb' }) payload: Record<string, unknown>;
  /** Whose stream the event belongs to (a member id): consumers apply one aggregate's events in order. */
  @Property({ type: 'text', nullable: true }) aggregateId: string | null = null;
  @Property({ type: 'timestamptz' }) occurredAt: Date = new Date();
  @Property({ type: 'timestamptz', nullable: true }) publishedAt: Date | null = null;
  /** The request that committed it, as a W3C `traceparent` (null untraced): its relay, consumers and deliveries link to it. */
  @Property({ type: 'text', nullable: true }) traceContext: string | null = currentTraceparent();
}

/**
 * Writes an event to the domain's outbox, in the caller's transaction (flushed with it). Give the
 * aggregate whenever the event belongs to one, so that its consumers see it in commit order.
 */
export function recordEvent<Payload extends object>(em: EntityManager, type: EventType<Payload>, payload: NoInfer<Payload>, options: { aggregateId: string | null }): OutboxEvent {
  return em.create(OutboxEvent, { type, payload: payload as Record<string, unknown>, aggregateId: options.aggregateId });
}

/**
 * SQL writing events to a domain's outbox as `recordEvent` does (its table and columns), for a statement
 * that writes a change and its events at once (a data-modifying CTE): one row per row of `events`, a
 * FROM item (a CTE's name, or a subquery with an alias) with the columns `type` (text), `payload`
 * (jsonb), `aggregate_id` (text or null) and `ord`, inserted in `ord` order, so that the outbox's
 * trigger numbers each aggregate's events in that order. `traceContext` is the SQL of the request's
 * `traceparent` (a parameter bound to `currentTraceparent()`).
 */
export function outboxInsertSql(schema: string, events: string, traceContext: string): string {
  return `insert into ${schema}.outbox_event (id, type, payload, aggregate_id, occurred_at, trace_context)
          select gen_random_uuid(), type, payload, aggregate_id, now(), ${traceContext} from ${events} order by ord`;
}

/** The outbox table of a domain schema, for that domain's first migration (then `outboxChainSql`). */
export function outboxTableSql(schema: string): string {
  return `
    create table ${schema}.outbox_event (
      id uuid primary key,
      sequence bigserial not null,
      type text not null,
      payload jsonb not null,
      occurred_at timestamptz not null,
      published_at timestamptz,
      trace_context text
    );
    create index outbox_event_unpublished_idx on ${schema}.outbox_event (sequence) where published_at is null;`;
}

/**
 * The trace context of the outbox's events (`OutboxEvent.traceContext`), added to every domain's outbox
 * after its own migrations (`openModuleOrm`); a new domain's table has it already.
 */
export function outboxTraceContextMigration(schema: string): MigrationClass {
  return class OutboxTraceContext extends Migration {
    async up(): Promise<void> {
      this.addSql(`alter table if exists ${schema}.outbox_event add column if not exists trace_context text`);
    }
  };
}

/**
 * Per-aggregate order for a domain's outbox. A sequence drawn at INSERT is not commit order: two
 * transactions of one member may commit the other way round. The trigger first takes a transaction
 * lock on the aggregate, then draws the sequence, so a member's second writer waits for the first to
 * commit and always gets the higher number. `outbox_delivery` is the relay's record of the last event
 * of each aggregate it handed to each queue (the `previousSequence` of the next one).
 */
export function outboxChainSql(schema: string): string {
  return `
    alter table ${schema}.outbox_event add column aggregate_id text;
    alter table ${schema}.outbox_event alter column sequence drop default;
    create function ${schema}.outbox_event_sequence() returns trigger language plpgsql as $$
    begin
      if new.aggregate_id is not null then
        perform pg_advisory_xact_lock(hashtext('${schema}.outbox:' || new.aggregate_id));
      end if;
      new.sequence := nextval('${schema}.outbox_event_sequence_seq');
      return new;
    end $$;
    create trigger outbox_event_sequence before insert on ${schema}.outbox_event
      for each row execute function ${schema}.outbox_event_sequence();
    create table ${schema}.outbox_delivery (
      aggregate_id text not null,
      queue text not null,
      last_sequence bigint not null,
      primary key (aggregate_id, queue)
    );`;
}

/**
 * The message a consumer's queue receives. `source` is the producing domain; within (source,
 * aggregateId), `previousSequence` is the sequence of the event of that aggregate this queue received
 * before (null for its first), so a consumer can tell a gap from a repeat.
 */
export interface PublishedEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  occurredAt: string;
  data: T;
  source?: string;
  sequence?: string;
  aggregateId?: string | null;
  previousSequence?: string | null;
  /** The `traceparent` of the request that committed the event: its consumer's span links to it. */
  traceContext?: string;
}
