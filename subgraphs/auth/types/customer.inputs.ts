import { IsDefined, IsEmail, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ArgsType, Field, InputType } from 'type-graphql';
import { IdArgs } from '../../../core/graphql/id-args';
import { IsLocaleTag } from '../../../core/validation';

/**
 * The v1 customer's fields as a partner sends them (contract section 5), spelled as the v1 surface spells
 * them so that field errors name what the caller sent (`address.postalCode` → `address.postal_code`).
 * Every field is nullable in GraphQL and required ones are checked here, so one answer names every bad field.
 */
export const V1_GENDERS = ['male', 'female', 'other'] as const;

/** A referral code as a sign-up may carry it (the point domain's codes; matched whatever their case). */
export const REFERRAL_CODE = /^[A-Za-z0-9]{4,32}$/;
export const REFERRAL_CODE_MESSAGE = 'referralCode must be 4 to 32 letters and digits';

@InputType()
export class CustomerAddressInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(512) street?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) city?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @Matches(/^[A-Za-z0-9 -]{2,12}$/, { message: 'postalCode must be 2 to 12 letters, digits, spaces or dashes' }) postalCode?: string | null;
}

@InputType()
export class ChatappCodeInput {
  @Field(() => String, { nullable: true, description: 'A chat-app login code, exchanged with the provider for the identity' })
  @IsDefined({ message: 'code is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  code: string;
}

/** The fields both a creation and an update take (name apart: required on creation). */
@InputType()
export class CustomerFieldsInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail({}, { message: 'email must be an e-mail address' }) @MaxLength(254) email?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @Matches(/^\+?[0-9][0-9 ()-]{2,19}$/, { message: 'phone must be a phone number (digits, spaces, dashes, an optional leading +)' }) phone?: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'dateOfBirth must be a date YYYY-MM-DD' })
  @IsISO8601({ strict: true }, { message: 'dateOfBirth must be a real date' })
  dateOfBirth?: string | null;
  @Field(() => String, { nullable: true, description: 'male, female or other' }) @IsOptional() @IsIn(V1_GENDERS) gender?: string | null;
  @Field(() => CustomerAddressInput, { nullable: true }) @IsOptional() @ValidateNested() address?: CustomerAddressInput | null;
  @Field(() => String, { nullable: true, description: 'A BCP 47 locale tag (en, th-TH)' }) @IsOptional() @IsLocaleTag() language?: string | null;
}

/** POST /api/v1/customers. */
@InputType()
export class CreateCustomerInput extends CustomerFieldsInput {
  @Field(() => String, { nullable: true }) @IsDefined({ message: 'name is required' }) @IsString() @MinLength(1) @MaxLength(100) name: string;
  @Field(() => ChatappCodeInput, { nullable: true, description: 'Links the chat-app identity of this login code at creation' })
  @IsOptional()
  @ValidateNested()
  chatapp?: ChatappCodeInput | null;
  @Field(() => String, { nullable: true, description: "Another member's referral code: this customer is referred by that member (a refused referral is recorded, it never fails the creation)" })
  @IsOptional()
  @IsString()
  @Matches(REFERRAL_CODE, { message: REFERRAL_CODE_MESSAGE })
  referralCode?: string | null;
}

/** PATCH /api/v1/customers/{id}: absent fields stay, null clears (the name cannot be cleared). */
@InputType()
export class UpdateCustomerInput extends CustomerFieldsInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MinLength(1) @MaxLength(100) name?: string;
}

@ArgsType()
export class LinkChatappArgs extends IdArgs {
  @Field(() => String, { nullable: true }) @IsDefined({ message: 'code is required' }) @IsString() @MinLength(1) @MaxLength(256) code: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(128) appId?: string;
}
