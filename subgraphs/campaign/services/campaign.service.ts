import { LockMode } from '@mikro-orm/core';
import { EventType } from '../../../core/events/event-type';
import { EntityManager } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { conflict, FieldError, notFound, validationError } from '../../../core/errors';
import { arrayLiteral } from '../../../core/db/array-literal';
import { recordEvent } from '../../../core/events/outbox-event';
import { isRecordId } from '../../../core/ids';
import { findPage, Page } from '../../../core/pagination';
import { CAMPAIGN, CampaignChanged } from '../contract';
import { Campaign } from '../entities/campaign';
import { CampaignListArgs, CreateCampaignInput, UpdateCampaignInput } from '../types/campaign.types';
import { checkContent, checkDescription, checkName, checkReward, checkRules, checkType, mergeRules, parseCampaignDate } from './campaign-input';
import { CampaignSupergraph } from './campaign-supergraph';

const CAMPAIGN_WORD = 'Campaign';

/** How a campaign is doing: its participations, and the share of them completed (0 to 1). */
export interface CampaignFigures {
  participantCount: number;
  conversionRate: number;
}

/** The figures of a campaign nobody has joined. */
export const NO_FIGURES: CampaignFigures = { participantCount: 0, conversionRate: 0 };

/** The `campaign.created` / `started` / `ended` payload. */
export const campaignChanged = (campaign: Campaign, occurredAt: Date): CampaignChanged => ({
  campaignId: campaign.id,
  name: campaign.name,
  type: campaign.type,
  status: campaign.status,
  startDate: campaign.startDate.toISOString(),
  endDate: campaign.endDate.toISOString(),
  occurredAt: occurredAt.toISOString(),
});

/**
 * Campaigns (Part 3): created as drafts with every field checked at once, read with their participation
 * figures, changed in part, activated (draft → active) and ended (active → ended, by hand or by the job
 * once `endDate` passed). Every change of state writes its event to the outbox in the same transaction.
 */
export class CampaignService {
  constructor(
    private readonly em: EntityManager,
    private readonly supergraph?: CampaignSupergraph,
  ) {}

  async create(input: CreateCampaignInput): Promise<Campaign> {
    const errors: FieldError[] = [];
    checkName(input.name, errors);
    checkType(input.type, errors);
    if (input.description != null) checkDescription(input.description, errors);
    const startDate = parseCampaignDate(input.startDate);
    const endDate = parseCampaignDate(input.endDate, true);
    if (!startDate) errors.push({ field: 'startDate', message: 'start_date is an ISO 8601 timestamp or a date YYYY-MM-DD' });
    if (!endDate) errors.push({ field: 'endDate', message: 'end_date is an ISO 8601 timestamp or a date YYYY-MM-DD' });
    if (startDate && endDate && endDate <= startDate) errors.push({ field: 'endDate', message: 'end_date is after start_date' });
    const reward = input.reward != null ? await this.checkRewardOf(input.reward, errors) : null;
    const rules = checkRules(input.rules ?? null, errors);
    const content = input.content != null ? checkContent(input.content, errors) : null;
    const segment = input.targetSegmentId != null ? await this.checkSegment(input.targetSegmentId, errors) : null;
    if (errors.length > 0) throw validationError(errors);
    return this.em.transactional(async (em) => {
      const campaign = em.create(Campaign, {
        name: input.name!.trim(),
        description: input.description ?? null,
        type: input.type!,
        startDate: startDate!,
        endDate: endDate!,
        targetSegmentId: segment ?? null,
        reward: reward ?? null,
        rules: rules!,
        content: content ?? null,
      });
      recordEvent(em, CAMPAIGN.events.created, campaignChanged(campaign, campaign.createdAt), { aggregateId: campaign.id });
      await em.flush();
      return campaign;
    });
  }

