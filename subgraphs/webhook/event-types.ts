import type { CustomerCreated, CustomerDeleted, CustomerUpdated } from '../auth/contract';
import { AUTH } from '../auth/contract';
import type { CampaignChanged, CampaignParticipantCompleted, CampaignParticipantJoined } from '../campaign/contract';
import { CAMPAIGN } from '../campaign/contract';
import type { CustomerTierChanged } from '../cluster/contract';
import type { NotificationDeliveryOutcome, NotificationSent } from '../notification/contract';
import { NOTIFICATION } from '../notification/contract';
import { CLUSTER } from '../cluster/contract';
import type { PointLedgerEntry, TransactionCompleted, TransactionRefunded } from '../point/contract';
import { POINT } from '../point/contract';
import type { RewardClaimed, RewardRedeemed } from '../reward/contract';
import { REWARD } from '../reward/contract';

/** Part 3's event types, the names a webhook may subscribe to (or `*`: all of them). */
export const WEBHOOK_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.tier_changed',
  'customer.deleted',
  'points.earned',
  'points.redeemed',
  'points.expired',
  'reward.claimed',
  'reward.redeemed',
  'campaign.created',
  'campaign.started',
  'campaign.ended',
  'campaign.participant.joined',
  'campaign.participant.completed',
  'transaction.completed',
  'transaction.refunded',
  'notification.sent',
  'notification.delivered',
  'notification.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const ALL_EVENTS = '*';

/** One internal event as a webhook event: its Part 3 type, the producing domain, and its `data`. */
interface PublicEvent {
  type: WebhookEventType;
  producer: string;
  data: (payload: any) => Record<string, unknown>;
}

/** `2026-11-23T06:36:33.120Z` → `2026-11-23T06:36:33Z` (v1 timestamps carry no milliseconds). */
export const v1Time = (iso: string | null | undefined): string | null => (iso ? new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z') : null);
/** A ledger's decimal string as v1 whole points (display only, never summed): `-12.50` → 12. */
const wholePoints = (amount: string | null | undefined): number => Math.trunc(Math.abs(Number(amount ?? 0))) || 0;
const money = (amount: string | null | undefined): number => Number(amount ?? 0);

/** A ledger entry; `note` and `referenceId` are absent from events written before they were added (read as null). */
type LedgerEvent = PointLedgerEntry;
const ledgerData = (entry: LedgerEvent) => ({
  customer_id: entry.memberId,
  points: wholePoints(entry.amount),
  reason: entry.note ?? null,
  transaction_id: entry.referenceId ?? entry.transactionId,
  new_balance: wholePoints(entry.balanceAfter),
});

const ISO_WITH_FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d+Z$/;
/** Every ISO timestamp at any depth without its fraction of a second; the rest unchanged. */
function v1Times(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(v1Times);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, v1Times(item)]));
  if (typeof value === 'string') return value.replace(ISO_WITH_FRACTION, '$1Z');
  return value;
}

/** A campaign's state change (`campaign.created`, `started`, `ended`) as Part 3 data. */
const campaignData = (event: CampaignChanged) => ({
  campaign_id: event.campaignId,
  name: event.name,
  type: event.type,
  status: event.status,
  start_date: v1Time(event.startDate),
  end_date: v1Time(event.endDate),
  occurred_at: v1Time(event.occurredAt),
});

/** Producer-shaped already (Part 3's snake_case): the auth domain's customer events, with v1 timestamps. */
const asIs = <T extends object>(payload: T) => v1Times(payload) as Record<string, unknown>;

/**
 * THE table from the domains' internal events to Part 3's webhook events (docs/decisions.md repeats
 * it): the internal type, its Part 3 type, the producer and the `data` built from the payload. A type
 * not listed here is not delivered.
 */
