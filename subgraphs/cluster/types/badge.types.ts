import { IsBoolean, IsEnum, IsInt, IsISO8601, IsOptional, IsUUID, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int } from 'type-graphql';
import { CatalogListArgs, RequiredDescriptionCreateInput, RequiredDescriptionUpdateInput } from '../../../core/catalog/catalog-inputs';
import { BadgeRuleType, BadgeTierConditionType } from '../entities/badge';
import { given, HasTwoDecimals, IsIdList, IsHttpUrl } from '../../../core/validation';

const MAX_IDS = 100;

@InputType()
export class BadgeRuleWindowInput {
  @Field(() => String, { nullable: true, description: 'ISO 8601 datetime' }) @IsOptional() @IsISO8601() start?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 datetime' }) @IsOptional() @IsISO8601() end?: string | null;
}

@InputType()
export class BadgeTierConditionInput {
  @Field(() => BadgeTierConditionType) @IsEnum(BadgeTierConditionType) type: BadgeTierConditionType;
  @Field(() => [String]) @IsIdList(MAX_IDS) tierIds: string[];
}

/** The rule of a badge; multipart sends it as a JSON string. */
@InputType()
export class BadgeRuleInput {
  @Field(() => BadgeRuleType) @IsEnum(BadgeRuleType) type: BadgeRuleType;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) purchaseAmount?: number | null;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(1_000_000) purchaseCount?: number | null;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) pointsAmount?: number | null;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) minSpend?: number | null;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(36_500) withinDays?: number | null;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(0) @Max(1000) anniversaryYear?: number | null;
  @Field(() => [String], { nullable: true }) @IsOptional() @IsIdList(MAX_IDS) categoryIdsIncluded?: string[] | null;
  @Field(() => [String], { nullable: true }) @IsOptional() @IsIdList(MAX_IDS) categoryIdsExcluded?: string[] | null;
  @Field(() => [String], { nullable: true }) @IsOptional() @IsIdList(MAX_IDS) shopIdsIncluded?: string[] | null;
  @Field(() => [String], { nullable: true }) @IsOptional() @IsIdList(MAX_IDS) shopIdsExcluded?: string[] | null;
  @Field(() => BadgeRuleWindowInput, { nullable: true }) @IsOptional() @ValidateNested() window?: BadgeRuleWindowInput | null;
  @Field(() => BadgeTierConditionInput, { nullable: true }) @IsOptional() @ValidateNested() tierCondition?: BadgeTierConditionInput | null;
}

/** The body of POST /badges (multipart: the `image` upload becomes `imageUrl`). */
@InputType()
export class CreateBadgeInput extends RequiredDescriptionCreateInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => BadgeRuleInput) @ValidateNested() rule: BadgeRuleInput;
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() isActive?: boolean;
}

/** The body of PUT /badges/:id: every field optional; a given `rule` replaces the whole rule. */
@InputType()
export class UpdateBadgeInput extends RequiredDescriptionUpdateInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsHttpUrl() @MaxLength(2048) imageUrl?: string | null;
  @Field(() => BadgeRuleInput, { nullable: true }) @ValidateIf(given('rule')) @ValidateNested() rule?: BadgeRuleInput;
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isActive')) @IsBoolean() isActive?: boolean;
}

@ArgsType()
export class BadgeListArgs extends CatalogListArgs {}

/** Badge progress pages are zero-based (page 0 is the first page); limit 0 returns no items, only the total. */
@ArgsType()
export class BadgeProgressArgs {
  @Field(() => Int, { defaultValue: 0 }) @IsInt() @Min(0) page: number = 0;
  @Field(() => Int, { defaultValue: 10 }) @IsInt() @Min(0) @Max(100) limit: number = 10;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() badgeId?: string;
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() isCompleted?: boolean;
}

@ArgsType()
export class BadgeProgressMemberArgs extends BadgeProgressArgs {
  @Field(() => ID) @IsUUID() memberId: string;
}
