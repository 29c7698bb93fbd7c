import express, { Request, Response, Router } from 'express';
import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { Answer, answerFailure, inTransaction } from './transaction';
import { AccessTokens } from '../../core/auth/jwt';
import { Principal } from '../../core/auth/principal';
import { requestHash } from '../../core/idempotency';
import { errorBody } from '../../rest-adapter/envelope';
import { v1Body } from '../../rest-adapter/v1/envelope';
import { v1ErrorBody } from '../../rest-adapter/v1/errors';
import { scopesOf } from '../../rest-adapter/v1/scopes';
import { POINT, PointLedgerEntry } from '../../subgraphs/point/contract';
import { PointSource } from '../../subgraphs/point/entities/point-transaction';
import { expiresAtFor } from '../../subgraphs/point/services/expiry-policy';
import { PointExpiryPolicy } from '../../subgraphs/point/settings';
import { pointsTransactionOf } from '../../subgraphs/point/surface/v1-points';
import { MAX_AWARD_POINTS } from '../../subgraphs/point/types/award.types';
import { MAX_POINTS } from '../../subgraphs/point/types/point.types';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;
const SOURCES = new Set<string>(Object.values(PointSource));

/** A ledger entry as the baseline writes it (the columns of point.point_transaction it sets). */
interface Entry {
  id: string;
  memberId: string;
  actionType: 'EARN' | 'SPEND' | 'EXPIRE';
  amount: string;
  purchaseAmount: string;
  shopId: string | null;
  categoryId: string | null;
  note: string | null;
  sourceBy: string | null;
  referenceId: string | null;
  metadata: Record<string, unknown> | null;
  balanceAfter: string;
  createdAt: Date;
}

type Movement = Omit<Entry, 'id' | 'actionType' | 'balanceAfter' | 'createdAt'>;

/**
 * The point domain's idempotency record (core/idempotency.ts) on a pg client: the first request claims
 * (scope, key) with the body's hash and records the id it produced; a repeat with the same body gets
 * that id back and writes nothing; another body is 409 (`conflictBody`).
 */
export async function onceForKey(client: PoolClient, scope: string, key: string | undefined, body: unknown, conflictBody: unknown, work: () => Promise<string>): Promise<string> {
  if (!key) return work();
  const hash = requestHash(body);
  const claimed = await client.query(`insert into point.idempotency_record (scope, key, request_hash) values ($1, $2, $3) on conflict do nothing returning key`, [scope, key, hash]);
  if (claimed.rowCount === 0) {
    const { rows } = await client.query(`select request_hash, response from point.idempotency_record where scope = $1 and key = $2`, [scope, key]);
    if (rows[0].request_hash !== hash) throw new Answer(409, conflictBody);
    return rows[0].response.id;
  }
  const id = await work();
  await client.query(`update point.idempotency_record set response = $1 where scope = $2 and key = $3`, [JSON.stringify({ id }), scope, key]);
  return id;
}

/**
 * The ledger's statements (subgraphs/point/services/ledger.service.ts) on a pg client: the member's
 * balance row locked first (created at zero), due lots expired, then the entry, its balance change,
 * its lot (earn) or the lots it consumes oldest first (spend), and its outbox event.
 */
export class BaselineLedger {
  constructor(private readonly expiry: PointExpiryPolicy) {}

  async earn(client: PoolClient, movement: Movement): Promise<Entry> {
    await this.lockAndExpire(client, movement.memberId);
    const entry = await this.record(client, 'EARN', movement, movement.amount);
    if (Number(movement.amount) > 0) {
      await client.query(
        `insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at) values ($1, $2, $3, $4, $4, $5, $6)`,
        [randomUUID(), entry.memberId, entry.id, entry.amount, entry.createdAt, expiresAtFor(this.expiry, entry.createdAt)],
      );
    }
    await this.announce(client, POINT.events.earned, entry);
    return entry;
  }

