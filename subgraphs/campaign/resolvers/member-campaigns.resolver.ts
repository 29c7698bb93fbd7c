import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { CampaignContext } from '../context';
import { Participant } from '../entities/participant';
import { MemberReference } from '../types/member.type';

/** Contributes `Member.campaignParticipations` to the auth subgraph's Member (v1 `include=campaigns`); whoever may read the member reads them. */
@Resolver(() => MemberReference)
export class MemberCampaignsResolver {
  @FieldResolver(() => [Participant], { description: "The member's participations, newest first (at most 100), each with its campaign" })
  campaignParticipations(@Root() member: MemberReference, @Ctx() ctx: CampaignContext): Promise<Participant[]> {
    return ctx.services.participants.ofCustomer({ customerId: member.id, page: 1, limit: 100 }).then((page) => page.data);
  }
}
