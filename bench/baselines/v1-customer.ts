import { Router } from 'express';
import { Pool } from 'pg';
import { AccessTokens } from '../../core/auth/jwt';
import { Principal } from '../../core/auth/principal';
import { answerInsufficientScope, answerInvalidToken, v1ErrorBody } from '../../rest-adapter/v1/errors';
import { scopesOf } from '../../rest-adapter/v1/scopes';
import { AUTH } from '../../subgraphs/auth/contract';
import { ENTRY_TIER_PROMISE } from '../../subgraphs/cluster/contract';
import { POINT } from '../../subgraphs/point/contract';

/**
 * What GET /api/v1/customers/{id}?include=points,tier reads, in one statement, as the domains define it:
 * the live member (auth); its balance without the points of lots already due (point's `balances`) and
 * its lifetime earned and spent sums (point's `balanceInWindow`); its tier (cluster's `tiersOfMembers`):
 * the cluster's projection, or, for a member the cluster has never placed, the tier auth's projection
 * names (the entry tier for a creation's promise), a soft-deleted tier counting as none.
 */
export const V1_CUSTOMER_SELECT = `select m.id, m.name, m.nick_name, m.email, m.phone_number, m.birth_day::text as birth_day, m.gender, m.address, m.language,
        m.status, m.open_id, m.union_id, m.avatar_url, m.created_at, m.updated_at,
        (b.point_amount - coalesce((select sum(l.remaining) from point.point_lot l
                                     where l.member_id = m.id and l.remaining > 0 and l.expires_at <= now()), 0))::text as balance,
        (select coalesce(sum(amount), 0) from point.point_transaction where member_id = m.id and action_type = 'EARN')::text as earned,
        (select coalesce(sum(amount), 0) from point.point_transaction where member_id = m.id and action_type = 'SPEND')::text as redeemed,
        t.id as tier_id, t.name_en as tier_name_en, t.name_th as tier_name_th, t.name_cn as tier_name_cn, t.level as tier_level
   from auth.member m
   left join point.point_balance b on b.member_id = m.id
   left join cluster.tier_projection p on p.member_id = m.id
   left join auth.member_tier mt on mt.member_id = m.id
   left join cluster.tier t on t.deleted_at is null and t.id::text = case
          when p.tier_id is not null then p.tier_id::text
          when mt.tier_id is null or exists (select 1 from cluster.tier_history h where h.member_id = m.id) then null
          when mt.tier_id = '${ENTRY_TIER_PROMISE}' then (select e.id::text from cluster.tier e where e.deleted_at is null and e.is_active and not e.is_special
                                                          order by e.level, e.created_at, e.id limit 1)
          else mt.tier_id end
  where m.id = $1 and m.deleted_at is null`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const whole = (points: string | null): number => Math.floor(Number(points ?? 0));
/** A timestamp as v1 spells it: ISO 8601 UTC without the fraction of a second. */
const v1Time = (at: Date): string => at.toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Who may read a customer with its points: the `read` scope (a customer only itself), and the auth and
 * point read permissions (a customer reads its own without them), as the v1 surface and the subgraphs check.
 */
const mayRead = (principal: Principal, id: string): boolean =>
  principal.kind === 'member'
    ? principal.id === id
    : scopesOf(principal).includes('read') && principal.can(AUTH.permissions.memberRead) && principal.can(POINT.permissions.read);

/**
 * GET /baseline/v1/customers/:id: the v1 customer read with `include=points,tier` as a careful engineer
 * would write it without federation or ORM: the Bearer token verified (jose, remembered, revocations
 * asked), the caller's scope and permissions, one statement, and the platform's answer byte for byte
 * (the same keys in the same order, snake_case, whole points, timestamps without milliseconds).
 */
export function v1CustomerBaseline(pool: Pool, tokens: AccessTokens): Router {
  const router = Router();
  router.get('/baseline/v1/customers/:id', async (req, res, next) => {
    try {
      const principal = await tokens.fromHeader(req.headers.authorization);
      if (!principal) return answerInvalidToken(res);
      const { id } = req.params;
      if (!mayRead(principal, id)) return answerInsufficientScope(res, 'read');
      const { rows } = UUID.test(id) ? await pool.query(V1_CUSTOMER_SELECT, [id]) : { rows: [] };
      if (rows.length === 0) return void res.status(404).json(v1ErrorBody('CUSTOMER_NOT_FOUND', 'Member not found'));
      const row = rows[0];
      const balance = whole(row.balance);
      const address = row.address as { address?: string | null; district?: string | null; province?: string | null; postCode?: string | null } | null;
      res.json({
        data: {
          id: row.id,
          name: row.name ?? row.nick_name,
          email: row.email,
          phone: row.phone_number,
          date_of_birth: row.birth_day,
          gender: row.gender?.toLowerCase() ?? null,
          address: address ? { street: address.address ?? null, city: address.province ?? address.district ?? null, postal_code: address.postCode ?? null } : null,
          language: row.language,
          tier: row.tier_id ? { id: row.tier_id, name: row.tier_name_en ?? row.tier_name_th ?? row.tier_name_cn, level: row.tier_level } : null,
          points_balance: balance,
          status: row.status === 'INACTIVE' ? 'inactive' : 'active',
          points: { balance, lifetime_earned: whole(row.earned), lifetime_redeemed: whole(row.redeemed) },
          chatapp: { openid: row.open_id, unionid: row.union_id, nickname: row.nick_name, avatar: row.avatar_url },
          created_at: v1Time(row.created_at),
          updated_at: v1Time(row.updated_at),
        },
      });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
