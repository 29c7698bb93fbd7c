import { IsBoolean, IsDate, IsEnum, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, GraphQLISODateTime, ID, InputType, Int } from 'type-graphql';
import { CatalogListArgs, DescribedUpdateInput, DescribedWriteInput } from '../../../core/catalog/catalog-inputs';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { given, HasTwoDecimals, IsIdList, IsHttpUrl, MAX_EXACT_AMOUNT } from '../../../core/validation';
import { RewardCatalogStatus, TierCondition } from '../entities/reward-catalog';
import { RewardType } from '../entities/reward';
import { RewardWindowInput } from './reward.types';

/** The periods a quota counts redemptions in. */
export const QUOTA_TYPES = ['day', 'week', 'month', 'year'] as const;
const MAX_COUNT = 1_000_000_000;
const MAX_TIERS = 100;

export const AdvancedRules = graphqlEnum('RewardCatalogAdvancedRules', ['ALL', 'CUSTOM'], 'ALL: every member may redeem (no tier condition); CUSTOM: a tier condition applies');
export type AdvancedRules = EnumValue<typeof AdvancedRules>;
export const CatalogSortBy = graphqlEnum('RewardCatalogSortBy', ['createdAt', 'pointUsage']);
export type CatalogSortBy = EnumValue<typeof CatalogSortBy>;
export const SortDirection = graphqlEnum('SortDirection', ['asc', 'desc']);
export type SortDirection = EnumValue<typeof SortDirection>;

/** `redeemRule`: what one redemption costs, and how many one member may make (null: no limit). */
@InputType()
export class RedeemRuleInput {
  @Field(() => Float, { description: 'Points per redemption, >= 0, 2 decimals' }) @HasTwoDecimals() @Min(0) @Max(MAX_EXACT_AMOUNT) pointUsage: number;
  @Field(() => Int, { nullable: true, description: 'Redemptions per member, >= 1; null: no limit' }) @IsOptional() @IsInt() @Min(1) @Max(MAX_COUNT) limitPerUser?: number | null;
}

/** `quota`: at most `limitPerPeriod` redemptions (all members together) per `numberInPeriod` `type`s. */
@InputType()
export class RewardQuotaInput {
  @Field({ description: `One of ${QUOTA_TYPES.join(', ')}` }) @IsIn(QUOTA_TYPES) type: string;
  @Field(() => Int) @IsInt() @Min(1) @Max(1000) numberInPeriod: number;
  @Field(() => Int) @IsInt() @Min(1) @Max(MAX_COUNT) limitPerPeriod: number;
}

