import { IsBoolean, IsEnum, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { TierChangeType } from '../entities/tier-history';
import { TierProjection } from '../entities/tier-projection';
import { HasTwoDecimals } from '../../../core/validation';

const MAX_POINTS = 1_000_000_000_000;

/** The body of POST /tiers/assign: gives a member without a tier its first tier. */
@InputType()
export class AssignTierInput {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) tierId: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601; absent: the tier does not end' }) @IsOptional() @IsISO8601({ strict: true }) tierEndAt?: string;
}

@InputType()
export class TierSnapshotInput {
  @Field(() => Float, { description: "The member's points at the change, >= 0" }) @HasTwoDecimals() @Min(0) @Max(MAX_POINTS) points: number;
}

/** The body of PUT /tier-projections/:memberId: moves a member to another tier (or renews the same). */
@InputType()
export class UpdateTierProjectionInput {
  @Field(() => String, { description: 'ISO 8601' }) @IsISO8601({ strict: true }) tierEndAt: string;
  @Field(() => ID) @IsString() @MinLength(1) @MaxLength(256) newTierTypeId: string;
  @Field(() => TierChangeType) @IsEnum(TierChangeType) changeType: TierChangeType;
  @Field(() => TierSnapshotInput) @ValidateNested() snapshot: TierSnapshotInput;
}

@ObjectType()
export class TierProjectionUpdate {
  @Field() success: boolean;
  @Field(() => TierProjection) projection: TierProjection;
}

@ArgsType()
export class MemberIdArgs {
  @Field(() => ID) @IsUUID() memberId: string;
}

@ArgsType()
export class TierProjectionListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: "Part of the tier's name, in any language" }) @IsOptional() @IsString() @MaxLength(256) search?: string;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsString() @MinLength(1) @MaxLength(256) tierId?: string;
  @Field(() => Boolean, { nullable: true, description: 'Also members in inactive tiers (false)' }) @IsOptional() @IsBoolean() includeInActive?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Also members in deleted tiers (false)' }) @IsOptional() @IsBoolean() includeDeletedAt?: boolean;
}

@ArgsType()
export class TierHistoryArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or datetime' }) @IsOptional() @IsISO8601() start?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or datetime; a date includes that whole day' }) @IsOptional() @IsISO8601() end?: string;
  @Field(() => TierChangeType, { nullable: true, description: 'Only this change type' }) @IsOptional() @IsEnum(TierChangeType) actionType?: TierChangeType;
}

@ArgsType()
export class TierYearArgs {
  @Field(() => Int, { nullable: true, description: 'Default: the current year (UTC)' }) @IsOptional() @IsInt() @Min(1970) @Max(9999) year?: number | null;
}

@ObjectType()
export class TierDistributionItem {
  @Field(() => ID) tierId: string;
  @Field(() => String, { nullable: true }) tierName_en: string | null;
  @Field(() => Int) memberCount: number;
}

@ObjectType()
export class TierYearlySummary {
  @Field(() => Int) year: number;
  @Field(() => [TierDistributionItem], { description: 'Members per live tier now (every live tier, also with none)' }) tierDistribution: TierDistributionItem[];
  @Field(() => Int, { description: 'Upgrades in the year' }) upgrades: number;
  @Field(() => Int, { description: 'Downgrades in the year, expiries included' }) downgrades: number;
  @Field(() => Int, { description: 'Expiries in the year (also counted in downgrades)' }) expiries: number;
}
