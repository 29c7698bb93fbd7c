import { v1Amount, v1Time, wholePoints } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { POINT, PointLedgerEntry, PointsActivated, TransactionCompleted, TransactionRefunded } from '../contract';

/** A ledger entry; `note` and `referenceId` are absent from events written before they were added (read as null). */
const ledgerData = (entry: PointLedgerEntry) => ({
  customer_id: entry.memberId,
  points: wholePoints(entry.amount),
  reason: entry.note ?? null,
  transaction_id: entry.referenceId ?? entry.transactionId,
  new_balance: wholePoints(entry.balanceAfter),
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
