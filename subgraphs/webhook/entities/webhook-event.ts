import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One platform event as webhooks receive it: the exact body every attempt to every webhook sends
 * (`{id, type, created_at, data}`), kept while a delivery of it is.
 */
@Entity({ tableName: 'webhook_event' })
export class WebhookEvent {
  /** The event's id (the producer's outbox event id): `id` of the body and `webhook-id` of every attempt. */
  @PrimaryKey({ type: 'uuid' }) id: string;
  @Property({ type: 'text' }) type: string;
  @Property({ type: 'text' }) body: string;
  @Property({ type: 'timestamptz' }) createdAt: Date;
}
