import { IsDefined, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { Field, InputType } from 'type-graphql';

/** A manual tier change: the tier by name (`tier`, the customer variant of Part 3) or by id (`tierId`, the loyalty variant). */
@InputType()
export class ChangeCustomerTierInput {
  @Field(() => String, { nullable: true, description: "The tier's name in any language, case ignored" })
  @ValidateIf((input: ChangeCustomerTierInput) => input.tier != null || input.tierId == null)
  @IsDefined({ message: 'tier (a name) or tierId is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  tier?: string | null;
  @Field(() => String, { nullable: true, description: "The tier's id" })
  @ValidateIf((input: ChangeCustomerTierInput) => input.tierId != null || input.tier == null)
  @IsDefined({ message: 'tierId or tier (a name) is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  tierId?: string | null;
  @Field(() => String, { nullable: true, description: 'Why: kept in the tier history' }) @IsDefined({ message: 'reason is required' }) @IsString() @MinLength(1) @MaxLength(500) reason: string;
}
