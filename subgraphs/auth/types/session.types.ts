import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

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
}

@ArgsType()
export class ChatappLoginArgs {
  @Field() @IsString() @MinLength(1) @MaxLength(512) code: string;
}

@ObjectType()
export class ServiceAccessToken {
  @Field() accessToken: string;
  @Field(() => Int, { description: 'Lifetime of the token in seconds' }) expiresIn: number;
}
