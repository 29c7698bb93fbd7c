import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { SegmentReference } from '../types/segment.type';

export const CAMPAIGN_TYPES = ['promotion', 'challenge', 'event'] as const;
export const CAMPAIGN_STATUSES = ['draft', 'active', 'ended'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * A marketing campaign (Part 3): draft → active → ended. `reward`, `rules` and `content` are checked
 * objects (camelCase keys); `completions` counts completed participations (the `max_uses` cap).
 */
@ObjectType({ description: 'A marketing campaign' })
@Entity({ tableName: 'campaign' })
export class Campaign {
  [OptionalProps]?: 'status' | 'description' | 'targetSegmentId' | 'reward' | 'content' | 'completions' | 'createdAt' | 'updatedAt' | 'targetSegment';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property({ type: 'text' }) name: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description: string | null = null;
  @Field(() => String, { description: CAMPAIGN_TYPES.join(', ') }) @Property({ type: 'text' }) type: string;
  @Field(() => String, { description: CAMPAIGN_STATUSES.join(', ') }) @Property({ type: 'text' }) status: CampaignStatus = 'draft';
  @Field() @Property({ type: 'timestamptz' }) startDate: Date;
  @Field() @Property({ type: 'timestamptz' }) endDate: Date;
  @Property({ type: 'text', nullable: true }) targetSegmentId: string | null = null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{type: points|reward, value, unit}' }) @Property({ type: 'jsonb', nullable: true }) reward: Record<string, unknown> | null = null;
  @Field(() => GraphQLJSONObject, { description: '{minPurchase, maxUses, perCustomerLimit}' }) @Property({ type: 'jsonb' }) rules: CampaignRules = { minPurchase: null, maxUses: null, perCustomerLimit: 1 };
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{banner, terms}' }) @Property({ type: 'jsonb', nullable: true }) content: Record<string, unknown> | null = null;
  @Property({ type: 'integer' }) completions: number = 0;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  @Field(() => SegmentReference, { nullable: true, description: "The targeted segment, the cluster's (through federation)" })
  get targetSegment(): SegmentReference | null {
    return this.targetSegmentId ? { id: this.targetSegmentId } : null;
  }
}

/** `rules`: `minPurchase` a money amount (the target when set), `maxUses` caps completions, `perCustomerLimit` joins per customer. */
export interface CampaignRules {
  minPurchase: number | null;
  maxUses: number | null;
  perCustomerLimit: number;
}
