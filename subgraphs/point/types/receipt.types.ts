import { IsBoolean, IsEnum, IsOptional, IsPositive, IsString, IsUUID, Max, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { ReceiptVerificationStatus } from '../entities/receipt-verification';
import { MAX_POINTS } from './point.types';
import { HasTwoDecimals, IsHttpUrl } from '../../../core/validation';

@ArgsType()
export class MyReceiptSubmissionArgs {
  @Field({ description: 'URL of the stored receipt image (the REST adapter stores the upload)' })
  @IsHttpUrl()
  @MaxLength(2048)
  imageUrl: string;
}

@ArgsType()
export class ReceiptSubmissionArgs extends MyReceiptSubmissionArgs {
  @Field(() => ID) @IsUUID() memberId: string;
}

@ArgsType()
export class MyReceiptListArgs extends PageArgs {
  @Field(() => ReceiptVerificationStatus, { nullable: true }) @IsOptional() @IsEnum(ReceiptVerificationStatus) status?: ReceiptVerificationStatus;
}

@ArgsType()
export class ReceiptListArgs extends MyReceiptListArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() memberId?: string;
}


/** The body of POST /receipt/verify/:id. */
@InputType()
export class AutomaticReceiptVerificationInput {
  @Field({ description: 'true: credit the receipt the extractor reads; false: reject it' }) @IsBoolean() approved: boolean;
  @Field({ description: 'Id of the extracted receipt' }) @IsString() @MinLength(1) @MaxLength(256) receiptId: string;
}

/** The body of POST and PUT /receipt/verify/:id/manual. */
@InputType()
export class ManualReceiptReviewInput {
  @Field() @IsBoolean() approved: boolean;
  @Field() @IsString() @MinLength(1) @MaxLength(1000) reviewReason: string;
  @Field(() => ID, { nullable: true, description: 'The rule to price the receipt with; else the shop rule, else the default rule' })
  @IsOptional()
  @IsUUID()
  pointRuleId?: string;
  @Field(() => Float, { nullable: true, description: 'Amount of the receipt, > 0; required to approve unless already known' })
  @IsOptional()
  @HasTwoDecimals()
  @IsPositive()
  @Max(MAX_POINTS)
  money?: number;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) shopId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) categoryId?: string;
}

@ObjectType()
export class ReceiptVerificationStats {
  @Field(() => Int) total: number;
  @Field(() => Int) pending: number;
  @Field(() => Int) processing: number;
  @Field(() => Int) approved: number;
  @Field(() => Int) rejected: number;
}
