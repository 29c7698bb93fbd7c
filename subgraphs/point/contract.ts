import type { DomainContract } from '../../core/module';

/** The point domain's contract: the ledger, requests, shop rules and receipts. Plain data, importable by any domain. */
export const POINT = {
  name: 'point',
  permissions: {
    read: 'point:read',
    manage: 'point:manage',
    request: 'point:request',
    review: 'point:review',
  },
  grants: {
    marketing: ['point:read', 'point:manage', 'point:request', 'point:review'],
    tenant: ['point:read', 'point:request'],
  },
  events: { earned: 'points.earned', redeemed: 'points.redeemed', expired: 'points.expired' },
} as const satisfies DomainContract;

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
}
