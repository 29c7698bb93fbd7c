import { IsEnum, IsIn, IsOptional, IsPositive, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { PointRequestActionType, PointRequestStatus } from '../entities/point-request-ticket';
import { MAX_POINTS } from './point.types';
import { HasTwoDecimals } from '../../../core/validation';


/** The body of POST /request/earn and /request/spend. */
@InputType()
export class PointRequestInput {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => Float) @HasTwoDecimals() @IsPositive() @Max(MAX_POINTS) amount: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) @Max(MAX_POINTS) purchaseAmount?: number;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) shopId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) categoryId?: string;
  @Field() @IsString() @MinLength(1) @MaxLength(1000) requestReason: string;
}

export const REVIEW_DECIDES = 'a review approves or rejects: status must be approved or rejected';

/** The body of PATCH /request/:id/review. `pending` is in the enum (the spec lists it) but refused. */
@InputType()
export class PointRequestReviewInput {
  @Field(() => PointRequestStatus)
  @IsIn([PointRequestStatus.approved, PointRequestStatus.rejected], { message: REVIEW_DECIDES })
  status: PointRequestStatus;

  @Field() @IsString() @MinLength(1) @MaxLength(1000) reviewReason: string;
}


@ArgsType()
export class PointRequestListArgs extends PageArgs {
  @Field(() => PointRequestStatus, { nullable: true }) @IsOptional() @IsEnum(PointRequestStatus) status?: PointRequestStatus;
  @Field(() => PointRequestActionType, { nullable: true }) @IsOptional() @IsEnum(PointRequestActionType) actionType?: PointRequestActionType;
}
