import express, { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { PoolClient, Pool } from 'pg';
import { AccessTokens } from '../../core/auth/jwt';
import { FieldError } from '../../core/errors';
import { IDEMPOTENCY_KEY_HEADER } from '../../core/rest/failures';
import { v1Body } from '../../rest-adapter/v1/envelope';
import { v1ErrorOf } from '../../rest-adapter/v1/errors';
import { POINT, TransactionCompleted } from '../../subgraphs/point/contract';
import { PointSource } from '../../subgraphs/point/entities/point-transaction';
import { PointExpiryPolicy } from '../../subgraphs/point/settings';
import { transactionOf } from '../../subgraphs/point/surface/v1-transactions';
import { MAX_POINTS } from '../../subgraphs/point/types/point.types';
import { MAX_PURCHASE_AMOUNT } from '../../subgraphs/point/types/purchase.types';
import { BaselineLedger, canWritePoints, isText, isTwoDecimals, onceForKey, UUID } from './points';
import { Answer, answer, inTransaction } from './transaction';

/** A purchase may say it happened a little ahead of our clock (the till's), not more: as PurchaseService. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const PURCHASE_COLUMNS = `id, member_id, amount::text, store_id, category, external_id, occurred_at, status, points_earned::text, refunded_amount::text,
  points_reversed::text, points_unrecovered::text, created_at`;

/** What POST /api/v1/transactions asks, as the platform's RecordPurchaseInput (its Idempotency-Key hashes this). */
interface PurchaseAsked {
  customerId: string;
  amount: number;
  storeId?: string;
  category?: string;
  externalId?: string;
  occurredAt?: string;
}

const refusal = (status: number, message: string, fieldErrors?: FieldError[]) => new Answer(status, v1ErrorOf(status, message, fieldErrors, 'CUSTOMER_NOT_FOUND'));

/** The body's fields, checked as RecordPurchaseInput and PurchaseService check them (400 VALIDATION_ERROR naming each). */
function askedOf(body: Record<string, any>): PurchaseAsked {
  const asked: PurchaseAsked = { customerId: body.customer_id, amount: body.amount };
  const errors: FieldError[] = [];
  const check = (ok: boolean, field: string, message: string) => ok || errors.push({ field, message });
  check(typeof asked.customerId === 'string' && UUID.test(asked.customerId), 'customerId', 'customerId must be a customer id');
  check(isTwoDecimals(asked.amount) && asked.amount >= 0.01 && asked.amount <= MAX_PURCHASE_AMOUNT, 'amount', `amount must be 0.01 to ${MAX_PURCHASE_AMOUNT} with at most 2 decimals`);
  for (const [field, key] of [['storeId', 'store_id'], ['category', 'category'], ['externalId', 'external_id']] as const) {
    if (body[key] == null) continue;
    asked[field] = body[key];
    check(isText(body[key], 256, 1), field, `${field} must be a string of 1 to 256 characters`);
  }
  if (body.occurred_at != null) {
    asked.occurredAt = body.occurred_at;
    check(typeof body.occurred_at === 'string' && ISO_8601.test(body.occurred_at) && !Number.isNaN(Date.parse(body.occurred_at)), 'occurredAt', 'occurredAt must be an ISO 8601 timestamp');
  }
  if (errors.length > 0) throw refusal(400, 'Validation failed', errors);
  if (asked.occurredAt && Date.parse(asked.occurredAt) > Date.now() + CLOCK_SKEW_MS) throw refusal(400, 'occurredAt must not be in the future', [{ field: 'occurredAt', message: 'occurredAt must not be in the future' }]);
  return asked;
}

/**
 * What POST /api/v1/transactions does (subgraphs/point/services/purchase.service.ts), written by hand
 * on express + jose + pg: the same checks (token, the `write` scope and point:manage; the body; the
 * customer in auth's member table) and the same statements in ONE transaction: the Idempotency-Key's
 * record, the purchase (a known `external_id` of the store answers the first purchase, 409 when it
 * names another), its points by the store's live rule or the default rule, the ledger's earn (balance
 * row locked, due lots expired, balance, entry, lot, `points.earned`), the purchase's points and
 * `transaction.completed`. Answers as the platform: 201 with the transaction.
 */
export function transactionsBaseline(pool: Pool, tokens: AccessTokens, expiry: PointExpiryPolicy): Router {
  const ledger = new BaselineLedger(expiry);
  return Router().post('/baseline/v1/transactions', express.json(), (req, res) =>
    answer(res, async () => {
      const principal = await tokens.fromHeader(req.headers.authorization);
      if (!principal) throw new Answer(401, { error: 'invalid_token' });
      if (!canWritePoints(principal)) throw new Answer(403, { error: 'insufficient_scope' });
      const asked = askedOf(req.body ?? {});
      const key = req.headers['idempotency-key'] as string | undefined;
      const purchase = await inTransaction(pool, async (client) => {
        const customer = await client.query(`select 1 from auth.member where id = $1 and deleted_at is null`, [asked.customerId]);
        if (customer.rows.length === 0) throw refusal(404, 'Member not found');
        const conflictBody = v1ErrorOf(409, 'This Idempotency-Key was used with a different request', [{ field: IDEMPOTENCY_KEY_HEADER, message: 'This Idempotency-Key was used with a different request' }]);
        const id = await onceForKey(client, `purchase:${principal.kind}:${principal.id}`, key, asked, conflictBody, () => record(client, ledger, asked));
        return (await client.query(`select ${PURCHASE_COLUMNS} from point.purchase where id = $1`, [id])).rows[0];
      });
      return new Answer(201, v1Body(transactionOf(purchaseRecordOf(purchase))));
    }),
  );
}

/** The purchase and its points; the id of the purchase (an earlier one for a known external id of the store). */
async function record(client: PoolClient, ledger: BaselineLedger, asked: PurchaseAsked): Promise<string> {
  const amount = asked.amount.toFixed(2);
  const storeId = asked.storeId ?? null;
  const externalId = asked.externalId ?? null;
  const occurredAt = asked.occurredAt ? new Date(asked.occurredAt) : new Date();
  // The purchase, and its points by the store's live active rule, else the default rule (none: 0 points).
  const { rows } = await client.query(
    `with inserted as (
       insert into point.purchase (id, member_id, amount, store_id, category, external_id, occurred_at, status, created_at, updated_at)
       values ($1, $2, $3::numeric, $4, $5, $6, $7, 'COMPLETED', now(), now()) on conflict do nothing returning id),
     rule as (
       select id, conversion_rate from point.point_shop_rule where deleted_at is null and is_active and (shop_id = $4 or is_fixed) order by is_fixed limit 1)
     select i.id, r.id as rule_id, p.points::text as points, p.points <= $8::numeric as fits
       from inserted i left join rule r on true
       cross join lateral (select trunc($3::numeric * coalesce(r.conversion_rate, 0))::numeric(20, 2) as points) p`,
    [randomUUID(), asked.customerId, amount, storeId, asked.category ?? null, externalId, occurredAt, MAX_POINTS],
  );
  if (rows.length === 0) return earlier(client, storeId, externalId!, asked.customerId, amount);
  const [{ id, rule_id: ruleId, points, fits }] = rows;
  if (!fits) throw refusal(400, `The purchase would earn more than ${MAX_POINTS} points`, [{ field: 'amount', message: `The purchase would earn more than ${MAX_POINTS} points` }]);
  const entry = await ledger.earn(client, {
    memberId: asked.customerId,
    amount: points,
    purchaseAmount: amount,
    shopId: storeId,
    categoryId: asked.category ?? null,
    note: `Purchase ${id}`,
    sourceBy: PointSource.Purchase,
    referenceId: id,
    metadata: null,
  });
  const { rows: [purchase] } = await client.query(
    `update point.purchase set points_earned = $1::numeric, point_rule_id = $2, earn_entry_id = $3 where id = $4
     returning id, member_id, amount::text, store_id, category, external_id, occurred_at, points_earned::text, created_at`,
    [points, ruleId, entry.id, id],
  );
  const completed: TransactionCompleted = {
    transactionId: purchase.id,
    customerId: purchase.member_id,
    amount: purchase.amount,
    storeId: purchase.store_id,
    category: purchase.category,
    externalId: purchase.external_id,
    status: 'completed',
    pointsEarned: purchase.points_earned,
    occurredAt: purchase.occurred_at.toISOString(),
    createdAt: purchase.created_at.toISOString(),
  };
  await client.query(`insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at) values ($1, $2, $3, $4, now())`, [
    randomUUID(),
    POINT.events.transactionCompleted,
    completed,
    purchase.member_id,
  ]);
  return id;
}

/** The purchase the store's external id already names; 409 on `externalId` when the repeat is another purchase. */
async function earlier(client: PoolClient, storeId: string | null, externalId: string, memberId: string, amount: string): Promise<string> {
  const { rows } = await client.query(
    `select id, member_id = $3 and amount = $4::numeric as same from point.purchase where store_id is not distinct from $1 and external_id = $2`,
    [storeId, externalId, memberId, amount],
  );
  if (!rows[0].same) {
    const message = `externalId ${externalId} already names another purchase (${rows[0].id}) of this store`;
    throw refusal(409, message, [{ field: 'externalId', message }]);
  }
  return rows[0].id;
}

/** A purchase row as the point subgraph answers it (its numerics as GraphQL Floats). */
const purchaseRecordOf = (row: Record<string, any>) => ({
  id: row.id,
  memberId: row.member_id,
  amount: Number(row.amount),
  storeId: row.store_id,
  category: row.category,
  externalId: row.external_id,
  occurredAt: row.occurred_at.toISOString(),
  status: row.status,
  pointsEarned: Number(row.points_earned),
  refundedAmount: Number(row.refunded_amount),
  pointsReversed: Number(row.points_reversed),
  pointsUnrecovered: Number(row.points_unrecovered),
  createdAt: row.created_at.toISOString(),
});
