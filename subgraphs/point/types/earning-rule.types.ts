import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { HasTwoDecimals } from '../../../core/validation';
import { CUSTOM_EVENT, FIXED_TRIGGERS } from '../services/earning-rules/rule-definition';
import { REFERRAL_ROLES, ReferralRole } from '../services/earning-rules/rule-evaluation';

const TRIGGERS_TEXT = `${FIXED_TRIGGERS.join(', ')}, or ${CUSTOM_EVENT}<type>`;
import { MAX_PURCHASE_AMOUNT } from './purchase.types';

/**
 * A rule as written: the definition's fields. Their shapes (conditions, effect, limits) are checked by
 * the rule format (services/earning-rules/rule-definition.ts), one field error per bad path.
 */
@InputType({ description: 'An earning rule (docs/decisions.md: the rule format); created inactive' })
export class EarningRuleInput {
  @Field() name: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field({ description: TRIGGERS_TEXT }) trigger: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{fact, op, value} | {all: [...]} | {any: [...]} | {not: {...}}; none: always' })
  conditions?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { description: '{type: fixed, points} | {type: per_amount, rate} | {type: multiplier, factor}; optional maxPoints' })
  effect: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{member: [{period, count, points}], budget}' }) limits?: Record<string, unknown> | null;
  @Field(() => Int, { nullable: true, description: '0..1000, higher first; 0 unless given' }) priority?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'true unless given' }) stacks?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Days its points are held (0..365); null: the program default for purchases, at once otherwise' }) pendingDays?: number | null;
}

/** A change of a rule: absent fields are kept, `null` clears description, conditions and limits. */
@InputType({ description: 'A change of an earning rule: a new version when its definition changes' })
export class EarningRulePatch {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) trigger?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) conditions?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) effect?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) limits?: Record<string, unknown> | null;
  @Field(() => Int, { nullable: true }) priority?: number | null;
  @Field(() => Boolean, { nullable: true }) stacks?: boolean | null;
  @Field(() => Int, { nullable: true }) pendingDays?: number | null;
}

@ArgsType()
export class EarningRuleListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true, description: 'Only active (true) or inactive (false) rules' }) @IsOptional() @IsBoolean() isActive?: boolean;
  @Field(() => String, { nullable: true, description: TRIGGERS_TEXT }) @IsOptional() @IsString() @MaxLength(128) trigger?: string;
}

@ArgsType()
export class RuleApplicationListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID('all', { message: 'memberId must be a member id' }) memberId?: string;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID('all', { message: 'ruleId must be a rule id' }) ruleId?: string;
  @Field(() => String, { nullable: true, description: 'The purchase or receipt verification' }) @IsOptional() @IsString() @MaxLength(256) sourceId?: string;
}

/** What a dry run evaluates: a purchase as `recordPurchase` takes it, a custom event as `recordCustomEvent` does, or another trigger's event, for a member. */
@InputType({ description: 'What would be earned: a purchase (amount, store, category), a custom event (attributes) or another trigger, for a member' })
export class EarningSimulationInput {
  @Field({ description: TRIGGERS_TEXT }) @IsString() @MaxLength(128) trigger: string;
  @Field(() => ID) @IsUUID('all', { message: 'customerId must be a customer id' }) customerId: string;
  @Field(() => Float, { nullable: true, description: 'A purchase: in currency units, at most 2 decimals, above 0' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0.01)
  @Max(MAX_PURCHASE_AMOUNT)
  amount?: number | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MinLength(1) @MaxLength(256) storeId?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MinLength(1) @MaxLength(256) category?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601; now unless given' }) @IsOptional() @IsISO8601({ strict: true }) occurredAt?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: "A custom event's attributes, as its type declares them" }) attributes?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: 'A referral completion: the side the customer is on, referrer or referred' })
  @IsOptional()
  @IsIn(REFERRAL_ROLES, { message: 'referralRole must be referrer or referred' })
  referralRole?: ReferralRole | null;
}

@ObjectType({ description: 'A rule that applied or, its conditions holding, did not' })
export class RuleOutcomeType {
  @Field(() => ID) ruleId: string;
  @Field(() => Int) version: number;
  @Field() name: string;
  @Field(() => Float, { description: 'Whole points it earns (0 when skipped)' }) points: string;
  @Field(() => String, { nullable: true, description: 'Why it earned nothing: limit, budget, not_stacking, zero' }) reason?: string;
}

@ObjectType({ description: 'What a source would earn now: a purchase its shop rule (base) and each earning rule, nothing written' })
export class EarningSimulation {
  @Field(() => Float, { description: "Points by the store's shop rule" }) basePoints: string;
  @Field(() => Float, { description: 'Base and rules together' }) points: string;
  @Field(() => [RuleOutcomeType]) applied: RuleOutcomeType[];
  @Field(() => [RuleOutcomeType]) skipped: RuleOutcomeType[];
}
