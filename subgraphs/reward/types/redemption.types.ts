import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { RewardCode } from '../entities/reward-code';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { RewardCatalogIdArgs } from './reward-catalog.types';

export const RedeemRefusal = graphqlEnum(
  'RewardRedeemRefusal',
  ['INACTIVE', 'OUTSIDE_WINDOW', 'OUT_OF_STOCK', 'LIMIT_PER_USER_REACHED', 'QUOTA_REACHED', 'TIER_NOT_INCLUDED', 'TIER_EXCLUDED', 'NOT_ENOUGH_POINTS'],
  'A rule of a reward catalog that stops a member from redeeming it now (stable codes)',
);
export type RedeemRefusal = EnumValue<typeof RedeemRefusal>;

/** One rule that fails: its stable code and a sentence for people. */
@ObjectType('RewardRedeemReason')
export class RedeemReason {
  @Field(() => RedeemRefusal) code: RedeemRefusal;
  @Field() message: string;
}

/** GET /reward-catalogs/:id/can-redeem: whether the member may redeem now, and every rule that stops it. */
@ObjectType('RewardRedeemCheck')
export class RedeemCheck {
  @Field() canRedeem: boolean;
  @Field(() => [RedeemReason], { description: 'Empty when canRedeem' }) reasons: RedeemReason[];
}

/** A catalog and the member it is for: a member names itself or nobody; reward:manage names the member. */
@ArgsType()
export class RedeemForArgs extends RewardCatalogIdArgs {
  @Field(() => ID, { nullable: true, description: 'The member (reward:manage); a member omits it or names itself' })
  @IsOptional()
  @IsUUID()
  memberId?: string;
}

/** POST /reward-catalogs/:id/redeem: the key (header Idempotency-Key) makes a repeat return the first outcome. */
@ArgsType()
export class RedeemArgs extends RedeemForArgs {
  @Field({ description: "Unique per member: a repeat with the same key and catalog returns the first redemption's code (or refusal)" })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey: string;
}

/** The most units one claim takes at once. */
export const MAX_CLAIM_QUANTITY = 100;

/** A claim of several units of a catalog at once (v1 redeem and claim): all or none. */
@ArgsType()
export class ClaimArgs extends RedeemForArgs {
  @Field(() => Int, { defaultValue: 1, description: `Units claimed at once, 1 to ${MAX_CLAIM_QUANTITY}: as many codes, quantity × pointUsage points` })
  @IsInt()
  @Min(1)
  @Max(MAX_CLAIM_QUANTITY)
  quantity: number = 1;

  @Field(() => String, { nullable: true, description: "The caller's Idempotency-Key: a repeat with the same catalog and quantity answers the same claim" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotencyKey?: string;
}

/**
 * A claim granted to a member without spending points (a campaign's reward): `reference` names the
 * grant, so that a repeat answers the same claim.
 */
@ArgsType()
export class GrantArgs extends RewardCatalogIdArgs {
  @Field(() => ID) @IsUUID() memberId: string;

  @Field({ description: "The granting party's name for this grant (e.g. campaign-participant:<id>): a repeat with the same reference answers the same claim" })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  reference: string;
}

/** What a claim issued: its codes, and the points it spent in one ledger entry. */
@ObjectType('RewardClaim')
export class RewardClaim {
  @Field(() => ID) redemptionId: string;
  @Field(() => ID) memberId: string;
  @Field(() => ID) rewardCatalogId: string;
  @Field(() => Int) quantity: number;
  @Field(() => Float) pointsSpent: string;
  @Field(() => ID, { nullable: true, description: 'The SPEND entry of the point ledger; null when nothing was spent' }) pointTransactionId: string | null;
  @Field(() => [RewardCode]) codes: RewardCode[];
}
