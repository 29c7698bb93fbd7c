import { v1Amount, v1Time, wholePoints } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { POINT, PointLedgerEntry, PointsActivated, ReferralChanged, TransactionCompleted, TransactionRefunded } from '../contract';

/** A ledger entry; `note` and `referenceId` are absent from events written before they were added (read as null). */
const ledgerData = (entry: PointLedgerEntry) => ({
  customer_id: entry.memberId,
  points: wholePoints(entry.amount),
  reason: entry.note ?? null,
  transaction_id: entry.referenceId ?? entry.transactionId,
  new_balance: wholePoints(entry.balanceAfter),
});

/** A referral as its events go out: the new member is `customer_id`, the code's owner `referrer_id`. */
const referralData = (referral: ReferralChanged) => ({
  referral: {
    id: referral.referralId,
    code: referral.code,
    referrer_id: referral.referrerId,
    customer_id: referral.referredId,
    status: referral.completedAt ? 'completed' : 'pending',
    purchase_id: referral.purchaseId,
    created_at: v1Time(referral.createdAt),
    completed_at: referral.completedAt && v1Time(referral.completedAt),
  },
});

/** The point domain's events as Part 3 webhook events. */
export const POINT_PUBLIC_EVENTS: PublicEvent[] = [
  { internal: POINT.events.earned, type: 'points.earned', data: ledgerData },
  { internal: POINT.events.redeemed, type: 'points.redeemed', data: ledgerData },
  {
    internal: POINT.events.expired,
    type: 'points.expired',
    data: (entry: PointLedgerEntry) => ({ customer_id: entry.memberId, points: wholePoints(entry.amount), transaction_id: entry.transactionId, new_balance: wholePoints(entry.balanceAfter) }),
  },
  {
    internal: POINT.events.activated,
    type: 'points.activated',
    data: (held: PointsActivated) => ({
      customer_id: held.memberId,
      points: wholePoints(held.amount),
      pending_id: held.pendingId,
      transaction_id: held.referenceId ?? held.transactionId,
      source_type: held.sourceType,
      early: held.early,
      activated_at: v1Time(held.activatedAt),
    }),
  },
  { internal: POINT.events.referralCreated, type: 'referral.created', data: referralData },
  { internal: POINT.events.referralCompleted, type: 'referral.completed', data: referralData },
  {
    internal: POINT.events.transactionCompleted,
    type: 'transaction.completed',
    data: (purchase: TransactionCompleted) => ({
      transaction: {
        id: purchase.transactionId,
        customer_id: purchase.customerId,
        amount: v1Amount(purchase.amount),
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
  {
    internal: POINT.events.transactionRefunded,
    type: 'transaction.refunded',
    data: (refund: TransactionRefunded) => ({
      transaction: { id: refund.transactionId, customer_id: refund.customerId, refunded_amount: v1Amount(refund.refundedAmount), status: refund.status },
      refund: { id: refund.refundId, amount: v1Amount(refund.amount), points_reversed: wholePoints(refund.pointsReversed), points_unrecovered: wholePoints(refund.pointsUnrecovered), refunded_at: v1Time(refund.refundedAt) },
    }),
  },
];
