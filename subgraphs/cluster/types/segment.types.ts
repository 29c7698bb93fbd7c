import { CatalogSearchArgs, DescribedUpdateInput, DescribedWriteInput, NameCreateInput, NameUpdateInput } from '../../../core/catalog/catalog-inputs';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEnum, IsInt, IsOptional, IsUUID, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { ArgsType, Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { SegmentType } from '../entities/segment';
import { MemberReference } from './member.type';
import { given, HasTwoDecimals, IsIdList } from '../../../core/validation';

const MAX_POINTS = 1_000_000_000_000;
export const MAX_MEMBERS_PER_CALL = 100;

/** The criteria of a rule segment; at least one is needed, and every given one must hold. */
@InputType()
export class SegmentRuleInput {
  @Field(() => [ID], { nullable: true, description: 'Live tier ids; the member is projected on one of them' })
  @IsOptional()
  @ArrayMinSize(1)
  @IsIdList(50)
  tierIds?: string[] | null;
  @Field(() => Float, { nullable: true, description: 'Lowest point balance (as last announced by point events), >= 0' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0)
  @Max(MAX_POINTS)
  minPoints?: number | null;
  @Field(() => Float, { nullable: true, description: 'Highest point balance, >= minPoints' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0)
  @Max(MAX_POINTS)
  maxPoints?: number | null;
  @Field(() => Int, { nullable: true, description: 'A point event within this many days (1..3650)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  activeWithinDays?: number | null;
  @Field(() => Int, { nullable: true, description: 'The member was born in this month (1..12)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  birthdayMonth?: number | null;
}

@InputType()
export class CreateSegmentInput extends DescribedWriteInput {
  @Field(() => SegmentType) @IsEnum(SegmentType) type: SegmentType;
  @Field(() => SegmentRuleInput, { nullable: true, description: 'Required for a rule segment; refused for a manual one' })
  @IsOptional()
  @ValidateNested()
  rule?: SegmentRuleInput | null;
}

/** An absent field keeps its value; null clears an optional text. The type cannot change; `rule` replaces the rule. */
@InputType()
export class UpdateSegmentInput extends DescribedUpdateInput {
  @Field(() => SegmentRuleInput, { nullable: true }) @ValidateIf(given('rule')) @ValidateNested() rule?: SegmentRuleInput;
}

@ArgsType()
export class SegmentListArgs extends CatalogSearchArgs {
  @Field(() => SegmentType, { nullable: true }) @IsOptional() @IsEnum(SegmentType) type?: SegmentType;
}

@ArgsType()
export class SegmentMembersArgs {
  @Field(() => ID) @IsUUID() id: string;
  @Field(() => [ID]) @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_MEMBERS_PER_CALL) @IsUUID('all', { each: true }) memberIds: string[];
}

/** A page of a segment's member ids after `after` (member id order): keyset paging for callers walking a whole segment. */
@ArgsType()
export class SegmentMemberIdsArgs {
  @Field(() => ID) @IsUUID() id: string;
  @Field(() => ID, { nullable: true, description: 'The last member id of the previous page' }) @IsOptional() @IsUUID() after?: string;
  @Field(() => Int, { defaultValue: 1000 }) @IsInt() @Min(1) @Max(5000) limit: number = 1000;
}

@ArgsType()
export class SegmentMemberListArgs extends PageArgs {
  @Field(() => ID) @IsUUID() id: string;
}

@ObjectType({ description: 'A member of a segment; addedAt only for manual segments' })
export class SegmentMember {
  @Field(() => ID) memberId: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When staff added the member (manual segments); null for rule segments' }) addedAt: Date | null;
  @Field(() => MemberReference, { description: 'The member, resolved by the auth subgraph' }) member?: MemberReference;
}

@ObjectType()
export class SegmentMembershipChange {
  @Field(() => ID) segmentId: string;
  @Field(() => Int, { description: 'Members actually added or removed (ones already in, or not in, are skipped)' }) changed: number;
  @Field(() => Int, { description: 'Members of the segment after the change' }) memberCount: number;
}

// Interests

@InputType()
export class InterestCategoryInput extends NameCreateInput {}

@InputType()
export class UpdateInterestCategoryInput extends NameUpdateInput {}

@ArgsType()
export class SetMyInterestsArgs {
  @Field(() => [ID], { description: 'The whole new set (may be empty); duplicates count once' })
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  categoryIds: string[];
}
