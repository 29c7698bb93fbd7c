import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
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
