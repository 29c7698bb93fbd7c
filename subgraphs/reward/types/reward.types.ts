import { IsBoolean, IsEnum, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, GraphQLISODateTime, ID, InputType, Int } from 'type-graphql';
import { CatalogListArgs } from '../../../core/catalog/catalog-inputs';
import { given, HasTwoDecimals, IsIdList, IsHttpUrl, MAX_EXACT_AMOUNT } from '../../../core/validation';
import { DiscountType, RewardType, StockType } from '../entities/reward';

/** Stock fits a Postgres int with room for any single increase. */
export const MAX_STOCK = 1_000_000_000;
/** A reward name, per language (spec Part 1, Limits). */
const NAME_MAX = 100;
const DESCRIPTION_MAX = 5000;
/** A reward code stays usable at most ten years after it is claimed. */
const MAX_USE_DAYS = 3650;

@InputType()
export class RewardWindowInput {
  @Field(() => GraphQLISODateTime) start: Date;
  @Field(() => GraphQLISODateTime) end: Date;
}

/** `condition`; multipart sends it as a JSON string, its numbers as numbers or numeric strings. */
@InputType()
export class RewardConditionInput {
  @Field(() => Float, { nullable: true, description: 'Smallest purchase, >= 0, 2 decimals; required for VOUCHER' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0)
  @Max(MAX_EXACT_AMOUNT)
  minimumSpend?: number | null;
  @Field(() => Int, { nullable: true, description: 'Days a claimed code stays usable; required unless type is POINT' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_USE_DAYS)
  timeUseWithIn?: number | null;
  @Field(() => RewardWindowInput, { nullable: true, description: 'Required unless type is POINT' })
  @IsOptional()
  @ValidateNested()
  window?: RewardWindowInput | null;
}

/** The fields of POST /rewards (multipart: the `image` upload becomes `imageUrl`). */
@InputType()
export class CreateRewardInput {
  @Field() @IsString() @MinLength(1) @MaxLength(NAME_MAX) name_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(NAME_MAX) name_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(NAME_MAX) name_cn?: string | null;
  @Field() @IsString() @MinLength(1) @MaxLength(DESCRIPTION_MAX) description_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description_cn?: string | null;
  @Field(() => RewardType) @IsEnum(RewardType) type: RewardType;
  @Field(() => DiscountType, { nullable: true, description: 'Required for VOUCHER' }) @IsOptional() @IsEnum(DiscountType) discountType?: DiscountType | null;
  @Field(() => Float, { nullable: true, description: '>= 0, 2 decimals; at most 100 for PERCENTAGE; required for VOUCHER' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0)
  @Max(MAX_EXACT_AMOUNT)
  benefitValue?: number | null;
  @Field(() => Int, { nullable: true, description: 'Units in stock, default 0' }) @IsOptional() @IsInt() @Min(0) @Max(MAX_STOCK) stock?: number;
  @Field(() => StockType, { nullable: true, description: 'Default LIMITED' }) @IsOptional() @IsEnum(StockType) stockType?: StockType;
  @Field(() => RewardConditionInput, { nullable: true }) @IsOptional() @ValidateNested() condition?: RewardConditionInput | null;
  @Field(() => ID, { nullable: true, description: 'A live reward catalog' }) @IsOptional() @IsUUID() rewardCatalogId?: string | null;
  @Field(() => [String], { nullable: true, description: 'Store ids (plain strings); multipart sends a JSON array' })
  @IsOptional()
  @IsIdList(100)
  storeIds?: string[];
  @Field(() => String, { nullable: true, description: 'POST /rewards stores the image upload here' }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() isActive?: boolean;
}

/**
 * The fields of PUT /rewards/:id, each optional: an absent field keeps its value, null clears an
 * optional one (and is refused for the required ones); a given `condition` replaces the whole condition.
 */
@InputType()
export class UpdateRewardInput {
  @Field(() => String, { nullable: true }) @ValidateIf(given('name_en')) @IsString() @MinLength(1) @MaxLength(NAME_MAX) name_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(NAME_MAX) name_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(NAME_MAX) name_cn?: string | null;
  @Field(() => String, { nullable: true }) @ValidateIf(given('description_en')) @IsString() @MinLength(1) @MaxLength(DESCRIPTION_MAX) description_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description_cn?: string | null;
  @Field(() => RewardType, { nullable: true }) @ValidateIf(given('type')) @IsEnum(RewardType) type?: RewardType;
  @Field(() => DiscountType, { nullable: true }) @IsOptional() @IsEnum(DiscountType) discountType?: DiscountType | null;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) @Max(MAX_EXACT_AMOUNT) benefitValue?: number | null;
  @Field(() => Int, { nullable: true, description: 'Sets the stock; increase-stock and decrease-stock change it atomically' })
  @ValidateIf(given('stock'))
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK)
  stock?: number;
  @Field(() => StockType, { nullable: true }) @ValidateIf(given('stockType')) @IsEnum(StockType) stockType?: StockType;
  @Field(() => RewardConditionInput, { nullable: true }) @IsOptional() @ValidateNested() condition?: RewardConditionInput | null;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() rewardCatalogId?: string | null;
  @Field(() => [String], { nullable: true })
  @ValidateIf(given('storeIds'))
  @IsIdList(100)
  storeIds?: string[];
  @Field(() => String, { nullable: true }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isActive')) @IsBoolean() isActive?: boolean;
}

/** GET /rewards: newest first; inactive and deleted rewards only when asked. */
@ArgsType()
export class RewardListArgs extends CatalogListArgs {
  @Field(() => RewardType, { nullable: true }) @IsOptional() @IsEnum(RewardType) type?: RewardType;
}

/** A reward by id: any string; one that names no live reward is 404. */
@ArgsType()
export class RewardIdArgs {
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) id: string;
}

@ArgsType()
export class SetRewardActiveArgs extends RewardIdArgs {
  @Field(() => Boolean) @IsBoolean() isActive: boolean;
}

/** increase-stock and decrease-stock: a whole number of units, at least 1. */
@ArgsType()
export class RewardStockArgs extends RewardIdArgs {
  @Field(() => Int) @IsInt() @Min(1) @Max(MAX_STOCK) amount: number;
}
