import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const TierChangeType = graphqlEnum('TierChangeType', ['upgrade', 'downgrade', 'expiry'], 'How a member moved between tiers');
export type TierChangeType = EnumValue<typeof TierChangeType>;

/** One move of a member between tiers; `fromTier` and `toTier` are resolved fields (null: no tier). */
@ObjectType('TierHistoryItem')
@Entity({ tableName: 'tier_history' })
export class TierHistory {
  [OptionalProps]?: 'snapshot' | 'fromTierId' | 'toTierId' | 'createdAt' | 'reason';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => TierChangeType) @Enum({ items: () => TierChangeType }) changeType: TierChangeType;
  @Field(() => GraphQLJSON, { description: '{ points, purchaseAmount? } at the time of the change' })
  @Property({ type: 'jsonb' })
  snapshot: Record<string, unknown> = {};
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) fromTierId: string | null = null;
  @Field(() => ID, { nullable: true }) @Property({ type: 'uuid', nullable: true }) toTierId: string | null = null;
  @Field(() => String, { nullable: true, description: 'Why staff changed the tier by hand (v1 manual changes); null otherwise' })
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
