import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { RewardContext } from '../context';
import { MemberReference } from '../types/member.type';
import { MemberRewardCodesArgs, RewardCodePage } from '../types/reward-code.types';

/** Contributes `Member.rewardCodes` to the auth subgraph's Member. */
@Resolver(() => MemberReference)
export class MemberRewardCodesResolver {
  @FieldResolver(() => RewardCodePage, { description: "The member's reward codes, newest first: for reward:read or reward:manage, or the member itself (403 otherwise)" })
  rewardCodes(@Root() member: MemberReference, @Args() args: MemberRewardCodesArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.codes.listOfMember(member.id, args, ctx.principal);
  }
}
