import { IsDate, IsEnum, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../../core/pagination';
import { Reward } from '../entities/reward';
import { RewardCode, RewardCodeStatus } from '../entities/reward-code';
import { CODE_LENGTH } from '../services/reward-code-issuer';

export const RewardCodePage = PageType(RewardCode, 'RewardCode');

/** GET /reward-codes/me: every filter of the staff list but `memberId` (the token's member). */
@ArgsType()
export class MyRewardCodeListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() rewardId?: string;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() rewardCatalogId?: string;
  @Field(() => ID, { nullable: true, description: 'The staff member who marked the codes used' }) @IsOptional() @IsUUID() staffId?: string;
  @Field(() => String, { nullable: true, description: 'The start of a code, or the whole code; case does not matter' })
  @IsOptional()
  @IsString()
  @MaxLength(CODE_LENGTH)
  search?: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Codes created at this time or later' }) @IsOptional() @IsDate() start?: Date;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Codes created at this time or earlier' }) @IsOptional() @IsDate() end?: Date;
  @Field(() => RewardCodeStatus, { nullable: true, description: 'Evaluated now' }) @IsOptional() @IsEnum(RewardCodeStatus) status?: RewardCodeStatus;
}

/** GET /reward-codes: every member's codes, newest first, filtered (all filters combine with AND). */
@ArgsType()
export class RewardCodeListArgs extends MyRewardCodeListArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() memberId?: string;
}

/** Member.rewardCodes: one member's codes, newest first. */
@ArgsType()
export class MemberRewardCodesArgs extends PageArgs {
  @Field(() => RewardCodeStatus, { nullable: true, description: 'Evaluated now' }) @IsOptional() @IsEnum(RewardCodeStatus) status?: RewardCodeStatus;
}

/** A reward code by id: any string; one that names no code (or another member's, for a member) is 404. */
@ArgsType()
export class RewardCodeIdArgs {
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) id: string;
}

/** The characters a member shows at the store (spec Part 1: 1..6 characters); case does not matter. */
@ArgsType()
export class RewardCodeArgs {
  @Field() @IsString() @MinLength(1) @MaxLength(CODE_LENGTH) code: string;
}

@ArgsType()
export class UseRewardCodeArgs extends RewardCodeIdArgs {
  @Field({ description: 'The code\'s characters, as the member shows them; case does not matter' })
  @IsString()
  @MinLength(1)
  @MaxLength(CODE_LENGTH)
  code: string;
}

/** POST /reward-codes/check: whether the code may be used now, with the code and its reward. */
@ObjectType()
export class RewardCodeCheck {
  @Field({ description: 'true when the code is AVAILABLE: not used, not expired' }) valid: boolean;
  @Field({ description: 'Why it is (not) valid' }) message: string;
  @Field(() => RewardCode) rewardCode: RewardCode;
  @Field(() => Reward, { nullable: true, description: 'The code\'s reward, deleted or not' }) reward: Reward | null;
}
