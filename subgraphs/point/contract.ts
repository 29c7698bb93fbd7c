import { call } from '../../core/call-type';
import { event } from '../../core/events/event-type';
import type { DomainContract } from '../../core/module';

/** The point domain's contract: the ledger, requests, shop rules and receipts. Plain data, importable by any domain. */
export const POINT = {
  name: 'point',
  permissions: {
    read: 'point:read',
    manage: 'point:manage',
    /** Awarding many customers at once (the `admin` scope, as `POST /api/v1/points/batch-award`): admin only, through `*`. */
    batchAward: 'point:batch-award',
    request: 'point:request',
    review: 'point:review',
    /** Writing earning rules (the `admin` scope, as `/api/v1/loyalty/rules`): admin only, through `*`. */
    rulesManage: 'point:rules-manage',
  },
  permissionScopes: { read: 'read', manage: 'write', batchAward: 'admin', request: 'write', review: 'write', rulesManage: 'admin' },
  grants: {
    marketing: ['point:read', 'point:manage', 'point:request', 'point:review'],
    tenant: ['point:read', 'point:request'],
  },
  events: {
    earned: event<PointLedgerEntry>('points.earned'),
    redeemed: event<PointLedgerEntry>('points.redeemed'),
    expired: event<PointLedgerEntry>('points.expired'),
    expiring: event<PointsExpiring>('points.expiring'),
    activated: event<PointsActivated>('points.activated'),
    receiptSubmitted: event<ReceiptVerificationChanged>('receipt.submitted'),
    receiptRejected: event<ReceiptVerificationChanged>('receipt.rejected'),
    transactionCompleted: event<TransactionCompleted>('transaction.completed'),
    transactionRefunded: event<TransactionRefunded>('transaction.refunded'),
    referralCreated: event<ReferralChanged>('referral.created'),
    referralCompleted: event<ReferralChanged>('referral.completed'),
  },
  /** What other domains ask the ledger in-process when they share its process (core/domain-calls.ts). */
  calls: {
    /** A member's balance now (`Member.pointBalance`): 0 for a member without entries. */
    balance: call<{ memberId: string }, { pointAmount: string }>('point.balance'),
    /** A saga's spend (PointService.spendOnce): needs `point:manage`; once per key, its refusal final for the key. */
    spend: call<PointSpendAsked, { transactionId: string }>('point.spend'),
  },
} as const satisfies DomainContract;

/** A spend asked by another domain's saga: the movement as `spendPoints` takes it, and the key it is made once under. */
export interface PointSpendAsked {
  movement: { memberId: string; amount: number; sourceBy?: 'Manual' | 'Reward' | 'Campaign' | 'Purchase'; note?: string };
  idempotencyKey: string;
}

/**
 * `points.earned`, `points.redeemed`, `points.expired`: one ledger entry (aggregate: the member).
 * Amounts are decimal strings with 2 decimals.
 */
export interface PointLedgerEntry {
  transactionId: string;
  memberId: string;
  actionType: 'EARN' | 'SPEND' | 'EXPIRE';
  amount: string;
  purchaseAmount: string;
  shopId: string | null;
  categoryId: string | null;
  sourceBy: string | null;
  balanceAfter: string;
  createdAt: string;
  /** The entry's note (an award's `reason`); absent from events written before it was added. */
  note?: string | null;
  /** An award's own transaction id, given by its caller (v1 `transaction_id`). */
  referenceId?: string | null;
  /** What the caller of an award kept with it (v1 `metadata`). */
  metadata?: Record<string, unknown> | null;
}

/**
 * `points.activated`: held (pending) points became spendable, by the job when due or early by an admin
 * (aggregate: the member); their EARN entry (`transactionId`) is announced by its own `points.earned`.
 */
export interface PointsActivated {
  pendingId: string;
  memberId: string;
  amount: string;
  transactionId: string;
  /** What held them: `purchase`, `custom_event`, ... and its id. */
  sourceType: string;
  sourceId: string;
  referenceId: string | null;
  early: boolean;
  activatedAt: string;
}

/**
 * `referral.created`: a new member signed up with a member's referral code and it was accepted;
 * `referral.completed`: the new member's qualifying purchase (`purchaseId`) completed it, and both sides
 * earn by the `referral.completed` rules (aggregate: the new member). Refusals are recorded, not announced.
 */
export interface ReferralChanged {
  referralId: string;
  referrerId: string;
  referredId: string;
  code: string;
  purchaseId: string | null;
  createdAt: string;
  completedAt: string | null;
}

/**
 * `points.expiring`: some of a member's points expire within the notice horizon (POINT_EXPIRY_NOTICE_DAYS);
 * announced once per lot by the daily job, one event per member and run (aggregate: the member).
 * `points` is a decimal string with 2 decimals: what remains of the lots announced; `expiresAt` the
 * earliest of their expiry times.
 */
export interface PointsExpiring {
  memberId: string;
  points: string;
  expiresAt: string;
  lotCount: number;
  noticedAt: string;
}

/**
 * `receipt.submitted` (opened PENDING) and `receipt.rejected`: a member's receipt verification
 * (aggregate: the member). An approval is announced by its `points.earned` entry.
 */
export interface ReceiptVerificationChanged {
  verificationId: string;
  memberId: string;
  status: 'PENDING' | 'REJECTED';
  receiptImageUrl: string;
  receiptId: string | null;
  reviewReason: string | null;
  changedAt: string;
}

/**
 * `transaction.completed`: a purchase recorded (aggregate: the member); its points move in the same
 * transaction and are announced by their own `points.earned`. Money and points are decimal strings
 * with 2 decimals; the v1 webhook data is this object in snake_case with numbers.
 */
export interface TransactionCompleted {
  transactionId: string;
  customerId: string;
  amount: string;
  storeId: string | null;
  category: string | null;
  externalId: string | null;
  status: 'completed';
  pointsEarned: string;
  occurredAt: string;
  createdAt: string;
}

/**
 * `transaction.refunded`: one refund of a purchase (aggregate: the member). `amount` is this refund,
 * `refundedAmount` all refunds so far; `pointsReversed` the points this refund took back (announced by
 * their own `points.redeemed`), `pointsUnrecovered` those the balance no longer held.
 */
export interface TransactionRefunded {
  transactionId: string;
  refundId: string;
  customerId: string;
  amount: string;
  refundedAmount: string;
  status: 'partially_refunded' | 'refunded';
  pointsReversed: string;
  pointsUnrecovered: string;
  refundedAt: string;
}
