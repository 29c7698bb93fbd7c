import { wrap } from '@mikro-orm/core';
import { Arg, Args, Authorized, Ctx, FieldResolver, Float, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { CampaignContext } from '../context';
import { CAMPAIGN } from '../contract';
import { Campaign } from '../entities/campaign';
import { Participant } from '../entities/participant';
import { CampaignAnalytics, CampaignAnalyticsArgs } from '../types/campaign-analytics.types';
import {
  CampaignIdArgs,
  CampaignListArgs,
  CampaignPage,
  CreateCampaignInput,
  CustomerCampaignListArgs,
  JoinCampaignArgs,
  ParticipantListArgs,
  ParticipantPage,
  UpdateCampaignInput,
} from '../types/campaign.types';

/** Campaigns and participants: marketing manages (campaign:manage), staff read (campaign:read), customers read and join for themselves. */
@Resolver(() => Campaign)
export class CampaignResolver {
  @Authorized(CAMPAIGN.permissions.manage)
  @Mutation(() => Campaign, { description: 'Creates a draft campaign; 400 on every bad field' })
  createCampaign(@Arg('input') input: CreateCampaignInput, @Ctx() ctx: CampaignContext) {
    return ctx.services.campaigns.create(input);
  }

  @Authorized(Access.member, CAMPAIGN.permissions.read)
  @Query(() => CampaignPage, { description: 'Campaigns, newest first (customers see no drafts)' })
  campaigns(@Args() args: CampaignListArgs, @Caller() caller: Principal, @Ctx() ctx: CampaignContext) {
    return ctx.services.campaigns.list(args, caller);
  }

  @Authorized(Access.member, CAMPAIGN.permissions.read)
  @Query(() => Campaign, { description: 'One campaign with its participation figures' })
  campaign(@Args() { id }: CampaignIdArgs, @Caller() caller: Principal, @Ctx() ctx: CampaignContext) {
    return ctx.services.campaigns.get(id, caller);
  }

  @Authorized(CAMPAIGN.permissions.manage)
  @Mutation(() => Campaign, { description: 'Changes some fields of a draft or active campaign (409 once ended); rules keys given are merged into its rules (null: the default)' })
  updateCampaign(@Args() { id }: CampaignIdArgs, @Arg('input') input: UpdateCampaignInput, @Ctx() ctx: CampaignContext) {
    return ctx.services.campaigns.update(id, input);
  }

  @Authorized(CAMPAIGN.permissions.manage)
  @Mutation(() => Campaign, { description: 'draft → active; 409 from any other state and once the end date has passed' })
  activateCampaign(@Args() { id }: CampaignIdArgs, @Ctx() ctx: CampaignContext) {
    return ctx.services.campaigns.activate(id);
  }

  @Authorized(CAMPAIGN.permissions.manage)
  @Mutation(() => Campaign, { description: 'active → ended; 409 from any other state' })
  endCampaign(@Args() { id }: CampaignIdArgs, @Ctx() ctx: CampaignContext) {
    return ctx.services.campaigns.end(id);
  }

  @Authorized(Access.member, CAMPAIGN.permissions.manage)
  @Mutation(() => Participant, { description: 'Joins a customer to an active campaign (a customer for itself); refusals carry extensions.reason' })
  joinCampaign(@Args() { campaignId, customerId }: JoinCampaignArgs, @Caller() caller: Principal, @Ctx() ctx: CampaignContext) {
    return ctx.services.participants.join(campaignId, customerId, caller);
  }

  @Authorized(CAMPAIGN.permissions.read)
  @Query(() => ParticipantPage, { description: "A campaign's participants, newest first" })
  campaignParticipants(@Args() args: ParticipantListArgs, @Ctx() ctx: CampaignContext) {
    return ctx.services.participants.participants(args);
  }

  @Authorized(Access.selfBy('customerId'), CAMPAIGN.permissions.read)
  @Query(() => ParticipantPage, { description: "A customer's participations with their campaigns; a customer reads its own" })
  customerCampaigns(@Args() args: CustomerCampaignListArgs, @Ctx() ctx: CampaignContext) {
    return ctx.services.participants.ofCustomer(args);
  }

  @Authorized(CAMPAIGN.permissions.read)
  @Query(() => CampaignAnalytics, { description: 'Participants, conversions, revenue and average order value, in total and by day, week or month' })
  campaignAnalytics(@Args() args: CampaignAnalyticsArgs, @Ctx() ctx: CampaignContext) {
    return ctx.services.analytics(args);
  }

  @FieldResolver(() => Int, { description: 'Participations so far' })
  async participantCount(@Root() campaign: Campaign, @Ctx() ctx: CampaignContext): Promise<number> {
    return (await ctx.services.figures.load(campaign.id)).participantCount;
  }

  @FieldResolver(() => Float, { description: 'Completed participations / participations, 0 to 1' })
  async conversionRate(@Root() campaign: Campaign, @Ctx() ctx: CampaignContext): Promise<number> {
    return (await ctx.services.figures.load(campaign.id)).conversionRate;
  }
}

/** A participation's campaign, however the participation was reached (a customer's list loads it; a campaign's does not). */
@Resolver(() => Participant)
export class ParticipantResolver {
  @FieldResolver(() => Campaign, { description: 'The campaign joined' })
  async campaign(@Root() participant: Participant, @Ctx() ctx: CampaignContext): Promise<Campaign> {
    if (wrap(participant.campaign).isInitialized()) return participant.campaign;
    const campaign = await ctx.services.campaignsById.load(participant.campaign.id);
    if (!campaign) throw new Error(`Participant ${participant.id} has no campaign ${participant.campaign.id}`);
    return campaign;
  }
}