  /** Campaigns, newest first; a customer (member token) sees no drafts. */
  async list(args: CampaignListArgs, caller?: Principal): Promise<Page<Campaign>> {
    const errors: FieldError[] = [];
    const from = args.dateFrom !== undefined ? parseCampaignDate(args.dateFrom) : undefined;
    const to = args.dateTo !== undefined ? parseCampaignDate(args.dateTo, true) : undefined;
    if (from === null) errors.push({ field: 'dateFrom', message: 'date_from is an ISO 8601 timestamp or a date YYYY-MM-DD' });
    if (to === null) errors.push({ field: 'dateTo', message: 'date_to is an ISO 8601 timestamp or a date YYYY-MM-DD' });
    if (errors.length > 0) throw validationError(errors);
    const where: Record<string, unknown> = {};
    if (args.status) where.status = args.status;
    // A customer sees no drafts: asking for them finds none.
    if (caller?.kind === 'member') where.status = args.status === 'draft' ? 'none' : (args.status ?? { $ne: 'draft' });
    if (args.type) where.type = args.type;
    if (from) where.endDate = { $gte: from };
    if (to) where.startDate = { $lte: to };
    return findPage(this.em, Campaign, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(Campaign, where));
  }

  /** One campaign; 404 for none, for a non-id, and for a draft read by a customer. */
  async get(id: string, caller?: Principal): Promise<Campaign> {
    const campaign = await this.find(id);
    if (caller?.kind === 'member' && campaign.status === 'draft') throw notFound(CAMPAIGN_WORD, id);
    return campaign;
  }

