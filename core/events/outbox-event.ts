import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/**
 * An event waiting in a domain's outbox. Written in the same transaction as the change it announces
 * (each domain has an `outbox_event` table in its own schema); the relay publishes it afterwards.
 */
@Entity({ tableName: 'outbox_event' })
export class OutboxEvent {
  [OptionalProps]?: 'id' | 'occurredAt' | 'publishedAt' | 'sequence';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  /** Commit order within the domain (from the table's sequence): the relay publishes in this order. */
  @Property({ type: 'bigint', nullable: true }) sequence?: string;
  @Property() type: string;
  @Property({ type: 'jsonb' }) payload: Record<string, unknown>;
  @Property({ type: 'timestamptz' }) occurredAt: Date = new Date();
  @Property({ type: 'timestamptz', nullable: true }) publishedAt: Date | null = null;
}

/** The outbox table of a domain schema, for that domain's first migration. */
export function outboxTableSql(schema: string): string {
  return `
    create table ${schema}.outbox_event (
      id uuid primary key,
      sequence bigserial not null,
      type text not null,
      payload jsonb not null,
      occurred_at timestamptz not null,
      published_at timestamptz
    );
    create index outbox_event_unpublished_idx on ${schema}.outbox_event (sequence) where published_at is null;`;
}

/** The message a consumer receives from the job queue. */
export interface PublishedEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  occurredAt: string;
  data: T;
}
