import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { currentTraceparent } from '../../../core/tracing';
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';

export const V1_CHANNELS = ['in_app', 'chatapp_mini_program', 'sms', 'email'] as const;
export type V1Channel = (typeof V1_CHANNELS)[number];
export const V1_PRIORITIES = ['low', 'normal', 'high'] as const;
export const V1_CATEGORIES = ['promotions', 'loyalty', 'transactions', 'campaigns'] as const;
export const V1_STATUSES = ['scheduled', 'sending', 'completed'] as const;
export type V1Status = (typeof V1_STATUSES)[number];

/**
 * A version-1 notification (Part 3): one message sent over one channel to a list of customers or to a
 * segment (resolved when sending begins), now or at `scheduledAt`. scheduled → sending → completed;
 * the counters follow its delivery rows (`notification.delivery`, one per recipient and channel).
 */
@ObjectType({ description: 'A message sent to customers or a segment over one channel, with its delivery counters' })
@Entity({ tableName: 'v1_notification' })
export class V1Notification {
  [OptionalProps]?:
    | 'image' | 'actionUrl' | 'priority' | 'category' | 'templateName' | 'segmentId' | 'customerIds' | 'expanded' | 'expandCursor'
    | 'totalRecipients' | 'delivered' | 'failed' | 'skipped' | 'opened' | 'clicked' | 'note' | 'createdBy' | 'scheduledAt' | 'sentAt'
    | 'completedAt' | 'createdAt' | 'updatedAt' | 'traceContext';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property({ type: 'text' }) title: string;
  @Field() @Property({ type: 'text' }) body: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) image: string | null = null;
  @Field(() => String, { nullable: true, description: 'The link as given; recipients get a tracked link to it' }) @Property({ type: 'text', nullable: true }) actionUrl: string | null = null;
  @Field(() => String, { description: V1_CHANNELS.join(', ') }) @Property({ type: 'text' }) channel: V1Channel;
  @Field(() => String, { description: V1_PRIORITIES.join(', ') }) @Property({ type: 'text' }) priority: string = 'normal';
  @Field(() => String, { nullable: true, description: V1_CATEGORIES.join(', ') }) @Property({ type: 'text', nullable: true }) category: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) templateName: string | null = null;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) segmentId: string | null = null;
  @Property({ type: 'uuid[]', nullable: true }) customerIds: string[] | null = null;
  @Field(() => String, { description: V1_STATUSES.join(', ') }) @Property({ type: 'text' }) status: V1Status;
  /** Every recipient has its delivery row. */
  @Property({ type: 'boolean' }) expanded: boolean = false;
  /** Where recipient expansion goes on: an index into customerIds, or the last member id of the segment read. */
  @Property({ type: 'text', nullable: true }) expandCursor: string | null = null;
  @Field(() => Int) @Property({ type: 'integer' }) totalRecipients: number = 0;
  @Field(() => Int) @Property({ type: 'integer' }) delivered: number = 0;
  @Field(() => Int) @Property({ type: 'integer' }) failed: number = 0;
  @Field(() => Int, { description: 'Recipients who turned this channel or category off' }) @Property({ type: 'integer' }) skipped: number = 0;
  @Field(() => Int) @Property({ type: 'integer' }) opened: number = 0;
  @Field(() => Int) @Property({ type: 'integer' }) clicked: number = 0;
  @Field(() => String, { nullable: true, description: 'Why a send reached fewer recipients than asked (a segment deleted before its scheduled time)' })
  @Property({ type: 'text', nullable: true })
  note: string | null = null;
  @Property({ type: 'text', nullable: true }) createdBy: string | null = null;
  /** The request that sent or scheduled it, as a W3C `traceparent` (null untraced): each send's span links to it. */
  @Property({ type: 'text', nullable: true }) traceContext: string | null = currentTraceparent();
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) scheduledAt: Date | null = null;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) sentAt: Date | null = null;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
