import { IsEnum, IsIn, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { PageArgs } from '../../../core/pagination';
import { HasTwoDecimals } from '../../../core/validation';
import { PurchaseStatus } from '../entities/purchase';
import { MAX_POINTS } from './point.types';

/** The largest purchase or refund amount, in currency units. */
export const MAX_PURCHASE_AMOUNT = MAX_POINTS;

@InputType({ description: 'A purchase as a retailer reports it (the customer is the member)' })
export class RecordPurchaseInput {
  @Field(() => ID, { description: "The member's id" }) @IsUUID('all', { message: 'customerId must be a customer id' }) customerId: string;
  @Field(() => Float, { description: 'In currency units, at most 2 decimals, above 0' })
  @HasTwoDecimals()
  @Min(0.01)
  @Max(MAX_PURCHASE_AMOUNT)
  amount: number;
  @Field(() => String, { nullable: true, description: 'The shop id of the point shop rules' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  storeId?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MinLength(1) @MaxLength(256) category?: string | null;
  @Field(() => String, { nullable: true, description: "The retailer's own id: the same id (in the same store) again answers the first purchase" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  externalId?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601 timestamp, not in the future; the recording time unless given' })
  @IsOptional()
  @IsISO8601({ strict: true })
  occurredAt?: string | null;
}

@InputType()
export class RefundPurchaseInput {
  @Field(() => Float, { nullable: true, description: 'What is given back, at most what is not yet refunded; all of that unless given' })
  @IsOptional()
  @HasTwoDecimals()
  @Min(0.01)
  @Max(MAX_PURCHASE_AMOUNT)
  amount?: number | null;
}

@ArgsType()
export class PurchaseListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID('all', { message: 'customerId must be a customer id' }) customerId?: string;
  @Field(() => PurchaseStatus, { nullable: true }) @IsOptional() @IsEnum(PurchaseStatus) status?: PurchaseStatus;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(256) storeId?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601; on when the purchase happened' }) @IsOptional() @IsISO8601({ strict: true }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601; a bare date covers its whole day' }) @IsOptional() @IsISO8601({ strict: true }) dateTo?: string;
}

/** What counts as a customer interaction (`click`: none recorded yet, accepted as Part 3 names it). */
export const INTERACTION_TYPES = ['purchase', 'refund', 'booking', 'visit', 'click', 'campaign_joined'] as const;

@ArgsType()
export class MemberInteractionArgs extends PageArgs {
  @Field(() => ID) @IsUUID() memberId: string;
  @Field(() => String, { nullable: true, description: INTERACTION_TYPES.join(', ') })
  @IsOptional()
  @IsIn(INTERACTION_TYPES, { message: `type must be one of ${INTERACTION_TYPES.join(', ')}` })
  type?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsISO8601({ strict: true }) dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'A bare date covers its whole day' }) @IsOptional() @IsISO8601({ strict: true }) dateTo?: string;
}

@ObjectType({ description: 'Something a member did: a purchase (recorded by a retailer, or a receipt approved), a refund, a booking, a visit (a check-in) or a campaign joined' })
export class MemberInteraction {
  @Field(() => ID, { description: 'The purchase, refund or receipt verification; for a booking, visit or campaign join, the event it was recorded from' }) id: string;
  @Field({ description: INTERACTION_TYPES.join(', ') }) type: string;
  @Field({ description: 'api (recorded through the API), receipt (a receipt approved), booking or campaign' }) channel: string;
  @Field() description: string;
  @Field(() => Float, { nullable: true, description: 'Money, in currency units' }) amount: string | null;
  @Field(() => Float, { description: 'Points the interaction earned; negative for points a refund took back' }) pointsEarned: string;
  @Field({ description: 'When it happened (a purchase: its occurredAt)' }) createdAt: Date;
}
