import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomBytes } from 'node:crypto';
import { Field, ID, ObjectType } from 'type-graphql';

/** `active`: receives events; `failed`: its last retry failed, events are held; `disabled`: switched off by its owner, receives and keeps nothing. */
export type WebhookStatus = 'active' | 'failed' | 'disabled';

export const WEBHOOK_ID = /^whk_[0-9a-f]{24}$/;
export const newWebhookId = (): string => `whk_${randomBytes(12).toString('hex')}`;

/**
 * A partner's endpoint for the platform's events: where, which event types (`*`: all), and the secret
 * its deliveries are signed with (kept as given: signing needs it; shown in full only when created).
 */
@ObjectType({ description: 'A webhook endpoint: its URL, the event types it receives, and its state' })
@Entity({ tableName: 'webhook' })
export class Webhook {
  [OptionalProps]?: 'status' | 'failedAt' | 'createdAt' | 'updatedAt' | 'revealSecret' | 'active' | 'shownSecret';

  @Field(() => ID, { description: 'whk_...' }) @PrimaryKey({ type: 'text' }) id: string = newWebhookId();
  @Field() @Property({ type: 'text' }) url: string;
  @Field(() => [String], { description: "Part 3's event types, or [\"*\"]" }) @Property({ type: 'text[]' }) events: string[];
  @Property({ type: 'text' }) secret: string;
  @Field(() => String, { description: 'active, failed (its last retry failed: events are held) or disabled (switched off by its owner)' })
  @Property({ type: 'text' })
  status: WebhookStatus = 'active';
  @Field(() => Date, { nullable: true, description: 'When its last retry failed' }) @Property({ type: 'timestamptz', nullable: true }) failedAt: Date | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  /** The secret in full: only in the answer that created the webhook (not stored). */
  revealSecret = false;

  @Field(() => Boolean, { description: 'Whether events are delivered to it (status active)' })
  get active(): boolean {
    return this.status === 'active';
  }

  @Field(() => String, { name: 'secret', description: 'In full only when created; afterwards its last four characters' })
  get shownSecret(): string {
    return this.revealSecret ? this.secret : `****${this.secret.slice(-4)}`;
  }
}
