import { IsBoolean, IsEnum, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { HasTwoDecimals } from '../../../core/validation';
import { Referral, ReferralStatus } from '../entities/referral';
import { MAX_PURCHASE_AMOUNT } from './purchase.types';

@ObjectType({ description: "A member's referral code, who referred it, and how its own referrals stand" })
export class MemberReferral {
  @Field(() => ID) memberId: string;
  @Field({ description: 'What a new member signs up with to be referred by this one' }) code: string;
  @Field(() => Referral, { nullable: true, description: 'The sign-up of this member with a code (refused ones too)' }) referredBy: Referral | null;
  @Field(() => Int, { description: 'Its referrals waiting for a qualifying purchase' }) pending: number;
  @Field(() => Int) completed: number;
  @Field(() => Int) refused: number;
}

@ArgsType()
export class ReferralListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID('all', { message: 'referrerId must be a member id' }) referrerId?: string | null;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID('all', { message: 'referredId must be a member id' }) referredId?: string | null;
  @Field(() => ReferralStatus, { nullable: true }) @IsOptional() @IsEnum(ReferralStatus) status?: ReferralStatus | null;
}

/** A change of the referral settings: fields left out stay, null clears a limit. */
@InputType()
export class ReferralSettingsInput {
  @Field({ nullable: true }) @IsOptional() @IsBoolean() enabled?: boolean;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(0) @Max(1_000_000) referrerLimit?: number | null;
  @Field(() => Float, { nullable: true, description: 'At most 2 decimals' }) @IsOptional() @HasTwoDecimals() @Min(0) @Max(MAX_PURCHASE_AMOUNT) minPurchaseAmount?: number;
  @Field(() => Int, { nullable: true }) @IsOptional() @IsInt() @Min(1) @Max(3650) completionDays?: number | null;
}
