import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { AppError, forbidden, notFound, refusal, validationError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { isRecordId } from '../../../core/ids';
import { findPage, Page } from '../../../core/pagination';
import { CAMPAIGN, CampaignParticipantJoined } from '../contract';
import { Campaign } from '../entities/campaign';
import { Participant } from '../entities/participant';
import { CustomerCampaignListArgs, ParticipantListArgs } from '../types/campaign.types';
import { CampaignService } from './campaign.service';
import { CampaignSupergraph } from './campaign-supergraph';

/** A refused join: a 422 business rule, its reason answered by the v1 route as that code. */
export const ruleRefusal = (reason: 'CAMPAIGN_NOT_ACTIVE' | 'NOT_ELIGIBLE' | 'CAMPAIGN_FULL', message: string) => refusal('BAD_REQUEST', reason, message);
/** A repeated join while the participation is active: 409 with the reason `ALREADY_JOINED`. */
export const alreadyJoined = () => refusal('CONFLICT', 'ALREADY_JOINED', 'The customer already takes part in this campaign');

/**
 * Participations (CONTRACT-v1 "Campaign progress"): joins checked against the campaign's state and
 * window, its target segment, `perCustomerLimit` and `maxUses`, under the campaign's row lock so that
 * concurrent joins never exceed a limit; reads by campaign and by customer.
 */
export class ParticipantService {
  constructor(
    private readonly em: EntityManager,
    private readonly campaigns: CampaignService,
    private readonly supergraph?: CampaignSupergraph,
  ) {}

  async join(campaignId: string, customerId: string | null | undefined, caller: Principal): Promise<Participant> {
    if (customerId == null || customerId === '') throw validationError([{ field: 'customerId', message: 'customer_id is required' }]);
    if (caller.kind === 'member' && customerId !== caller.id) throw forbidden('A customer joins campaigns for itself only');
    const found = await this.campaigns.get(campaignId, caller);
    if (!this.supergraph) throw new AppError('UNAVAILABLE', 'The campaign service cannot reach the other domains');
    await this.supergraph.assertMember(customerId);
    this.assertRunning(found, new Date());
    if (found.targetSegmentId && !(await this.supergraph.inSegment(customerId, found.targetSegmentId))) {
      throw ruleRefusal('NOT_ELIGIBLE', 'The customer is not in the segment this campaign targets');
    }
    return this.em.transactional(async (em) => {
      // The campaign's row lock serializes its joins: the limits below hold under concurrency.
      const campaign = await em.findOneOrFail(Campaign, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = new Date();
      this.assertRunning(campaign, now);
      if (campaign.rules.maxUses != null && campaign.completions >= campaign.rules.maxUses) throw ruleRefusal('CAMPAIGN_FULL', 'The campaign has reached its maximum number of completions');
      const mine = await em.find(Participant, { campaign: campaign.id, customerId }, { fields: ['status'] });
      if (mine.some((participation) => participation.status === 'active')) throw alreadyJoined();
      if (mine.length >= campaign.rules.perCustomerLimit) throw ruleRefusal('NOT_ELIGIBLE', `The customer has joined this campaign the most times allowed (${campaign.rules.perCustomerLimit})`);
      const participant = em.create(Participant, {
        campaign,
        customerId,
        joinedAt: now,
        target: campaign.rules.minPurchase != null ? campaign.rules.minPurchase.toFixed(2) : '1',
        measure: campaign.rules.minPurchase != null ? 'amount' : 'purchases',
      });
      const payload: CampaignParticipantJoined = { campaignId: campaign.id, campaignName: campaign.name, customerId, joinedAt: now.toISOString() };
      recordEvent(em, CAMPAIGN.events.participantJoined, payload, { aggregateId: campaign.id });
      await em.flush();
      return participant;
    });
  }

  /** A campaign's participants, newest first. */
  async participants(args: ParticipantListArgs): Promise<Page<Participant>> {
    const campaign = await this.campaigns.find(args.campaignId);
    const where = { campaign: campaign.id, ...(args.status ? { status: args.status as Participant['status'] } : {}) };
    return findPage(this.em, Participant, where, { joinedAt: 'desc', id: 'desc' }, args, await this.em.count(Participant, where));
  }

  /**
   * A customer's participations with their campaigns, newest first: `active` (running participation of
   * an active campaign), `completed`, `ended` (the campaign ended before the participation completed).
   */
  async ofCustomer(args: CustomerCampaignListArgs): Promise<Page<Participant>> {
    if (!isRecordId(args.customerId)) throw notFound('Member', args.customerId);
    const where: Record<string, unknown> = { customerId: args.customerId };
    if (args.status === 'active') Object.assign(where, { status: 'active', campaign: { status: 'active' } });
    if (args.status === 'completed') where.status = 'completed';
    if (args.status === 'ended') Object.assign(where, { status: { $ne: 'completed' }, campaign: { status: 'ended' } });
    const total = await this.em.count(Participant, where);
    const page = await findPage(this.em, Participant, where, { joinedAt: 'desc', id: 'desc' }, args, total);
    await this.em.populate(page.data, ['campaign']);
    return page;
  }

  private assertRunning(campaign: Campaign, now: Date): void {
    if (campaign.status !== 'active' || now < campaign.startDate || now > campaign.endDate) {
      throw ruleRefusal('CAMPAIGN_NOT_ACTIVE', campaign.status !== 'active' ? `The campaign is ${campaign.status}` : 'The campaign is outside its window');
    }
  }
}
