import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { RuleDefinition } from '../services/earning-rules/rule-definition';

/** One version of an earning rule: the definition it had from `createdAt`, and who wrote it. Append-only. */
@ObjectType()
@Entity({ tableName: 'earning_rule_version' })
export class EarningRuleVersion {
  [OptionalProps]?: 'createdBy' | 'createdAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) ruleId: string;
  @Field(() => Int) @PrimaryKey() version: number;
  @Field(() => GraphQLJSONObject, { description: 'name, description, trigger, conditions, effect, limits, priority, stacks' })
  @Property({ type: 'jsonb' })
  definition: RuleDefinition;
  @Field(() => String, { nullable: true, description: 'The caller that wrote it (kind:id)' }) @Property({ type: 'text', nullable: true }) createdBy: string | null = null;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
