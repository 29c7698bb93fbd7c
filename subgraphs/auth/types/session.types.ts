import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { Member } from '../entities/member';
import { REFERRAL_CODE, REFERRAL_CODE_MESSAGE } from './customer.inputs';

@ObjectType()
export class TokenPair {
  @Field() accessToken: string;
  @Field() refreshToken: string;
}

@ObjectType()
export class AccessTokenCheck {
  @Field() valid: boolean;
}

@ArgsType()
export class RefreshArgs {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(512) refreshToken?: string;
}

export const MemberLoginStatus = graphqlEnum('MemberLoginStatus', ['NEW', 'EXISTING']);
export type MemberLoginStatus = EnumValue<typeof MemberLoginStatus>;

@ObjectType()
export class MemberLogin extends TokenPair {
  @Field(() => MemberLoginStatus) status: MemberLoginStatus;
  @Field(() => Member, { description: 'The member logged in' }) member: Member;
}

@ArgsType()
export class ChatappLoginArgs {
  @Field() @IsString() @MinLength(1) @MaxLength(512) code: string;
  @Field(() => String, { nullable: true, description: 'The chat-app app id the code was issued for; when given, it must be ours' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  appId?: string;
  @Field(() => String, { nullable: true, description: "Another member's referral code, read at the first login only (the sign-up): this member is referred by that one" })
  @IsOptional()
  @Matches(REFERRAL_CODE, { message: REFERRAL_CODE_MESSAGE })
  referralCode?: string;
}

@ObjectType()
export class ServiceAccessToken {
  @Field() accessToken: string;
  @Field(() => Int, { description: 'Lifetime of the token in seconds' }) expiresIn: number;
}
