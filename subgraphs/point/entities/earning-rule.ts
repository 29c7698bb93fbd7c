import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { randomUUID } from 'node:crypto';
import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { SoftDeletable } from '../../../core/db/soft-deletable';
import type { Condition, Effect, Limits, Trigger } from '../services/earning-rules/rule-definition';

/**
 * An earning rule as it is now: its current definition (version `version`; every version is kept in
 * `earning_rule_version`), whether it is active, and the points its budget has given. Created inactive;
 * deleted softly (its applications keep naming it).
 */
@ObjectType({ description: 'A rule that earns points when something happens (docs/decisions.md: the rule format)' })
@Entity({ tableName: 'earning_rule' })
export class EarningRule extends SoftDeletable {
  [OptionalProps]?: 'description' | 'conditions' | 'limits' | 'priority' | 'stacks' | 'pendingDays' | 'version' | 'isActive' | 'budgetUsed' | 'createdAt' | 'updatedAt' | 'deletedAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property({ type: 'text' }) name: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description: string | null = null;
  @Field(() => String, { description: 'What the rule reacts to: purchase, booking.checked_in, customer.created, referral.completed or custom_event:<type>' }) @Property({ type: 'text' }) trigger: Trigger;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'An expression over facts: {fact, op, value}, {all: [...]}, {any: [...]}, {not: {...}}; null always holds' })
  @Property({ type: 'jsonb', nullable: true })
  conditions: Condition | null = null;
  @Field(() => GraphQLJSONObject, { description: '{type: fixed, points} | {type: per_amount, rate} | {type: multiplier, factor}, each with an optional maxPoints' })
  @Property({ type: 'jsonb' })
  effect: Effect;
  @Field(() => GraphQLJSONObject, { description: '{member: [{period: day|week|month|lifetime, count, points}], budget}' })
  @Property({ type: 'jsonb' })
  limits: Limits = {};
  @Field(() => Int, { description: 'Higher first (0..1000); rules of one priority in the order they were created' }) @Property() priority: number = 0;
  @Field({ description: 'false: once this rule applies, no rule after it does' }) @Property() stacks: boolean = true;
  @Field(() => Int, { nullable: true, description: 'Days its points are held before they can be spent (0..365); null: the program default for purchases, at once otherwise' })
  @Property({ type: 'int', nullable: true })
  pendingDays: number | null = null;
  @Field(() => Int, { description: 'The current version; every change of the definition adds one' }) @Property() version: number = 1;
  @Field() @Property() isActive: boolean = false;
  @Field(() => Float, { description: 'Points the rule has given, for its budget' }) @Property({ type: 'decimal' }) budgetUsed: string = '0';
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}
