import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { DescribedCatalogEntity } from '../../../core/catalog/catalog-entity';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

/** What a badge rewards (spec Part 2, Badge `rule.type`). */
export const BadgeRuleType = graphqlEnum('BadgeRuleType', ['totalPurchaseAmount', 'purchaseCount', 'categoryPurchase', 'shopPurchaseAmount', 'firstTime', 'specialDay']);
export type BadgeRuleType = EnumValue<typeof BadgeRuleType>;

export const BadgeTierConditionType = graphqlEnum('BadgeTierConditionType', ['include', 'exclude']);
export type BadgeTierConditionType = EnumValue<typeof BadgeTierConditionType>;

@ObjectType()
export class BadgeRuleWindow {
  @Field(() => String, { nullable: true, description: 'ISO 8601; events created at or after it count' }) start?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601; events created at or before it count' }) end?: string | null;
}

@ObjectType()
export class BadgeTierCondition {
  @Field(() => BadgeTierConditionType) type: BadgeTierConditionType;
  @Field(() => [String]) tierIds: string[];
}

/** A badge's rule (stored as jsonb); see subgraphs/cluster/DECISIONS.md ## Cluster for how each type is counted. */
@ObjectType()
export class BadgeRule {
  @Field(() => BadgeRuleType) type: BadgeRuleType;
  @Field(() => Float, { nullable: true }) purchaseAmount?: number | null;
  @Field(() => Int, { nullable: true }) purchaseCount?: number | null;
  @Field(() => Float, { nullable: true }) pointsAmount?: number | null;
  @Field(() => Float, { nullable: true }) minSpend?: number | null;
  @Field(() => Int, { nullable: true }) withinDays?: number | null;
  @Field(() => Int, { nullable: true }) anniversaryYear?: number | null;
  @Field(() => [String], { nullable: true }) categoryIdsIncluded?: string[] | null;
  @Field(() => [String], { nullable: true }) categoryIdsExcluded?: string[] | null;
  @Field(() => [String], { nullable: true }) shopIdsIncluded?: string[] | null;
  @Field(() => [String], { nullable: true }) shopIdsExcluded?: string[] | null;
  @Field(() => BadgeRuleWindow, { nullable: true }) window?: BadgeRuleWindow | null;
  @Field(() => BadgeTierCondition, { nullable: true }) tierCondition?: BadgeTierCondition | null;
}

/** An achievement badge: localized texts, an image and the rule that members' point events progress. */
@ObjectType()
@Entity({ tableName: 'badge' })
export class Badge extends DescribedCatalogEntity {
  [OptionalProps]?: 'name_th' | 'name_cn' | 'description_th' | 'description_cn' | 'imageUrl' | 'isActive' | 'createdAt' | 'updatedAt' | 'deletedAt';

  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) imageUrl: string | null = null;
  @Field(() => BadgeRule) @Property({ type: 'jsonb' }) rule: BadgeRule;
  @Field() @Property() isActive: boolean = true;
}

/** A member's progress towards one badge; written only by the point event consumer. Values are decimal strings. */
@ObjectType()
@Entity({ tableName: 'badge_member_progress' })
export class BadgeMemberProgress {
  [OptionalProps]?: 'currentValue' | 'isCompleted' | 'completedAt' | 'firstEventAt' | 'createdAt' | 'updatedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => ID) @Property({ type: 'uuid' }) badgeId: string;
  @Field(() => Float) @Property({ type: 'decimal' }) currentValue: string = '0';
  @Field(() => Float) @Property({ type: 'decimal' }) goalValue: string;
  @Field() @Property() isCompleted: boolean = false;
  @Field(() => GraphQLISODateTime, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
  /** The first counted event's time (withinDays is measured from it). */
  @Property({ type: 'timestamptz', nullable: true }) firstEventAt: Date | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
