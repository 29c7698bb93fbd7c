import { IsBoolean, IsOptional, IsPositive, IsString, Max, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { ArgsType, Field, Float, InputType } from 'type-graphql';
import { CatalogSearchArgs, DescribedUpdateInput, DescribedWriteInput } from '../../../core/catalog/catalog-inputs';
import { given, HasDecimals } from '../../../core/validation';

/** numeric(20, 4) holds it exactly; a rate above a million points per unit is a typo. */
export const MAX_CONVERSION_RATE = 1_000_000;

/** The body of POST /point-rules/shop: a rule for one shop (the default rule exists already). */
@InputType()
export class CreatePointShopRuleInput extends DescribedWriteInput {
  @Field() @IsString() @MinLength(1) @MaxLength(256) shopId: string;
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
export class UpdatePointShopRuleInput extends DescribedUpdateInput {
  @Field(() => String, { nullable: true }) @ValidateIf(given('shopId')) @IsString() @MinLength(1) @MaxLength(256) shopId?: string;
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
export class PointShopRuleListArgs extends CatalogSearchArgs {}