  async update(id: string, input: UpdateCampaignInput): Promise<Campaign> {
    const current = await this.find(id);
    const errors: FieldError[] = [];
    if (input.name !== undefined) checkName(input.name, errors);
    if (input.type !== undefined) checkType(input.type, errors);
    if (input.description !== undefined) checkDescription(input.description, errors);
    const startDate = input.startDate !== undefined ? parseCampaignDate(input.startDate) : current.startDate;
    const endDate = input.endDate !== undefined ? parseCampaignDate(input.endDate, true) : current.endDate;
    if (!startDate) errors.push({ field: 'startDate', message: 'start_date is an ISO 8601 timestamp or a date YYYY-MM-DD' });
    if (!endDate) errors.push({ field: 'endDate', message: 'end_date is an ISO 8601 timestamp or a date YYYY-MM-DD' });
    if (startDate && endDate && endDate <= startDate) errors.push({ field: input.endDate !== undefined ? 'endDate' : 'startDate', message: 'end_date is after start_date' });
    const reward = input.reward !== undefined ? await this.checkRewardOf(input.reward, errors) : current.reward;
    if (input.rules !== undefined) checkRules(mergeRules(current.rules, input.rules), errors);
    const content = input.content !== undefined ? checkContent(input.content, errors) : current.content;
    const segment = input.targetSegmentId != null ? await this.checkSegment(input.targetSegmentId, errors) : undefined;
    if (errors.length > 0) throw validationError(errors);
    return this.em.transactional(async (em) => {
      const campaign = await em.findOneOrFail(Campaign, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (campaign.status === 'ended') throw conflict('An ended campaign cannot be changed');
      if (input.name != null) campaign.name = input.name.trim();
      if (input.type != null) campaign.type = input.type;
      if (input.description !== undefined) campaign.description = input.description;
      campaign.startDate = startDate!;
      campaign.endDate = endDate!;
      campaign.reward = reward ?? null;
      // Merged again over the locked row's rules: a concurrent PATCH of other keys is kept.
      if (input.rules !== undefined) campaign.rules = checkRules(mergeRules(campaign.rules, input.rules), [])!;
      campaign.content = content ?? null;
      if (input.targetSegmentId === null) campaign.targetSegmentId = null;
      else if (segment) campaign.targetSegmentId = segment;
      await em.flush();
      return campaign;
    });
  }

  /** draft → active (`campaign.started`); 409 from any other state, and for a draft whose end date has passed (the job would end it at once). */
  activate(id: string): Promise<Campaign> {
    return this.move(id, 'draft', 'active', CAMPAIGN.events.started, (campaign, now) => {
      if (campaign.endDate <= now) throw conflict(`The campaign's end_date (${campaign.endDate.toISOString()}) has passed: move it later before activating`);
    });
  }

  /** active → ended (`campaign.ended`); 409 from any other state. */
  end(id: string): Promise<Campaign> {
    return this.move(id, 'active', 'ended', CAMPAIGN.events.ended);
  }

  /** Ends every active campaign whose end date has passed (the job), each with its event; how many. */
  async endDue(now = new Date()): Promise<number> {
    const due = await this.em.find(Campaign, { status: 'active', endDate: { $lte: now } }, { fields: ['id'], orderBy: { endDate: 'asc' }, limit: 500 });
    let ended = 0;
    for (const { id } of due) {
      ended += await this.em.fork().transactional(async (em) => {
        const campaign = await em.findOne(Campaign, { id, status: 'active', endDate: { $lte: now } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!campaign) return 0;
        campaign.status = 'ended';
        recordEvent(em, CAMPAIGN.events.ended, campaignChanged(campaign, now), { aggregateId: campaign.id });
        await em.flush();
        return 1;
      });
    }
    return ended;
  }

  /** Moves the campaign from one state to the next under its row lock, once `check` (if any) allows it, with its event. */
  private async move(id: string, from: Campaign['status'], to: Campaign['status'], event: EventType<CampaignChanged>, check?: (campaign: Campaign, now: Date) => void): Promise<Campaign> {
    await this.find(id);
    return this.em.transactional(async (em) => {
      const campaign = await em.findOneOrFail(Campaign, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (campaign.status !== from) throw conflict(`The campaign is ${campaign.status}, not ${from}`);
      const now = new Date();
      check?.(campaign, now);
      campaign.status = to;
      recordEvent(em, event, campaignChanged(campaign, now), { aggregateId: campaign.id });
      await em.flush();
      return campaign;
    });
  }

  async find(id: string): Promise<Campaign> {
    const campaign = isRecordId(id) ? await this.em.findOne(Campaign, { id }) : null;
    if (!campaign) throw notFound(CAMPAIGN_WORD, id);
    return campaign;
  }

  /**
   * The participation figures of campaigns, in one query: participations so far, and completed ones per
   * participation (4 decimals). Asked by the Campaign fields themselves, so that every way of reaching a
   * campaign has them (a page, one campaign, a participant's campaign, a join's answer).
   */
  async figures(ids: string[]): Promise<Map<string, CampaignFigures>> {
    const rows: Array<{ campaign_id: string; total: string; completed: string }> = await this.em.execute(
      `select campaign_id, count(*) as total, count(*) filter (where status = 'completed') as completed
         from campaign.participant where campaign_id = any(?::uuid[]) group by campaign_id`,
      [arrayLiteral(ids)],
    );
    return new Map(
      rows.map((row) => {
        const participantCount = Number(row.total);
        return [row.campaign_id, { participantCount, conversionRate: Math.round((Number(row.completed) / participantCount) * 10000) / 10000 }];
      }),
    );
  }

  /** The id of a live segment (asked of the cluster domain), or undefined after adding the field's error. */
  private async checkSegment(id: string, errors: FieldError[]): Promise<string | undefined> {
    const live = this.supergraph ? await this.supergraph.segmentExists(id) : false;
    if (!live) errors.push({ field: 'targetSegmentId', message: 'target_segment_id is not a live segment' });
    return live ? id.toLowerCase() : undefined;
  }


  /** The checked reward; a `{type: reward}` one must name a live reward (asked of the reward domain). */
  private async checkRewardOf(value: unknown, errors: FieldError[]): Promise<ReturnType<typeof checkReward>> {
    const reward = checkReward(value, errors);
    if (reward?.type === 'reward' && !(this.supergraph && (await this.supergraph.rewardExists(reward.value as string)))) {
      errors.push({ field: 'reward.value', message: 'reward.value is not a live reward' });
    }
    return reward;
  }
}
