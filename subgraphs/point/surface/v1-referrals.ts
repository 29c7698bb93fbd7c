import { validationError } from '../../../core/errors';
import { boolean, id, integer, nullable, number, object, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';
import { ReferralRefusal, ReferralStatus } from '../entities/referral';

/** A referral's fields as the routes ask the point subgraph for them. */
export const REFERRAL = 'id code referrerId referredId status refusal purchaseId createdAt completedAt';
export const REFERRAL_SETTINGS = 'enabled referrerLimit minPurchaseAmount completionDays updatedAt';
export const MEMBER_REFERRAL_FIELDS = `memberId code pending completed refused referredBy { ${REFERRAL} }`;

/** A referral as v1 answers it: the new member is its `customer_id`. */
export const referralOf = ({ referredId, ...referral }: { referredId: string; [field: string]: unknown }) => ({ ...referral, customerId: referredId });

/** A member's referral as the subgraph answers it. */
interface MemberReferralRecord {
  memberId: string;
  code: string;
  referredBy: { referredId: string } | null;
  pending: number;
  completed: number;
  refused: number;
}

/** A customer's referral as v1 answers it: its code, its own sign-up with a code, its referrals by status. */
export const memberReferralOf = ({ memberId, code, referredBy, pending, completed, refused }: MemberReferralRecord) => ({
  customerId: memberId,
  code,
  referredBy: referredBy && referralOf(referredBy),
  referrals: { pending, completed, refused },
});

export const REFERRAL_STATUSES = Object.values(ReferralStatus) as string[];

/** The referrals query's variables from a v1 list: `status`, `referrer_id`, `customer_id` (the referred), `page`, `limit`. */
export function referralListVariables(query: Record<string, unknown>): Record<string, unknown> {
  if (query.status !== undefined && !REFERRAL_STATUSES.includes(query.status as string)) throw validationError([{ field: 'status', message: `status is ${REFERRAL_STATUSES.join(', ')}` }]);
  return { page: query.page, limit: query.limit, status: query.status, referrerId: query.referrerId, referredId: query.customerId };
}

export const REFERRAL_RECORD = record({
  id: id(),
  code: string(),
  referrer_id: nullable(id({ description: "the code's owner; null for an unknown code" })),
  customer_id: id({ description: 'the new customer who signed up with the code' }),
  status: oneOf(...REFERRAL_STATUSES),
  refusal: nullable(oneOf(...(Object.values(ReferralRefusal) as string[]))),
  purchase_id: nullable(id({ description: 'the transaction that completed it' })),
  created_at: timestamp(),
  completed_at: nullable(timestamp()),
});

export const CUSTOMER_REFERRAL = record({
  customer_id: id(),
  code: string({ description: 'what a new customer signs up with (POST /customers referral_code) to be referred by this one' }),
  referred_by: nullable(REFERRAL_RECORD),
  referrals: record({ pending: integer(), completed: integer(), refused: integer() }),
});

export const REFERRAL_SETTINGS_RECORD = record({
  enabled: boolean(),
  referrer_limit: nullable(integer({ description: 'accepted referrals one customer may have in all; null: no limit' })),
  min_purchase_amount: number({ description: 'the least transaction amount that completes a referral' }),
  completion_days: nullable(integer({ description: 'days after the sign-up within which the transaction must come; null: no limit' })),
  updated_at: timestamp(),
});

export const REFERRAL_SETTINGS_BODY = object({
  enabled: boolean(),
  referrer_limit: nullable(integer({ minimum: 0, maximum: 1_000_000 })),
  min_purchase_amount: number({ minimum: 0, description: 'at most 2 decimals' }),
  completion_days: nullable(integer({ minimum: 1, maximum: 3650 })),
});
