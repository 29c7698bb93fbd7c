import express, { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { AccessTokens } from '../../core/auth/jwt';
import { errorBody, successBody } from '../../rest-adapter/envelope';
import { POINT, PointLedgerEntry } from '../../subgraphs/point/contract';
import { REWARD, RewardClaimed } from '../../subgraphs/reward/contract';
import { hundredths, quotaPeriod, redeemRefusals } from '../../subgraphs/reward/services/redeem-rules';
import { codeExpiry, randomCode } from '../../subgraphs/reward/services/reward-code-issuer';
import { RedeemReason, RedeemRefusal } from '../../subgraphs/reward/types/redemption.types';
import { Answer, answer, inTransaction } from './transaction';

/**
 * What POST /reward/api/reward-catalogs/:id/redeem does, written by hand on express + jose + pg: the
 * same checks (token; the member exists in auth's table; the catalog's rules on the member's tier and
 * locked balance, its stock, limits and quota) and the same writes in ONE transaction: the point
 * spend (lots, balance, ledger entry, `points.redeemed`), the redemption (COMPLETED, its
 * Idempotency-Key), the code and `reward.claimed`, and last the unit of stock taken with the reward's
 * and the catalog's counts (the rows every redeemer waits on, held only until the commit). The balance
 * row, locked first, is the member's mutex, as in the ledger. Answers
 * as the platform: 201 with the code, 400 with the reasons, a repeat of the key with the same outcome.
 */
export function redeemBaseline(pool: Pool, tokens: AccessTokens): Router {
  return Router().post('/baseline/reward-catalogs/:id/redeem', express.json(), (req, res) =>
    answer(res, async () => {
      const principal = await tokens.fromHeader(req.headers.authorization);
      if (!principal) throw new Answer(401, errorBody(401, 'Unauthorized'));
      if (principal.kind !== 'member' && !principal.can(REWARD.permissions.manage)) throw new Answer(403, errorBody(403, 'Forbidden'));
      const memberId = String(principal.kind === 'member' ? principal.id : (req.body?.memberId ?? '')).toLowerCase();
      const key = req.headers['idempotency-key'];
      if (!memberId || typeof key !== 'string' || !key) throw new Answer(400, errorBody(400, 'memberId and Idempotency-Key are required'));
      if (!UUID.test(req.params.id)) throw notFound('Reward catalog', req.params.id);
      const code = await inTransaction(pool, (client) => redeem(client, req.params.id, memberId, key));
      return new Answer(201, successBody('dataWithMessage', 201, code, 'Reward redeemed'));
    }),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const refused = (reasons: RedeemReason[]) => new Answer(400, errorBody(400, reasons[0].message, [], { reasons }));
const notFound = (entity: string, id: string) => new Answer(404, errorBody(404, `${entity} not found`, [], { id }));

async function redeem(client: PoolClient, catalogId: string, memberId: string, key: string) {
  await client.query(`insert into point.point_balance (member_id) select id from auth.member where id = $1 and deleted_at is null on conflict do nothing`, [memberId]);
  const { rows: members } = await client.query(
    `select b.point_amount::text as balance, p.tier_id from auth.member m join point.point_balance b on b.member_id = m.id
       left join cluster.tier_projection p on p.member_id = m.id
      where m.id = $1 and m.deleted_at is null for update of b`,
    [memberId],
  );
  if (members.length === 0) throw notFound('Member', memberId);
  const earlier = await client.query(`select id, reward_catalog_id, state, failure_code, failure_message from reward.redemption where member_id = $1 and idempotency_key = $2`, [memberId, key]);
  if (earlier.rows.length > 0) return repeated(client, earlier.rows[0], catalogId);

  const { rows: catalogs } = await client.query(
    `select c.id, c.reward_id, c.point_usage::text, c.limit_per_user, c.quota_type, c.quota_number_in_period, c.quota_limit_per_period, c.window_start, c.window_end,
            c.tier_condition, c.tier_requirement, c.is_active, r.is_active as reward_active, r.deleted_at, r.stock_type, r.stock, r.window_end as reward_window_end,
            r.time_use_with_in, r.name_en, r.name_th, r.name_cn, r.type, r.discount_type, r.benefit_value::float8, r.image_url,
            (select coalesce(sum(quantity), 0)::int from reward.redemption where member_id = $2 and reward_catalog_id = c.id and state <> 'FAILED') as by_member
       from reward.reward_catalog c join reward.reward r on r.id = c.reward_id
      where c.id = $1 and c.deleted_at is null`,
    [catalogId, memberId],
  );
  if (catalogs.length === 0) throw notFound('Reward catalog', catalogId);
  const [c] = catalogs;
  const quota = c.quota_type && c.quota_number_in_period !== null && c.quota_limit_per_period !== null ? { type: c.quota_type, numberInPeriod: c.quota_number_in_period, limitPerPeriod: c.quota_limit_per_period } : null;
  let inPeriod = 0;
  if (quota) inPeriod = await redeemedInPeriod(client, catalogId, quota.type, quota.numberInPeriod);
  const reasons = redeemRefusals(
    {
      catalog: { isActive: c.is_active, windowStart: c.window_start, windowEnd: c.window_end, pointUsage: c.point_usage, limitPerUser: c.limit_per_user, quota, tierCondition: c.tier_condition, tierRequirement: c.tier_requirement },
      reward: { isActive: c.reward_active, deletedAt: c.deleted_at, stockType: c.stock_type, stock: c.stock, windowEnd: c.reward_window_end },
      member: { tierId: members[0].tier_id, pointBalance: members[0].balance },
      redeemedByMember: c.by_member,
      redeemedInPeriod: inPeriod,
    },
    new Date(),
  );
  if (reasons.length > 0) throw refused(reasons);

  const limited = c.stock_type === 'LIMITED';
  const redemptionId = randomUUID();
  const claimedAt = new Date();
  const spendId = hundredths(c.point_usage) > 0 ? await spend(client, memberId, c.point_usage, `Redemption ${redemptionId} of reward catalog ${catalogId}`) : null;
  await client.query(
    `insert into reward.redemption (id, member_id, reward_catalog_id, reward_id, point_usage, idempotency_key, quantity, state, stock_taken, point_transaction_id, completed_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, 1, 'COMPLETED', $7, $8, $9, $9, $9)`,
    [redemptionId, memberId, catalogId, c.reward_id, c.point_usage, key, limited, spendId, claimedAt],
  );
  const expiredAt = codeExpiry({ timeUseWithIn: c.time_use_with_in, windowEnd: c.reward_window_end }, claimedAt);
  let issued;
  do {
    issued = await client.query(
      `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, redemption_id, expired_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $8) on conflict (code) where used_at is null do nothing returning ${CODE_COLUMNS}`,
      [randomUUID(), randomCode(), c.reward_id, catalogId, memberId, redemptionId, expiredAt, claimedAt],
    );
  } while (issued.rows.length === 0);
  const code = issued.rows[0];
  const claimed: RewardClaimed = {
    memberId,
    rewardId: c.reward_id,
    rewardCatalogId: catalogId,
    rewardCodeId: code.id,
    pointUsage: c.point_usage,
    expiredAt: expiredAt.toISOString(),
    claimedAt: claimedAt.toISOString(),
  };
  await client.query(`insert into reward.outbox_event (id, type, payload, aggregate_id, occurred_at) values ($1, $2, $3, $4, now())`, [randomUUID(), REWARD.events.claimed, claimed, memberId]);
  // Last, so that the rows every redeemer waits on are held only until the commit: the unit of a
  // LIMITED stock by the conditional UPDATE with the reward's count, and the catalog's count.
  const taken = await client.query(
    `with taken as (
       update reward.reward set stock = stock - $3::int, redeemed_count = redeemed_count + 1, updated_at = now()
        where id = $1 and deleted_at is null and (stock_type = 'INFINITE' or stock >= $3::int) returning id)
     update reward.reward_catalog set redeemed_count = redeemed_count + 1 where id = $2 and exists (select from taken) returning id`,
    [c.reward_id, catalogId, limited ? 1 : 0],
  );
  if (taken.rows.length === 0) throw refused([{ code: RedeemRefusal.OUT_OF_STOCK, message: 'The reward is out of stock' }]);
  return codeOf(code, c);
}

/** The answer to a repeat of the member's key: the same code, or the same refusal; another catalog is 409. */
async function repeated(client: PoolClient, earlier: Record<string, any>, catalogId: string) {
  if (earlier.reward_catalog_id !== catalogId.toLowerCase()) throw new Answer(409, errorBody(409, 'This Idempotency-Key was used to redeem another reward catalog'));
  if (earlier.state === 'FAILED') throw refused([{ code: earlier.failure_code, message: earlier.failure_message ?? '' }]);
  const { rows } = await client.query(
    `select ${CODE_COLUMNS.split(', ').map((column) => `k.${column}`).join(', ')}, r.name_en, r.name_th, r.name_cn, r.type, r.discount_type, r.benefit_value::float8, r.image_url
       from reward.reward_code k join reward.reward r on r.id = k.reward_id where k.redemption_id = $1`,
    [earlier.id],
  );
  return codeOf(rows[0], rows[0]);
}

/** Redemptions of the catalog by any member in the quota's period now, under the catalog's lock (the quota counts everyone). */
async function redeemedInPeriod(client: PoolClient, catalogId: string, type: string, numberInPeriod: number): Promise<number> {
  const period = quotaPeriod(type, numberInPeriod, new Date());
  await client.query(`select pg_advisory_xact_lock(hashtext($1))`, [`reward.redemption:catalog:${catalogId}`]);
  const { rows } = await client.query(
    `select coalesce(sum(quantity), 0)::int as n from reward.redemption where reward_catalog_id = $1 and state <> 'FAILED' and created_at >= $2 and created_at < $3`,
    [catalogId, period.start, period.end],
  );
  return rows[0].n;
}

/**
 * The point ledger's spend on the locked balance: lots due expire first (an EXPIRE entry each), the
 * oldest lots give the points, the balance moves and the SPEND entry is written with `points.redeemed`.
 */
async function spend(client: PoolClient, memberId: string, amount: string, note: string): Promise<string> {
  const { rows: expired } = await client.query(
    `with due as (select id, remaining from point.point_lot where member_id = $1 and remaining > 0 and expires_at <= now())
     update point.point_lot lot set remaining = 0 from due where lot.id = due.id returning due.remaining::text as remaining`,
    [memberId],
  );
  for (const lot of expired) await ledgerEntry(client, memberId, 'EXPIRE', lot.remaining, 'Points expired', null);
  await client.query(
    `with ordered as (
       select id, remaining, coalesce(sum(remaining) over (order by earned_at, id rows between unbounded preceding and 1 preceding), 0) as before
         from point.point_lot where member_id = $1 and remaining > 0)
     update point.point_lot lot set remaining = lot.remaining - least(ordered.remaining, $2::numeric - ordered.before)
       from ordered where lot.id = ordered.id and ordered.before < $2::numeric`,
    [memberId, amount],
  );
  return ledgerEntry(client, memberId, 'SPEND', amount, note, 'Reward');
}

/** One ledger entry on the locked balance: the balance moves, the entry and its event (`points.redeemed` or `points.expired`) are written; its id. */
async function ledgerEntry(client: PoolClient, memberId: string, actionType: 'SPEND' | 'EXPIRE', amount: string, note: string, sourceBy: string | null): Promise<string> {
  const id = randomUUID();
  const { rows } = await client.query(
    `with moved as (
       update point.point_balance set point_amount = point_amount - $3::numeric, entry_count = entry_count + 1, updated_at = now()
        where member_id = $2 returning point_amount)
     insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, note, source_by, balance_after, created_at, updated_at)
     select $1, $2, $4, $3::numeric, 0, $5, $6, point_amount, now(), now() from moved
     returning amount::text, purchase_amount::text, balance_after::text, created_at`,
    [id, memberId, amount, actionType, note, sourceBy],
  );
  const entry: PointLedgerEntry = {
    transactionId: id,
    memberId,
    actionType,
    amount: rows[0].amount,
    purchaseAmount: rows[0].purchase_amount,
    shopId: null,
    categoryId: null,
    sourceBy,
    balanceAfter: rows[0].balance_after,
    createdAt: rows[0].created_at.toISOString(),
    note,
    referenceId: null,
    metadata: null,
  };
  const type = actionType === 'SPEND' ? POINT.events.redeemed : POINT.events.expired;
  await client.query(`insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at) values ($1, $2, $3, $4, now())`, [randomUUID(), type, entry, memberId]);
  return id;
}

const CODE_COLUMNS = 'id, code, reward_id, reward_catalog_id, member_id, staff_id, used_at, expired_at, expiration_notified_at, created_at, updated_at';

/** A code row and its reward's row as the platform answers the code (CODE_FIELDS of subgraphs/reward/surface/code-routes.ts). */
const codeOf = (code: Record<string, any>, reward: Record<string, any>) => ({
  id: code.id,
  code: code.code,
  rewardId: code.reward_id,
  rewardCatalogId: code.reward_catalog_id,
  memberId: code.member_id,
  staffId: code.staff_id,
  usedAt: code.used_at,
  expiredAt: code.expired_at,
  expirationNotifiedAt: code.expiration_notified_at,
  createdAt: code.created_at,
  updatedAt: code.updated_at,
  status: code.used_at ? 'USED' : code.expired_at.getTime() <= Date.now() ? 'EXPIRED' : 'AVAILABLE',
  reward: { id: code.reward_id, name_en: reward.name_en, name_th: reward.name_th, name_cn: reward.name_cn, type: reward.type, discountType: reward.discount_type, benefitValue: reward.benefit_value, imageUrl: reward.image_url },
});
