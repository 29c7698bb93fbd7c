import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

/** The most points one award moves: whole points, well inside GraphQL's Int. */
export const MAX_AWARD_POINTS = 1_000_000_000;
/** The most awards one batch carries (subgraphs/point/DECISIONS.md, v1 loyalty). */
export const MAX_BATCH_AWARDS = 1_000;

/** One award of whole points to a member, as the v1 surface gives it. */
@InputType()
export class PointAwardInput {
  @Field(() => ID) @IsString() @MaxLength(64) memberId: string;
  @Field(() => Int) @IsInt() @Min(1) @Max(MAX_AWARD_POINTS) points: number;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(1000) reason?: string;
  @Field(() => String, { nullable: true, description: "The caller's own id of what the award is for: a second award of it to the member by the same caller returns the first entry (another caller's same id is its own award)" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  transactionId?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Kept with the ledger entry' }) @IsOptional() @IsObject() metadata?: Record<string, unknown>;
}

/** One row of a batch award. */
@InputType()
export class PointBatchAwardRow {
  @Field(() => ID) @IsString() @MaxLength(64) memberId: string;
  @Field(() => Int) @IsInt() @Min(1) @Max(MAX_AWARD_POINTS) points: number;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(1000) reason?: string;
}

@InputType()
export class PointBatchAwardInput {
  @Field(() => [PointBatchAwardRow])
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_AWARDS)
  @ValidateNested({ each: true })
  awards: PointBatchAwardRow[];
}

@ObjectType()
export class PointAwardFailure {
  @Field() code: string;
  @Field() message: string;
}

/** How one row of a batch ended: its ledger entry, or why it was not awarded. */
@ObjectType()
export class PointAwardResult {
  @Field(() => ID) memberId: string;
  @Field() success: boolean;
  @Field(() => ID, { nullable: true, description: 'The ledger entry of the award' }) transactionId: string | null;
  @Field(() => PointAwardFailure, { nullable: true }) error: PointAwardFailure | null;
}

@ObjectType()
export class PointBatchAwardOutcome {
  @Field(() => Int) processed: number;
  @Field(() => Int) failed: number;
  @Field(() => [PointAwardResult]) results: PointAwardResult[];
}
