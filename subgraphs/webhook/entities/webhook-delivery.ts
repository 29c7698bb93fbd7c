import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';

/** pending (due or retrying), succeeded, failed (its last retry failed, or cancelled), held (its webhook failed: sent on re-activation). */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'held';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'held'];

/** One event for one webhook, and how its attempts went. */
@ObjectType({ description: 'One event for one webhook: its state and last attempt' })
@Entity({ tableName: 'webhook_delivery' })
export class WebhookDelivery {
  [OptionalProps]?: 'payload' | 'attempts' | 'retriesUsed' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt' | 'deliveredAt' | 'createdAt' | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string;
  @Field(() => ID) @Property({ type: 'text' }) webhookId: string;
  @Field(() => ID, { description: 'The event id every attempt carries' }) @Property({ type: 'uuid' }) eventId: string;
  @Field() @Property({ type: 'text' }) eventType: string;
  @Field(() => String, { description: 'pending, succeeded, failed or held' }) @Property({ type: 'text' }) status: DeliveryStatus;
  @Field(() => Int, { description: 'Attempts made so far' }) @Property({ type: 'integer' }) attempts: number = 0;
  /** Retries of the schedule used in the current round (a re-activation or redelivery starts a new round). */
  @Property({ type: 'integer' }) retriesUsed: number = 0;
  @Field(() => Int, { nullable: true }) @Property({ type: 'integer', nullable: true }) lastStatusCode: number | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) lastError: string | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) nextAttemptAt: Date | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) deliveredAt: Date | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz' }) updatedAt: Date = new Date();

  /** The body every attempt sends, filled by the delivery log's reads (not a column: kept once per event). */
  @Field(() => String, { nullable: true, description: 'The JSON body every attempt of it sends, byte for byte (what the receiver got)' })
  payload?: string | null;
}
