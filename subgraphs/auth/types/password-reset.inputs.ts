import { IsEmail, IsEnum, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { Locale } from '../../../core/i18n';
import { ResetChannel } from '../entities/password-reset-session';

@InputType()
export class RequestPasswordResetInput {
  @Field(() => ResetChannel) @IsEnum(ResetChannel) type: ResetChannel;
  @Field(() => ID) @IsUUID() staffId: string;
}

@InputType()
export class RequestPasswordResetByEmailInput {
  @Field() @IsEmail() email: string;
  @Field(() => Locale, { nullable: true }) @IsOptional() @IsEnum(Locale) locale?: Locale | null;
}

@InputType()
export class ResetPasswordInput {
  @Field() @IsString() @MinLength(1) @MaxLength(64) code: string;
  @Field() @IsString() @MinLength(6) @MaxLength(256) newPassword: string;
}

@ArgsType()
export class ResetSessionArgs {
  @Field(() => ID) @IsUUID() sessionId: string;
}

@ObjectType()
export class ResetSessionCheck {
  @Field() isValid: boolean;
}
