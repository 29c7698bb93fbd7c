import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { PublishedEvent, recordEvent } from '../../../core/events/outbox-event';
import { POINT, TransactionCompleted, TransactionRefunded } from '../../point/contract';
import { CAMPAIGN, CampaignParticipantCompleted } from '../contract';
import { Campaign } from '../entities/campaign';
import { Participant } from '../entities/participant';
import { CampaignSupergraph } from './campaign-supergraph';

export const CAMPAIGN_PROGRESS_QUEUE = 'campaign.progress';
export const CAMPAIGN_PROGRESS_EVENTS = [POINT.events.transactionCompleted, POINT.events.transactionRefunded] as const;

/** The consumer `campaign.progress`: purchases move participations; refunds lower the revenue they count. */
export function applyTransactionToCampaigns(em: EntityManager, event: PublishedEvent<TransactionCompleted | TransactionRefunded>, supergraph: CampaignSupergraph): Promise<void> {
  return event.type === POINT.events.transactionRefunded
    ? applyRefundToCampaigns(em, event as PublishedEvent<TransactionRefunded>)
    : applyPurchaseToCampaigns(em, event as PublishedEvent<TransactionCompleted>, supergraph);
}

/**
 * A refund lowers the revenue of the purchase it refunds, in every participation that kept it:
 * `refundedAmount` is the purchase's refunded total, so a repeat (or an older refund arriving late)
 * changes nothing. Progress and completions stay: a reward granted is not taken back.
 */
async function applyRefundToCampaigns(em: EntityManager, event: PublishedEvent<TransactionRefunded>): Promise<void> {
  await em.execute(
    `update campaign.participant_purchase set refunded_amount = greatest(refunded_amount, least(amount, ?::numeric)) where transaction_id = ?`,
    [event.data.refundedAmount, event.data.transactionId],
  );
}

/**
 * Progress from purchases (CONTRACT-v1 "Campaign progress"): a `transaction.completed` moves every
 * active participation of its customer whose campaign is active and whose window holds the purchase,
 * joined before it: +1 purchase, or + its amount when the campaign had `minPurchase` at the join (the
 * participation's `measure` and `target`, fixed then: a later change of the rules moves neither).
 * Each purchase of a participant inside the window after joining is kept once (`participant_purchase`,
 * whatever the deliveries of its event; the analytics' revenue) and counts once towards an active one.
 * Reaching the target completes the participation once (under its row lock, `completions` counted
 * under the campaign's), records `campaign.participant.completed` and awards a points reward through
 * the point domain, or grants a reward claim through the reward domain, with the participation's
 * idempotency key: a repeat of the event, or of the grant after a failure, grants nothing twice (a
 * reward refused for good, out of stock, leaves `rewardClaimed` false). Past `maxUses` completions the participation is `dropped`.
 */
async function applyPurchaseToCampaigns(em: EntityManager, event: PublishedEvent<TransactionCompleted>, supergraph: CampaignSupergraph): Promise<void> {
  const purchase = event.data;
  const purchasedAt = new Date(purchase.occurredAt ?? purchase.createdAt);
  const candidates = await em.find(
    Participant,
    { customerId: purchase.customerId, joinedAt: { $lte: purchasedAt }, campaign: { startDate: { $lte: purchasedAt }, endDate: { $gte: purchasedAt } } },
    { fields: ['id', 'campaign'], orderBy: { joinedAt: 'asc', id: 'asc' } },
  );
  for (const { id, campaign: { id: campaignId } } of candidates) {
    // Locks in the order joins take them: the campaign, then the participation.
    const campaign = await em.findOneOrFail(Campaign, { id: campaignId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const participant = await em.findOneOrFail(Participant, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const counted = await em.execute(
      `insert into campaign.participant_purchase (participant_id, transaction_id, amount, occurred_at) values (?, ?, ?, ?) on conflict do nothing returning participant_id`,
      [participant.id, purchase.transactionId, purchase.amount, purchasedAt],
    );
    // A repeat of the event, or a purchase after completion (kept for the analytics' revenue only).
    if (counted.length === 0 || participant.status !== 'active' || campaign.status !== 'active') continue;
    // What the participation joined with, whatever the campaign's rules are now.
    const step = participant.measure === 'amount' ? purchase.amount : '1';
    const [{ current, reached }] = await em.execute<Array<{ current: string; reached: boolean }>>(
      `with sum as (select ?::numeric + ?::numeric as value) select value::numeric(14,2)::text as current, value >= ?::numeric as reached from sum`,
      [participant.current, step, participant.target],
    );
    participant.current = current;
    if (reached) {
      if (campaign.rules.maxUses != null && campaign.completions >= campaign.rules.maxUses) {
        participant.status = 'dropped';
      } else {
        participant.status = 'completed';
        participant.completedAt = new Date();
        campaign.completions += 1;
        if (campaign.reward?.type === 'points') {
          participant.rewardReference = await supergraph.awardPoints(participant.id, participant.customerId, campaign.reward.value as number, campaign.id);
          participant.rewardClaimed = true;
        } else if (campaign.reward?.type === 'reward') {
          participant.rewardReference = await supergraph.grantReward(participant.id, participant.customerId, campaign.reward.value as string);
          participant.rewardClaimed = participant.rewardReference !== null;
        }
        const payload: CampaignParticipantCompleted = {
          campaignId: campaign.id,
          campaignName: campaign.name,
          customerId: participant.customerId,
          participantId: participant.id,
          completedAt: participant.completedAt.toISOString(),
          reward: campaign.reward,
        };
        recordEvent(em, CAMPAIGN.events.participantCompleted, payload, { aggregateId: campaign.id });
      }
    }
    await em.flush();
  }
}
