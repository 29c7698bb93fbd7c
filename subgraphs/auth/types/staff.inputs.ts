import { IsEmail, IsEnum, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { Locale } from '../../../core/i18n';
import { PageArgs } from '../../../core/pagination';
import { StaffStatus } from '../entities/staff';

@InputType()
export class StaffLoginInput {
  @Field() @IsEmail() email: string;
  @Field() @IsString() @MinLength(1) password: string;
}

@InputType()
export class UpdateStaffInput {
  @Field() @IsEmail() @MaxLength(256) email: string;
  @Field() @IsString() @MinLength(1) @MaxLength(256) firstname: string;
  @Field() @IsString() @MinLength(1) @MaxLength(256) lastname: string;
  @Field(() => ID) @IsUUID() roleId: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) phoneNumber?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) storeId?: string | null;
}

@InputType()
export class CreateStaffInput extends UpdateStaffInput {
  @Field(() => StaffStatus, { nullable: true }) @IsOptional() @IsEnum(StaffStatus) status?: StaffStatus;
  @Field(() => Locale, { nullable: true }) @IsOptional() @IsEnum(Locale) locale?: Locale;
}

@ArgsType()
export class StaffListArgs extends PageArgs {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) storeId?: string;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() roleId?: string;
  @Field(() => StaffStatus, { nullable: true }) @IsOptional() @IsEnum(StaffStatus) status?: StaffStatus;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) search?: string;
}

