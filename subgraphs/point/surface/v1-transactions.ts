import { isISO8601, isUUID } from 'class-validator';
import { FieldError, validationError } from '../../../core/errors';
import { customerIdOf, pathIdOf } from '../../../core/rest/path-ids';

/** A purchase as the point subgraph answers it. */
export interface PurchaseRecord {
  id: string;
  memberId: string;
  amount: number;
  storeId: string | null;
  category: string | null;
  externalId: string | null;
  occurredAt: string;
  status: string;
  pointsEarned: number;
  refundedAmount: number;
  pointsReversed: number;
  pointsUnrecovered: number;
  createdAt: string;
}

/** An interaction as the point subgraph answers it (already the v1 shape, camelCase). */
export interface InteractionRecord {
  id: string;
  type: string;
  channel: string;
  description: string;
  amount: number | null;
  pointsEarned: number;
  createdAt: string;
}

/** v1 transaction statuses → the point domain's purchase statuses. */
const STATUSES: Record<string, string> = { completed: 'COMPLETED', partially_refunded: 'PARTIALLY_REFUNDED', refunded: 'REFUNDED' };

/** v1 points are whole: rounded toward zero. */
const whole = (points: number | null | undefined): number => Math.trunc(Number(points ?? 0)) || 0;

/** The path's transaction id; one that is no id at all is the route's 404 (a 400 only on `id`). */
export const transactionIdOf = (params: Record<string, string>): string => pathIdOf(params, 'transaction');

/**
 * A purchase as a v1 transaction (camelCase here): the contract's `{id, customer_id, amount, store_id,
 * category, status, points_earned, created_at}`, and what a refund or an import needs to see.
 */
export function transactionOf(purchase: PurchaseRecord): Record<string, unknown> {
  return {
    id: purchase.id,
    customerId: purchase.memberId,
    amount: purchase.amount,
    storeId: purchase.storeId,
    category: purchase.category,
    externalId: purchase.externalId,
    status: purchase.status.toLowerCase(),
    pointsEarned: whole(purchase.pointsEarned),
    refundedAmount: purchase.refundedAmount,
    pointsReversed: whole(purchase.pointsReversed),
    pointsUnrecovered: whole(purchase.pointsUnrecovered),
    occurredAt: purchase.occurredAt,
    createdAt: purchase.createdAt,
  };
}

export const interactionOf = (interaction: InteractionRecord): Record<string, unknown> => ({ ...interaction, pointsEarned: whole(interaction.pointsEarned) });

/**
 * The purchases query's variables from a v1 list request (query keys already camelCase): `customer_id`,
 * `status`, `store_id`, `date_from`/`date_to` (when the purchase happened), `page`, `limit`. Every bad
 * parameter is reported at once (400).
 */
export function transactionListVariables(query: Record<string, unknown>): Record<string, unknown> {
  const errors: FieldError[] = [];
  const variables: Record<string, unknown> = { page: query.page, limit: query.limit, storeId: query.storeId, dateFrom: query.dateFrom, dateTo: query.dateTo };
  if (query.customerId !== undefined) {
    if (typeof query.customerId === 'string' && isUUID(query.customerId)) variables.customerId = query.customerId;
    else errors.push({ field: 'customer_id', message: 'customer_id is a customer id' });
  }
  if (query.status !== undefined) {
    if (typeof query.status === 'string' && STATUSES[query.status]) variables.status = STATUSES[query.status];
    else errors.push({ field: 'status', message: `status is one of ${Object.keys(STATUSES).join(', ')}` });
  }
  for (const [field, value] of [['date_from', query.dateFrom], ['date_to', query.dateTo]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !isISO8601(value, { strict: true }))) errors.push({ field, message: `${field} is an ISO 8601 date or timestamp` });
  }
  if (errors.length > 0) throw validationError(errors);
  return variables;
}

/** The interactions query's variables: the path's customer, `type`, `date_from`, `date_to`, `page`, `limit` (checked by the subgraph). */
export function interactionVariables(params: Record<string, string>, query: Record<string, unknown>): Record<string, unknown> {
  return { id: customerIdOf(params), page: query.page, limit: query.limit, type: query.type, dateFrom: query.dateFrom, dateTo: query.dateTo };
}