  /** Refuses (400 on `amount`, as the domain does) a spend larger than the balance. */
  async spend(client: PoolClient, movement: Movement): Promise<Entry> {
    const balance = await this.lockAndExpire(client, movement.memberId);
    // Both have at most 2 decimals, far inside a double's exact range: the comparison is exact.
    if (Number(movement.amount) > Number(balance)) {
      const message = `Insufficient points: the balance is ${balance}`;
      throw new Answer(400, errorBody(400, message, [{ field: 'amount', message }]));
    }
    await client.query(
      `with ordered as (
         select id, remaining,
                coalesce(sum(remaining) over (order by earned_at, id rows between unbounded preceding and 1 preceding), 0) as before
           from point.point_lot where member_id = $1 and remaining > 0)
       update point.point_lot lot
          set remaining = lot.remaining - least(ordered.remaining, $2::numeric - ordered.before)
         from ordered
        where lot.id = ordered.id and ordered.before < $2::numeric`,
      [movement.memberId, movement.amount],
    );
    const entry = await this.record(client, 'SPEND', movement, `-${movement.amount}`);
    await this.announce(client, POINT.events.redeemed, entry);
    return entry;
  }

  /** Locks the balance row (creating it at zero), expires what is due; returns the balance after. */
  private async lockAndExpire(client: PoolClient, memberId: string): Promise<string> {
    await client.query(`insert into point.point_balance (member_id) values ($1) on conflict do nothing`, [memberId]);
    const { rows } = await client.query(`select point_amount::text as balance from point.point_balance where member_id = $1 for update`, [memberId]);
    const { rows: due } = await client.query(
      `with due as (select id, remaining from point.point_lot where member_id = $1 and remaining > 0 and expires_at <= now())
       update point.point_lot lot set remaining = 0 from due where lot.id = due.id
       returning due.remaining::text as remaining`,
      [memberId],
    );
    let balance: string = rows[0].balance;
    for (const lot of due) {
      const entry = await this.record(client, 'EXPIRE', { ...NO_DETAILS, memberId, amount: lot.remaining, note: 'Points expired' }, `-${lot.remaining}`);
      await this.announce(client, POINT.events.expired, entry);
      balance = entry.balanceAfter;
    }
    return balance;
  }

