import { ArrayMaxSize, IsEnum, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { PointActionType, PointSource } from '../entities/point-transaction';
import { HasTwoDecimals } from '../../../core/validation';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const MAX_POINTS = 1_000_000_000_000;

@InputType()
export class PointMovementInput {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => Float) @HasTwoDecimals() @Min(0) @Max(MAX_POINTS) amount: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @HasTwoDecimals() @Min(0) @Max(MAX_POINTS) purchaseAmount?: number;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) shopId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) categoryId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(1000) note?: string;
  @Field(() => PointSource, { nullable: true }) @IsOptional() @IsEnum(PointSource) sourceBy?: PointSource;
}

@ArgsType()
export class IdempotencyArgs {
  @Field(() => String, { nullable: true, description: 'A repeat with the same key and body returns the first result' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

@ArgsType()
export class SagaKeyArgs {
  @Field(() => String, { description: "The key of the caller's saga step: a repeat with the same body returns the first result, or the first refusal" })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey: string;
}

@ObjectType()
export class PointBalance {
  @Field(() => ID) memberId: string;
  @Field(() => Float) pointAmount: string;
  @Field(() => Float) purchaseAmount: string;
  @Field(() => Float, { description: 'Points held now (pending), not spendable until activated; the same in every window' }) pendingAmount: string;
}

export const BalanceFormat = graphqlEnum('BalanceFormat', ['earn', 'burn'], 'earn: points earned in the window; burn: points spent');
export type BalanceFormat = EnumValue<typeof BalanceFormat>;

@ArgsType()
export class BalanceWindowArgs {
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or datetime' }) @IsOptional() @IsISO8601() start?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or datetime' }) @IsOptional() @IsISO8601() end?: string;
  @Field(() => BalanceFormat, { nullable: true }) @IsOptional() @IsEnum(BalanceFormat) format?: BalanceFormat;
}

@ArgsType()
export class MemberBalanceArgs extends BalanceWindowArgs {
  @Field(() => ID) @IsUUID() memberId: string;
}

@ArgsType()
export class HistoryArgs extends PageArgs {
  @Field(() => [ID], { nullable: true }) @IsOptional() @ArrayMaxSize(100) @IsUUID('all', { each: true }) memberIds?: string[];
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601() startDate?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601() endDate?: string;
  @Field(() => PointActionType, { nullable: true }) @IsOptional() @IsEnum(PointActionType) actionType?: PointActionType;
  @Field(() => PointSource, { nullable: true }) @IsOptional() @IsEnum(PointSource) sourceBy?: PointSource;
}

@ArgsType()
export class DailySummaryArgs {
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601() startDate?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601() endDate?: string;
}

@ObjectType()
export class DailySummaryItem {
  @Field({ description: 'The day, YYYY-MM-DD (UTC)' }) date: string;
  @Field(() => Float) earned: string;
  @Field(() => Float) spent: string;
  @Field(() => Float) expired: string;
  @Field(() => Float) netChange: string;
}

@ObjectType({ description: "The next points of a member's to expire: how many, and when" })
export class PointExpiration {
  @Field(() => ID) memberId: string;
  @Field(() => Float, { description: 'The points left in the lots that expire at expiresAt' }) points: string;
  @Field({ description: 'The earliest expiry still ahead among the lots with points left' }) expiresAt: Date;
}

@ArgsType()
export class MemberArgs {
  @Field(() => ID) @IsUUID() memberId: string;
}

@ArgsType()
export class MemberHistoryArgs extends PageArgs {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601() startDate?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601() endDate?: string;
  @Field(() => PointActionType, { nullable: true }) @IsOptional() @IsEnum(PointActionType) actionType?: PointActionType;
}
