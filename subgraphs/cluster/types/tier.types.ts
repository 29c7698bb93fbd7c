import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int } from 'type-graphql';
import { CatalogListArgs, DescribedWriteInput, RequiredDescriptionCreateInput, RequiredDescriptionUpdateInput } from '../../../core/catalog/catalog-inputs';
import { AreUploadedUrls, given, HasTwoDecimals, IsIdList, IsHttpUrl } from '../../../core/validation';

/** Levels are small integers; the cap keeps them inside Postgres int. */
export const MAX_TIER_LEVEL = 1_000_000_000;
export const MAX_BENEFITS = 50;


/** What it takes to reach a tier. */
@InputType()
export class TierRequirementInput {
  @Field(() => Float, { nullable: true, description: 'Cumulative purchase amount that reaches the tier, >= 0, 2 decimals' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0)
  purchaseAmountHit?: number | null;
}

/** One benefit of a tier; `imageUrl` may come from the `benefitLogos` uploads. */
@InputType()
export class TierBenefitInput extends DescribedWriteInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) condition_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) condition_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(5000) condition_cn?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) type?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
}

/** The body of POST /tiers (multipart: the tierLogo upload becomes `imageUrl`, benefitLogos `benefitLogoUrls`). */
@InputType()
export class CreateTierInput extends RequiredDescriptionCreateInput {
  @Field(() => String, { nullable: true, description: 'The tier logo; POST /tiers stores the tierLogo upload here' })
  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2048)
  imageUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'A colour or a background image' }) @IsOptional() @IsString() @MaxLength(2048) background?: string | null;
  @Field(() => Int, { nullable: true, description: 'Unique among live tiers; absent: one above the highest live level' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_TIER_LEVEL)
  level?: number;
  @Field(() => TierRequirementInput, { description: '{purchaseAmountHit?}; multipart sends it as a JSON string' })
  @ValidateNested()
  requirement: TierRequirementInput;
  @Field(() => [TierBenefitInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_BENEFITS)
  @ValidateNested({ each: true })
  benefit?: TierBenefitInput[];
  @Field(() => [String], { nullable: true, description: 'Uploaded benefit logos, given in order to the benefit items without imageUrl' })
  @AreUploadedUrls(MAX_BENEFITS)
  benefitLogoUrls?: string[];
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() isActive?: boolean;
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() isSpecial?: boolean;
}

/**
 * The body of PUT /tiers/:id: an absent field keeps its value, an explicit null clears an optional
 * text and is refused for the required ones. A given `benefit` replaces the whole list.
 */
@InputType()
export class UpdateTierInput extends RequiredDescriptionUpdateInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2048) background?: string | null;
  @Field(() => Int, { nullable: true }) @ValidateIf(given('level')) @IsInt() @Min(0) @Max(MAX_TIER_LEVEL) level?: number;
  @Field(() => TierRequirementInput, { nullable: true })
  @ValidateIf(given('requirement'))
  @ValidateNested()
  requirement?: TierRequirementInput;
  @Field(() => [TierBenefitInput], { nullable: true })
  @ValidateIf(given('benefit'))
  @IsArray()
  @ArrayMaxSize(MAX_BENEFITS)
  @ValidateNested({ each: true })
  benefit?: TierBenefitInput[];
  @Field(() => [String], { nullable: true, description: 'Uploaded benefit logos, given in order to the benefit items without imageUrl' })
  @AreUploadedUrls(MAX_BENEFITS)
  benefitLogoUrls?: string[];
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isActive')) @IsBoolean() isActive?: boolean;
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isSpecial')) @IsBoolean() isSpecial?: boolean;
}

@ArgsType()
export class TierListArgs extends CatalogListArgs {}

@ArgsType()
export class TierIdsArgs {
  @Field(() => [ID], { description: 'Tier ids (plain strings); unknown ones are left out' })
  @ArrayMinSize(1)
  @IsIdList(100)
  ids: string[];
}

@ArgsType()
export class TierLevelArgs {
  @Field(() => Int) @IsInt() @Min(0) @Max(MAX_TIER_LEVEL) level: number;
}

/** A tier by id: any string (Part 1, convention 5); one that names no tier is 404. */
@ArgsType()
export class TierIdArgs {
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) id: string;
}

@ArgsType()
export class SetTierActiveArgs extends TierIdArgs {
  @Field(() => Boolean) @IsBoolean() isActive: boolean;
}