export const PUBLIC_EVENTS: Readonly<Record<string, PublicEvent>> = {
  [AUTH.events.customerCreated]: { type: 'customer.created', producer: 'auth', data: (event: CustomerCreated) => asIs(event) },
  [AUTH.events.customerUpdated]: { type: 'customer.updated', producer: 'auth', data: (event: CustomerUpdated) => asIs(event) },
  [AUTH.events.customerDeleted]: { type: 'customer.deleted', producer: 'auth', data: (event: CustomerDeleted) => asIs(event) },
  [CLUSTER.events.tierChanged]: {
    type: 'customer.tier_changed',
    producer: 'cluster',
    data: (event: CustomerTierChanged) => ({
      customer_id: event.memberId,
      from_tier_id: event.fromTierId,
      to_tier_id: event.toTierId,
      change_type: event.changeType,
      source: event.source,
      tier_end_at: v1Time(event.tierEndAt),
    }),
  },
  [POINT.events.earned]: { type: 'points.earned', producer: 'point', data: ledgerData },
  [POINT.events.redeemed]: { type: 'points.redeemed', producer: 'point', data: ledgerData },
  [POINT.events.expired]: {
    type: 'points.expired',
    producer: 'point',
    data: (entry: LedgerEvent) => ({ customer_id: entry.memberId, points: wholePoints(entry.amount), transaction_id: entry.transactionId, new_balance: wholePoints(entry.balanceAfter) }),
  },
  [REWARD.events.claimed]: {
    type: 'reward.claimed',
    producer: 'reward',
    data: (claim: RewardClaimed) => ({
      customer_id: claim.memberId,
      reward_id: claim.rewardCatalogId,
      claim_id: claim.rewardCodeId,
      points_spent: wholePoints(claim.pointUsage),
      expires_at: v1Time(claim.expiredAt),
      claimed_at: v1Time(claim.claimedAt),
    }),
  },
  [REWARD.events.redeemed]: {
    type: 'reward.redeemed',
    producer: 'reward',
    data: (use: RewardRedeemed) => ({ customer_id: use.memberId, reward_id: use.rewardCatalogId, claim_id: use.rewardCodeId, redeemed_at: v1Time(use.usedAt) }),
  },
  [POINT.events.transactionCompleted]: {
    type: 'transaction.completed',
    producer: 'point',
    data: (purchase: TransactionCompleted) => ({
      transaction: {
        id: purchase.transactionId,
        customer_id: purchase.customerId,
        amount: money(purchase.amount),
        store_id: purchase.storeId,
        category: purchase.category,
        external_id: purchase.externalId,
        status: purchase.status,
        points_earned: wholePoints(purchase.pointsEarned),
        occurred_at: v1Time(purchase.occurredAt),
        created_at: v1Time(purchase.createdAt),
      },
    }),
  },
  [POINT.events.transactionRefunded]: {
    type: 'transaction.refunded',
    producer: 'point',
    data: (refund: TransactionRefunded) => ({
      transaction: { id: refund.transactionId, customer_id: refund.customerId, refunded_amount: money(refund.refundedAmount), status: refund.status },
      refund: { id: refund.refundId, amount: money(refund.amount), points_reversed: wholePoints(refund.pointsReversed), points_unrecovered: wholePoints(refund.pointsUnrecovered), refunded_at: v1Time(refund.refundedAt) },
    }),
  },
  [CAMPAIGN.events.created]: { type: 'campaign.created', producer: 'campaign', data: (event: CampaignChanged) => campaignData(event) },
  [CAMPAIGN.events.started]: { type: 'campaign.started', producer: 'campaign', data: (event: CampaignChanged) => campaignData(event) },
  [CAMPAIGN.events.ended]: { type: 'campaign.ended', producer: 'campaign', data: (event: CampaignChanged) => campaignData(event) },
  [CAMPAIGN.events.participantJoined]: {
    type: 'campaign.participant.joined',
    producer: 'campaign',
    data: (event: CampaignParticipantJoined) => ({ campaign_id: event.campaignId, campaign_name: event.campaignName, customer_id: event.customerId, joined_at: v1Time(event.joinedAt) }),
  },
  [CAMPAIGN.events.participantCompleted]: {
    type: 'campaign.participant.completed',
    producer: 'campaign',
    data: (event: CampaignParticipantCompleted) => ({
      campaign_id: event.campaignId,
      campaign_name: event.campaignName,
      customer_id: event.customerId,
      participant_id: event.participantId,
      completed_at: v1Time(event.completedAt),
      reward: event.reward,
    }),
  },
  [NOTIFICATION.events.sent]: {
    type: 'notification.sent',
    producer: 'notification',
    data: (event: NotificationSent) => ({ notification_id: event.notificationId, title: event.title, channel: event.channel, total_recipients: event.totalRecipients, sent_at: v1Time(event.sentAt) }),
  },
  [NOTIFICATION.events.delivered]: {
    type: 'notification.delivered',
    producer: 'notification',
    data: (event: NotificationDeliveryOutcome) => ({ notification_id: event.notificationId, customer_id: event.customerId, channel: event.channel, delivered_at: v1Time(event.occurredAt) }),
  },
  [NOTIFICATION.events.failed]: {
    type: 'notification.failed',
    producer: 'notification',
    data: (event: NotificationDeliveryOutcome) => ({ notification_id: event.notificationId, customer_id: event.customerId, channel: event.channel, error: event.error, failed_at: v1Time(event.occurredAt) }),
  },
};

/** The internal event types the webhook domain consumes. */
export const CONSUMED_EVENTS = Object.keys(PUBLIC_EVENTS);