/** The fields of POST /reward-catalogs (multipart: the `image` upload becomes `imageUrl`; objects and lists as JSON strings). */
@InputType()
export class CreateRewardCatalogInput extends DescribedWriteInput {
  @Field(() => ID, { description: 'A live reward' }) @IsUUID() rewardId: string;
  @Field(() => RedeemRuleInput) @ValidateNested() redeemRule: RedeemRuleInput;
  @Field(() => RewardQuotaInput, { nullable: true }) @IsOptional() @ValidateNested() quota?: RewardQuotaInput | null;
  @Field(() => RewardWindowInput, { nullable: true }) @IsOptional() @ValidateNested() window?: RewardWindowInput | null;
  @Field(() => TierCondition, { nullable: true, description: 'Required with tierRequirement' }) @IsOptional() @IsEnum(TierCondition) tierCondition?: TierCondition | null;
  @Field(() => [String], { nullable: true, description: 'Tier ids (plain strings); required with tierCondition' })
  @IsOptional()
  @IsIdList(MAX_TIERS)
  tierRequirement?: string[] | null;
  @Field(() => String, { nullable: true, description: 'POST /reward-catalogs stores the image upload here' }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Default true' }) @IsOptional() @IsBoolean() isActive?: boolean;
}

/**
 * The fields of PUT /reward-catalogs/:id, each optional: an absent field keeps its value, null clears
 * an optional one; a given redeemRule, quota or window replaces the whole object.
 */
@InputType()
export class UpdateRewardCatalogInput extends DescribedUpdateInput {
  @Field(() => ID, { nullable: true }) @ValidateIf(given('rewardId')) @IsUUID() rewardId?: string;
  @Field(() => RedeemRuleInput, { nullable: true }) @ValidateIf(given('redeemRule')) @ValidateNested() redeemRule?: RedeemRuleInput;
  @Field(() => RewardQuotaInput, { nullable: true }) @IsOptional() @ValidateNested() quota?: RewardQuotaInput | null;
  @Field(() => RewardWindowInput, { nullable: true }) @IsOptional() @ValidateNested() window?: RewardWindowInput | null;
  @Field(() => TierCondition, { nullable: true }) @IsOptional() @IsEnum(TierCondition) tierCondition?: TierCondition | null;
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @IsIdList(MAX_TIERS)
  tierRequirement?: string[] | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isActive')) @IsBoolean() isActive?: boolean;
}

const LIST_MAX = 100;

/** GET /reward-catalogs: the filters of spec Part 1, all optional and combined with AND. */
@ArgsType()
export class RewardCatalogListArgs extends CatalogListArgs {
  @Field(() => RewardCatalogStatus, { nullable: true }) @IsOptional() @IsEnum(RewardCatalogStatus) status?: RewardCatalogStatus;
  @Field(() => AdvancedRules, { nullable: true }) @IsOptional() @IsEnum(AdvancedRules) advancedRules?: AdvancedRules;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Catalogs whose window reaches this time or later (no window: always)' })
  @IsOptional()
  @IsDate()
  dateRangeStart?: Date;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Catalogs whose window starts at this time or earlier (no window: always)' })
  @IsOptional()
  @IsDate()
  dateRangeEnd?: Date;
  @Field(() => [String], { nullable: true, description: 'Catalogs whose tierRequirement names any of these tiers' })
  @IsOptional()
  @IsIdList(LIST_MAX)
  tierRequirementIds?: string[];
  @Field(() => TierCondition, { nullable: true }) @IsOptional() @IsEnum(TierCondition) tierCondition?: TierCondition;
  @Field(() => CatalogSortBy, { defaultValue: CatalogSortBy.createdAt }) @IsEnum(CatalogSortBy) sortBy: CatalogSortBy = CatalogSortBy.createdAt;
  @Field(() => SortDirection, { defaultValue: SortDirection.desc }) @IsEnum(SortDirection) sortOrder: SortDirection = SortDirection.desc;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) @Max(MAX_EXACT_AMOUNT) pointUsageMin?: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) @Max(MAX_EXACT_AMOUNT) pointUsageMax?: number;
  @Field(() => [String], { nullable: true, description: "Catalogs whose reward is valid at any of these stores (a reward without stores is valid at all)" })
  @IsOptional()
  @IsIdList(LIST_MAX)
  storeIds?: string[];
  @Field(() => RewardType, { nullable: true, description: "Catalogs whose reward is of this type" }) @IsOptional() @IsEnum(RewardType) rewardType?: RewardType;
  @Field(() => String, { nullable: true, description: 'Catalogs a member of this tier may redeem by their tier condition (none, INCLUDE naming it, EXCLUDE not naming it)' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  eligibleTierId?: string;
  @Field(() => Boolean, { nullable: true, description: 'true: catalogs a member may redeem now (active, in their window, in stock); false: the others' })
  @IsOptional()
  @IsBoolean()
  available?: boolean;
}

/** A catalog by id: any string; one that names no live catalog is 404. */
@ArgsType()
export class RewardCatalogIdArgs {
  @Field(() => ID) @IsString() @MaxLength(256) id: string;
}

@ArgsType()
export class SetRewardCatalogActiveArgs extends RewardCatalogIdArgs {
  @Field(() => Boolean) @IsBoolean() isActive: boolean;
}
