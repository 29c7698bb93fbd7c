import { IsOptional, IsString, MaxLength, MinLength, IsDefined } from 'class-validator';
import { Field, InputType } from 'type-graphql';

/** A manual tier change: the tier by name (`tier`, the customer variant of Part 3) or by id (`tierId`, the loyalty variant). */
@InputType()
export class ChangeCustomerTierInput {
  @Field(() => String, { nullable: true, description: "The tier's name in any language, case ignored" }) @IsOptional() @IsString() @MinLength(1) @MaxLength(256) tier?: string | null;
  @Field(() => String, { nullable: true, description: "The tier's id" }) @IsOptional() @IsString() @MinLength(1) @MaxLength(256) tierId?: string | null;
  @Field(() => String, { nullable: true, description: 'Why: kept in the tier history' }) @IsDefined({ message: 'reason is required' }) @IsString() @MinLength(1) @MaxLength(500) reason: string;
}
