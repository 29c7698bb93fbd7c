import { IsBoolean, IsOptional, IsPositive, IsString, Max, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ArgsType, Field, Float, InputType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { given, HasDecimals } from '../../../core/validation';

/** numeric(20, 4) holds it exactly; a rate above a million points per unit is a typo. */
export const MAX_CONVERSION_RATE = 1_000_000;

/** The body of POST /point-rules/shop: a rule for one shop (the default rule exists already). */
@InputType()
export class CreatePointShopRuleInput {
  @Field() @IsString() @MinLength(1) @MaxLength(256) shopId: string;
  @Field() @IsString() @MinLength(1) @MaxLength(256) name_en: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_cn?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description_cn?: string | null;
  @Field(() => Float, { description: 'Points per currency unit, > 0, at most 4 decimals' })
  @HasDecimals(4)
  @IsPositive()
  @Max(MAX_CONVERSION_RATE)
  conversionRate: number;
  @Field(() => Boolean, { nullable: true }) @IsOptional() @IsBoolean() isActive?: boolean;
}

/**
 * The body of PUT /point-rules/shop/:id. An absent field keeps its value; an explicit null clears
 * the optional texts and is refused for the required fields. `isFixed` may be sent but not changed.
 */
@InputType()
export class UpdatePointShopRuleInput {
  @Field(() => String, { nullable: true }) @ValidateIf(given('shopId')) @IsString() @MinLength(1) @MaxLength(256) shopId?: string;
  @Field(() => String, { nullable: true }) @ValidateIf(given('name_en')) @IsString() @MinLength(1) @MaxLength(256) name_en?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) name_cn?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description_en?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description_th?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(2000) description_cn?: string | null;
  @Field(() => Float, { nullable: true })
  @ValidateIf(given('conversionRate'))
  @HasDecimals(4)
  @IsPositive()
  @Max(MAX_CONVERSION_RATE)
  conversionRate?: number;
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isActive')) @IsBoolean() isActive?: boolean;
  @Field(() => Boolean, { nullable: true }) @ValidateIf(given('isFixed')) @IsBoolean() isFixed?: boolean;
}

@ArgsType()
export class PointShopRuleListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Part of a name, in any language' }) @IsOptional() @IsString() @MaxLength(256) search?: string;
}

