import { ArrayMaxSize, IsArray, IsEnum, IsIn, IsInt, IsISO8601, IsLatitude, IsLongitude, IsOptional, IsString, IsUrl, IsUUID, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { PageArgs } from '../../../core/pagination';
import { Gender, MemberStatus } from '../entities/member';

/** The longest `tier` filter of a member list: a tier's id or name. */
export const MAX_TIER_FILTER_LENGTH = 256;

export const MemberSortBy = graphqlEnum('MemberSortBy', ['createdAt', 'updatedAt', 'name']);
export type MemberSortBy = EnumValue<typeof MemberSortBy>;
export const MemberSortOrder = graphqlEnum('MemberSortOrder', ['asc', 'desc']);
export type MemberSortOrder = EnumValue<typeof MemberSortOrder>;

@InputType()
export class AddressInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(512) address?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) subDistrict?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) district?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) province?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(32) postCode?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) country?: string;
  @Field(() => Float, { nullable: true }) @IsOptional() @IsLatitude() latitude?: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @IsLongitude() longitude?: number;
}

/** The profile fields a member may change on itself (and staff on a member). */
@InputType()
export class MemberProfileInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) nickName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUrl({ require_protocol: true }) @MaxLength(2048) avatarUrl?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 date' }) @IsOptional() @IsISO8601({ strict: true }) birthDate?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100) name?: string;
  @Field(() => Gender, { nullable: true }) @IsOptional() @IsEnum(Gender) gender?: Gender;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(20) phoneNumber?: string;
  @Field(() => AddressInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  address?: AddressInput;
}

@InputType()
export class MemberDirectUpdateInput extends MemberProfileInput {
  @Field(() => MemberStatus, { nullable: true }) @IsOptional() @IsEnum(MemberStatus) status?: MemberStatus;
}

@InputType()
export class CreateMemberDirectInput {
  @Field() @IsString() @MinLength(1) @MaxLength(100) name: string;
  @Field() @IsString() @MinLength(1) @MaxLength(20) phoneNumber: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 date' }) @IsOptional() @IsISO8601({ strict: true }) birthDate?: string;
  @Field(() => Gender, { nullable: true }) @IsOptional() @IsEnum(Gender) gender?: Gender;
  @Field(() => AddressInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  address?: AddressInput;
}

/** What the mini-program reads from the chat app and hands over; gender is the provider's 0/1/2. */
@InputType()
export class ChatappProfileInput {
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) nickName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUrl({ require_protocol: true }) @MaxLength(2048) avatarUrl?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100) name?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(20) phoneNumber?: string;
  @Field(() => Int, { nullable: true, description: '0 unknown, 1 male, 2 female' }) @IsOptional() @IsInt() @IsIn([0, 1, 2]) gender?: number;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100) province?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100) city?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(100) country?: string;
}

@ArgsType()
export class MemberListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Members born on or after this ISO 8601 date' })
  @IsOptional()
  @IsISO8601()
  birthdayFrom?: string;

  @Field(() => String, { nullable: true, description: 'Name, nickname, phone number or e-mail' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  search?: string;

  @Field(() => [MemberStatus], { nullable: true, description: 'Only members in one of these statuses' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(4)
  @IsEnum(MemberStatus, { each: true })
  statusIn?: MemberStatus[];

  @Field(() => String, { nullable: true, description: 'Members created at or after this ISO 8601 instant (a date is its midnight UTC)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  createdFrom?: string;

  @Field(() => String, { nullable: true, description: 'Members created at or before this ISO 8601 instant (a date covers its whole day, UTC)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  createdTo?: string;

  @Field(() => String, { nullable: true, description: "Members whose current tier has this id, or this name in some language (case ignored)" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_TIER_FILTER_LENGTH)
  tier?: string;

  @Field(() => MemberSortBy, { defaultValue: MemberSortBy.createdAt }) @IsEnum(MemberSortBy) sortBy: MemberSortBy = MemberSortBy.createdAt;
  @Field(() => MemberSortOrder, { defaultValue: MemberSortOrder.desc }) @IsEnum(MemberSortOrder) sortOrder: MemberSortOrder = MemberSortOrder.desc;
}

@ArgsType()
export class MemberIdArgs {
  @Field(() => ID) @IsUUID() memberId: string;
}

@ArgsType()
export class MemberIdsArgs {
  @Field(() => [ID]) @IsArray() @ArrayMaxSize(500) @IsUUID('all', { each: true }) ids: string[];
}
