import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { RewardContext } from '../context';
import { REWARD } from '../contract';
import { RewardCode } from '../entities/reward-code';
import { ClaimArgs, GrantArgs, RedeemArgs, RedeemCheck, RedeemForArgs, RewardClaim } from '../types/redemption.types';

/** Can-redeem and redemption: a member for itself, or reward:manage for a member it names. */
@Resolver()
export class RedemptionResolver {
  @Authorized(Access.member, REWARD.permissions.manage)
  @Query(() => RedeemCheck, { description: 'Whether the member may redeem the catalog now, and every rule that stops it' })
  canRedeemRewardCatalog(@Args() { id, memberId }: RedeemForArgs, @Caller() caller: Principal, @Ctx() ctx: RewardContext) {
    return ctx.services.redemptions.check(id, caller, memberId);
  }

  @Authorized(Access.member, REWARD.permissions.manage)
  @Mutation(() => RewardCode, {
    description: "Spends the catalog's points, takes a unit of stock and issues a reward code, all or nothing; a repeat of the Idempotency-Key answers the same code",
  })
  redeemRewardCatalog(@Args() args: RedeemArgs, @Caller() caller: Principal, @Ctx() ctx: RewardContext) {
    return ctx.services.redemptions.redeem(args, caller, ctx.requestId);
  }

  @Authorized(Access.member, REWARD.permissions.manage)
  @Mutation(() => RewardClaim, {
    description: 'Claims quantity units of the catalog at once, all or none: quantity units of stock, quantity × pointUsage points in one spend, quantity codes; a repeat of the Idempotency-Key answers the same claim',
  })
  claimRewardCatalog(@Args() args: ClaimArgs, @Caller() caller: Principal, @Ctx() ctx: RewardContext) {
    return ctx.services.redemptions.claim(args, caller, ctx.requestId);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => RewardClaim, {
    description: "Grants one unit of the catalog to a member without spending points (a campaign's reward): stock and a code, no redeem rules; a repeat of reference answers the same claim",
  })
  grantRewardCatalog(@Args() args: GrantArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.redemptions.grant(args, ctx.requestId);
  }
}
