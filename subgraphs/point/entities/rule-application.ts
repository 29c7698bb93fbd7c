import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';

/**
 * One application of an earning rule: the rule version that produced a ledger entry, for which source
 * (a purchase), and when that happened (limits count applications by it). One per rule and source.
 */
@ObjectType({ description: 'Why a member got points: the rule version that produced a ledger entry' })
@Entity({ tableName: 'rule_application' })
export class RuleApplication {
  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string;
  @Field(() => ID) @Property({ type: 'uuid' }) ruleId: string;
  @Field(() => Int) @Property() ruleVersion: number;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field({ description: 'purchase' }) @Property({ type: 'text' }) sourceType: string;
  @Field({ description: 'The purchase (or receipt verification) id' }) @Property({ type: 'text' }) sourceId: string;
  @Field(() => Float) @Property({ type: 'decimal' }) points: string;
  @Field(() => ID) @Property({ type: 'uuid' }) ledgerEntryId: string;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) occurredAt: Date;
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date;
}
