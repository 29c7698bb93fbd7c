import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { Access } from '../../../core/auth/access';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { MemberInteraction, MemberInteractionArgs } from '../types/purchase.types';

const MemberInteractionPage = PageType(MemberInteraction, 'MemberInteraction');

@Resolver(() => MemberInteraction)
export class InteractionResolver {
  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => MemberInteractionPage, { description: "A member's purchases and refunds, newest first (a member reads its own)" })
  memberInteractions(@Args() args: MemberInteractionArgs, @Ctx() ctx: PointContext) {
    return ctx.services.interactions.ofMember(args);
  }
}
