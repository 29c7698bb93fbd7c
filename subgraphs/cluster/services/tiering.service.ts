import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { PublishedEvent } from '../../../core/events/outbox-event';
import type { PointLedgerEntry } from '../../point/contract';
import { TierChangeType } from '../entities/tier-history';
import { recordTierChange } from './tier-change';

interface CurrentTier {
  id: string;
  tier_id: string;
  tier_end_at: string | null;
  /** The end has passed. */
  due: boolean;
  level: number;
  is_special: boolean;
}

/**
 * The highest live, active, non-special tier whose `requirement.purchaseAmountHit` the amount reaches
 * (tiers without a number there are reached only by assignment); `belowLevel` keeps lower tiers only.
 */
async function qualifyingTier(em: EntityManager, purchaseAmount: string, belowLevel?: number): Promise<{ id: string; level: number } | undefined> {
  const [tier]: Array<{ id: string; level: number }> = await em.execute(
    `select id, level from cluster.tier
      where deleted_at is null and is_active and not is_special
        and jsonb_typeof(requirement->'purchaseAmountHit') = 'number'
        and (requirement->>'purchaseAmountHit')::numeric <= ?::numeric
        and level < ?
      order by level desc, (requirement->>'purchaseAmountHit')::numeric desc, created_at, id
      limit 1`,
    [purchaseAmount, belowLevel ?? 2147483647],
  );
  return tier;
}

/** The member's projection with its tier's level, locked for the rest of the transaction. */
async function lockedProjection(em: EntityManager, memberId: string): Promise<CurrentTier | undefined> {
  const [row]: CurrentTier[] = await em.execute(
    `select p.id, p.tier_id, p.tier_end_at, coalesce(p.tier_end_at <= now(), false) as due, t.level, t.is_special
       from cluster.tier_projection p join cluster.tier t on t.id = p.tier_id
      where p.member_id = ? for update of p`,
    [memberId],
  );
  return row;
}

const asNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Applies one point event, in the caller's transaction (the event consumer applies each event once, a
 * member's in order): adds its purchase amount to the member's total (whose row serializes the
 * member's events), then upgrades the member when the total reaches a higher tier. Members in a
 * special tier stay there.
 */
export async function applyPointEvent(em: EntityManager, event: PublishedEvent<PointLedgerEntry>): Promise<void> {
  const { memberId } = event.data;
  const purchase = String(event.data.purchaseAmount ?? '0');
  const balance = event.data.balanceAfter === undefined || event.data.balanceAfter === null ? null : String(event.data.balanceAfter);
  const at = event.data.createdAt ?? event.occurredAt;
  const [totals] = await em.execute(
    `insert into cluster.member_purchase as m (member_id, purchase_amount, points, points_at, updated_at)
     values (?, ?::numeric, ?::numeric, ?::timestamptz, now())
     on conflict (member_id) do update
        set purchase_amount = m.purchase_amount + excluded.purchase_amount,
            points = case when m.points_at is null or excluded.points_at >= m.points_at then coalesce(excluded.points, m.points) else m.points end,
            points_at = case when m.points_at is null or excluded.points_at >= m.points_at then excluded.points_at else m.points_at end,
            updated_at = now()
     returning purchase_amount::text as purchase_amount`,
    [memberId, purchase, balance, at],
  );
  const current = await lockedProjection(em, memberId);
  if (current?.is_special) return;
  const target = await qualifyingTier(em, totals.purchase_amount);
  if (!target || (current && target.level <= current.level)) return;
  const snapshot = { points: asNumber(balance), purchaseAmount: Number(totals.purchase_amount) };
  if (current) {
    await em.execute(`update cluster.tier_projection set tier_id = ?, updated_at = now() where id = ?`, [target.id, current.id]);
  } else {
    await em.execute(
      `insert into cluster.tier_projection (id, member_id, tier_id, tier_end_at, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, null, now(), now())`,
      [memberId, target.id],
    );
  }
  await recordTierChange(em, {
    memberId,
    fromTierId: current?.tier_id ?? null,
    toTierId: target.id,
    changeType: TierChangeType.upgrade,
    source: 'automatic',
    tierEndAt: current?.tier_end_at ? new Date(current.tier_end_at) : null,
    snapshot,
  });
}

/**
 * Ends a member's tier whose `tier_end_at` has passed, in the caller's transaction: the member drops to
 * the highest non-special tier below the current one that its purchases still reach (without an end),
 * or loses its projection when none. Returns false when nothing was due (any more).
 */
export async function expireMemberTier(em: EntityManager, memberId: string): Promise<boolean> {
  // Locks taken in the consumer's order (the member's purchases, then the projection).
  const [row] = await em.execute(`select purchase_amount::text as purchase_amount, points::text as points from cluster.member_purchase where member_id = ? for update`, [memberId]);
  const totals = { purchase_amount: row?.purchase_amount ?? '0', points: row?.points ?? null };
  const current = await lockedProjection(em, memberId);
  if (!current?.due) return false;
  const target = await qualifyingTier(em, totals.purchase_amount, current.level);
  if (target) {
    await em.execute(`update cluster.tier_projection set tier_id = ?, tier_end_at = null, updated_at = now() where id = ?`, [target.id, current.id]);
  } else {
    await em.execute(`delete from cluster.tier_projection where id = ?`, [current.id]);
  }
  await recordTierChange(em, {
    memberId,
    fromTierId: current.tier_id,
    toTierId: target?.id ?? null,
    changeType: TierChangeType.expiry,
    source: 'expiry',
    tierEndAt: null,
    snapshot: { points: asNumber(totals.points), purchaseAmount: Number(totals.purchase_amount) },
  });
  return true;
}

const MEMBERS_PER_RUN = 1000;

/** Ends every tier that is due, member by member, each in its own transaction; returns how many. */
export async function expireAllDueTiers(orm: MikroORM<PostgreSqlDriver>): Promise<number> {
  let total = 0;
  for (;;) {
    const members: Array<{ member_id: string }> = await orm.em
      .fork()
      .execute(`select member_id from cluster.tier_projection where tier_end_at <= now() order by tier_end_at limit ?`, [MEMBERS_PER_RUN]);
    if (members.length === 0) return total;
    let changed = 0;
    for (const { member_id: memberId } of members) {
      if (await orm.em.fork().transactional((em) => expireMemberTier(em, memberId))) changed++;
    }
    total += changed;
    if (changed === 0) return total;
  }
}