  private async record(client: PoolClient, actionType: Entry['actionType'], movement: Movement, points: string): Promise<Entry> {
    const { rows } = await client.query(
      `update point.point_balance
          set point_amount = point_amount + $1::numeric, purchase_amount = purchase_amount + $2::numeric, entry_count = entry_count + 1, updated_at = now()
        where member_id = $3 returning point_amount::text as balance_after`,
      [points, movement.purchaseAmount, movement.memberId],
    );
    const entry: Entry = { ...movement, id: randomUUID(), actionType, balanceAfter: rows[0].balance_after, createdAt: new Date() };
    await client.query(
      `insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after, reference_id, metadata, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
      [entry.id, entry.memberId, actionType, entry.amount, entry.purchaseAmount, entry.shopId, entry.categoryId, entry.note, entry.sourceBy, entry.balanceAfter, entry.referenceId, entry.metadata, entry.createdAt],
    );
    return entry;
  }

  /** The entry's outbox event, in the shape LedgerService announces it (aggregate: the member). */
  private async announce(client: PoolClient, type: string, entry: Entry): Promise<void> {
    const payload: PointLedgerEntry = {
      transactionId: entry.id,
      memberId: entry.memberId,
      actionType: entry.actionType,
      amount: entry.amount,
      purchaseAmount: entry.purchaseAmount,
      shopId: entry.shopId,
      categoryId: entry.categoryId,
      sourceBy: entry.sourceBy as PointLedgerEntry['sourceBy'],
      balanceAfter: entry.balanceAfter,
      createdAt: entry.createdAt.toISOString(),
      note: entry.note,
      referenceId: entry.referenceId,
      metadata: entry.metadata,
    };
    await client.query(`insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at) values ($1, $2, $3, $4, now())`, [
      randomUUID(),
      type,
      payload,
      entry.memberId,
    ]);
  }
}

const NO_DETAILS = { purchaseAmount: '0', shopId: null, categoryId: null, note: null, sourceBy: null, referenceId: null, metadata: null };

export const isTwoDecimals = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= MAX_POINTS && TWO_DECIMALS.test(String(value));
export const isText = (value: unknown, max: number, min = 0): boolean => typeof value === 'string' && value.length >= min && value.length <= max;

/** The checks of PointMovementInput: the field errors, empty when the body is a movement. */
function movementErrors(body: Record<string, any>): Array<{ field: string; message: string }> {
  const errors: Array<{ field: string; message: string }> = [];
  const check = (ok: boolean, field: string, message: string) => ok || errors.push({ field, message });
  check(typeof body.memberId === 'string' && UUID.test(body.memberId), 'memberId', 'memberId must be a UUID');
  check(isTwoDecimals(body.amount), 'amount', `amount must be 0 to ${MAX_POINTS} with at most 2 decimals`);
  if (body.purchaseAmount != null) check(isTwoDecimals(body.purchaseAmount), 'purchaseAmount', `purchaseAmount must be 0 to ${MAX_POINTS} with at most 2 decimals`);
  for (const [field, max] of [['shopId', 256], ['categoryId', 256], ['note', 1000]] as const) {
    if (body[field] != null) check(isText(body[field], max), field, `${field} must be a string of at most ${max} characters`);
  }
  if (body.sourceBy != null) check(SOURCES.has(body.sourceBy), 'sourceBy', 'sourceBy must be a point source');
  return errors;
}

/** The checks of the v1 award (PointAwardInput and the adapter's): its field errors. */
function awardErrors(body: Record<string, any>): Array<{ field: string; message: string }> {
  const errors: Array<{ field: string; message: string }> = [];
  const check = (ok: boolean, field: string, message: string) => ok || errors.push({ field, message });
  check(Number.isInteger(body.points) && body.points >= 1 && body.points <= MAX_AWARD_POINTS, 'points', `points must be an integer from 1 to ${MAX_AWARD_POINTS}`);
  if (body.reason != null) check(isText(body.reason, 1000), 'reason', 'reason must be a string of at most 1000 characters');
  if (body.transaction_id != null) check(isText(body.transaction_id, 255, 1), 'transaction_id', 'transaction_id must be a string of 1 to 255 characters');
  if (body.metadata != null) check(typeof body.metadata === 'object' && !Array.isArray(body.metadata), 'metadata', 'metadata is a JSON object');
  return errors;
}

/**
 * Hand-written express + jose + pg handlers doing what the platform's write paths do, in the bench
 * target's process on the platform's tables: POST /baseline/points/earn and /baseline/points/spend (as
 * POST /point/api/earn and /spend) and POST /baseline/v1/customers/:id/points/award (as the v1 single
 * award). Each verifies the Bearer token and its permission, checks the body as the domain does, runs
 * the domain's statements in one transaction (the idempotency record when an Idempotency-Key is given)
 * and answers the platform's body.
 */
export function pointsBaseline(pool: Pool, tokens: AccessTokens, expiry: PointExpiryPolicy): Router {
  const ledger = new BaselineLedger(expiry);
  const router = express.Router();
  router.use(express.json());

  const movementRoute = (kind: 'earn' | 'spend', message: string) => async (req: Request, res: Response) => {
    const principal = await tokens.fromHeader(req.headers.authorization);
    if (!principal) return void res.status(401).json(errorBody(401, 'Unauthorized'));
    if (!principal.can(POINT.permissions.manage)) return void res.status(403).json(errorBody(403, 'Forbidden: insufficient permissions'));
    const body = req.body ?? {};
    const errors = movementErrors(body);
    if (errors.length > 0) return void res.status(400).json(errorBody(400, 'Validation failed', errors));
    const movement: Movement = {
      memberId: body.memberId,
      amount: body.amount.toFixed(2),
      purchaseAmount: (body.purchaseAmount ?? 0).toFixed(2),
      shopId: body.shopId ?? null,
      categoryId: body.categoryId ?? null,
      note: body.note ?? null,
      sourceBy: body.sourceBy ?? null,
      referenceId: null,
      metadata: null,
    };
    const key = req.headers['idempotency-key'] as string | undefined;
    const conflictBody = errorBody(409, 'This Idempotency-Key was used with a different request', [{ field: 'Idempotency-Key', message: 'This Idempotency-Key was used with a different request' }]);
    try {
      await inTransaction(pool, (client) =>
        onceForKey(client, `${kind}:${principal.kind}:${principal.id}`, key, body, conflictBody, async () => (await ledger[kind](client, movement)).id),
      );
      res.json({ statusCode: 200, data: { message } });
    } catch (error) {
      answerFailure(res, error);
    }
  };
  router.post('/baseline/points/earn', movementRoute('earn', 'Points earned'));
  router.post('/baseline/points/spend', movementRoute('spend', 'Points spent'));

  router.post('/baseline/v1/customers/:id/points/award', async (req, res) => {
    const principal = await tokens.fromHeader(req.headers.authorization);
    if (!principal) return void res.status(401).json({ error: 'invalid_token' });
    if (!canWritePoints(principal)) return void res.status(403).json({ error: 'insufficient_scope' });
    const notFound = v1ErrorBody('CUSTOMER_NOT_FOUND', 'Member not found');
    if (!UUID.test(req.params.id)) return void res.status(404).json(notFound);
    const body = req.body ?? {};
    const errors = awardErrors(body);
    if (errors.length > 0) return void res.status(400).json(v1ErrorBody('VALIDATION_ERROR', 'Validation failed', errors));
    const memberId = req.params.id.toLowerCase();
    const transactionId: string | undefined = body.transaction_id ?? undefined;
    const input = { memberId, points: body.points, reason: body.reason, transactionId, metadata: body.metadata };
    const caller = `${principal.kind}:${principal.id}`;
    const conflictBody = v1ErrorBody('CONFLICT', 'This Idempotency-Key was used with a different request');
    try {
      const entry = await inTransaction(pool, async (client): Promise<Pick<Entry, 'id' | 'memberId' | 'actionType' | 'amount' | 'note' | 'balanceAfter' | 'createdAt'>> => {
        const { rowCount } = await client.query(`select 1 from auth.member where id = $1 and deleted_at is null`, [memberId]);
        if (rowCount === 0) throw new Answer(404, notFound);
        let written: Entry | undefined;
        const earn = async () => {
          written = await ledger.earn(client, { ...NO_DETAILS, memberId, amount: body.points.toFixed(2), note: body.reason ?? null, sourceBy: 'Manual', referenceId: transactionId ?? null, metadata: body.metadata ?? null });
          return written.id;
        };
        const id = await onceForKey(client, `award:${caller}`, req.headers['idempotency-key'] as string | undefined, input, conflictBody, () =>
          transactionId ? onceForKey(client, `award-reference:${caller}:${memberId}`, transactionId, { memberId, transactionId }, conflictBody, earn) : earn(),
        );
        if (written?.id === id) return written;
        // A repeat: the first award's entry.
        const { rows } = await client.query(
          `select id, member_id as "memberId", action_type as "actionType", amount::text, note, balance_after::text as "balanceAfter", created_at as "createdAt"
             from point.point_transaction where id = $1`,
          [id],
        );
        return rows[0];
      });
      res.json(v1Body(pointsTransactionOf({ ...entry, amount: Number(entry.amount), balanceAfter: Number(entry.balanceAfter), createdAt: entry.createdAt.toISOString() })));
    } catch (error) {
      answerFailure(res, error);
    }
  });
  return router;
}

/** The v1 award and transaction need the `write` scope and the point domain's manage permission (customers never). */
export const canWritePoints = (principal: Principal): boolean => principal.kind !== 'member' && scopesOf(principal).includes('write') && principal.can(POINT.permissions.manage);
