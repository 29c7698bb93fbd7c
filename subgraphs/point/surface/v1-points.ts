import { isISO8601 } from 'class-validator';
import { FieldError, validationError } from '../../../core/errors';
import { customerIdOf } from '../../../core/rest/path-ids';

/** The v1 transaction types (Part 3, points transaction) → the point ledger's action types. */
const ACTION_TYPES: Record<string, string> = { earned: 'EARN', redeemed: 'SPEND', expired: 'EXPIRE' };
const TYPES_BY_ACTION: Record<string, string> = Object.fromEntries(Object.entries(ACTION_TYPES).map(([type, action]) => [action, type]));

/** A ledger entry as the point subgraph answers it. */
export interface LedgerEntry {
  id: string;
  memberId: string;
  actionType: string;
  amount: number;
  note: string | null;
  balanceAfter: number;
  createdAt: string;
}

interface PointSum {
  pointAmount: number;
}

/** What the balance operation answers: the member's balance, its lifetime sums and its next expiry. */
export interface BalanceRecord {
  member: { id: string; pointBalance?: number | null };
  current: { pendingAmount: number } | null;
  earned: PointSum | null;
  redeemed: PointSum | null;
  expiration: { points: number; expiresAt: string } | null;
}

/** v1 points are whole: rounded toward zero, so a sign never changes what is rounded away. */
const whole = (points: number | string | null | undefined): number => Math.trunc(Number(points ?? 0)) || 0;

/** `{customer_id, balance, pending, lifetime_earned, lifetime_redeemed, pending_expiration}` (camelCase here). */
export function pointBalanceOf({ member, current, earned, redeemed, expiration }: BalanceRecord): Record<string, unknown> {
  return {
    customerId: member.id,
    balance: whole(member.pointBalance),
    pending: whole(current?.pendingAmount),
    lifetimeEarned: whole(earned?.pointAmount),
    lifetimeRedeemed: whole(redeemed?.pointAmount),
    pendingExpiration: expiration ? { points: whole(expiration.points), expiresAt: expiration.expiresAt } : null,
  };
}

/** Held points as the point subgraph answers them. */
export interface HeldRecord {
  memberId: string;
  amount: number;
  originalAmount: number;
  [field: string]: unknown;
}

/** Held points as v1 answers them: whole points, the customer. */
export const pendingPointsOf = ({ memberId, amount, originalAmount, ...held }: HeldRecord): Record<string, unknown> => ({
  ...held,
  customerId: memberId,
  points: whole(amount),
  originalPoints: whole(originalAmount),
});

/** A ledger entry as a v1 points transaction: `points` negative for redemptions and expiries. */
export function pointsTransactionOf(entry: LedgerEntry): Record<string, unknown> {
  const points = whole(entry.amount);
  return {
    id: entry.id,
    customerId: entry.memberId,
    points: entry.actionType === 'EARN' ? points : -points || 0,
    type: TYPES_BY_ACTION[entry.actionType],
    reason: entry.note,
    balanceAfter: whole(entry.balanceAfter),
    createdAt: entry.createdAt,
  };
}

/**
 * The history operation's variables from a v1 request (query keys already camelCase): `type`
 * (`earned`, `redeemed`, `expired`), `date_from`, `date_to` (a bare `date_to` covers its whole day),
 * `page`, `limit`. Every bad parameter is reported at once (400).
 */
export function pointHistoryVariables(params: Record<string, string>, query: Record<string, unknown>): Record<string, unknown> {
  const id = customerIdOf(params);
  const errors: FieldError[] = [];
  const variables: Record<string, unknown> = { id, page: query.page, limit: query.limit, startDate: query.dateFrom, endDate: query.dateTo };
  if (query.type !== undefined) {
    if (typeof query.type === 'string' && ACTION_TYPES[query.type]) variables.actionType = ACTION_TYPES[query.type];
    else errors.push({ field: 'type', message: `type is one of ${Object.keys(ACTION_TYPES).join(', ')}` });
  }
  for (const [field, value] of [['date_from', query.dateFrom], ['date_to', query.dateTo]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !isISO8601(value, { strict: true }))) errors.push({ field, message: `${field} is an ISO 8601 date or timestamp` });
  }
  if (errors.length > 0) throw validationError(errors);
  return variables;
}
