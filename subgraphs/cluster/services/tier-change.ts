import { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../core/events/outbox-event';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { Tier } from '../entities/tier';
import { TierChangeType, TierHistory } from '../entities/tier-history';
import { CLUSTER } from '../contract';

/** What moved the member: an assignment, a staff change, purchases (automatic) or the end of a tier. */
export type TierChangeSource = 'assign' | 'manual' | 'automatic' | 'expiry';

export interface TierChange {
  memberId: string;
  fromTierId: string | null;
  toTierId: string | null;
  changeType: TierChangeType | 'assign';
  source: TierChangeSource;
  tierEndAt: Date | null;
  snapshot: Record<string, unknown>;
  /** Why staff moved the member by hand (kept in the history item and the event). */
  reason?: string | null;
}

/** A tier as the v1 event fields show it. */
async function v1TierOf(em: EntityManager, id: string | null): Promise<{ id: string; name: string | null; level: number } | null> {
  if (!id) return null;
  const tier = await em.findOne(Tier, { id }, INCLUDING_DELETED);
  return tier ? { id: tier.id, name: tier.name_en ?? tier.name_th ?? tier.name_cn ?? null, level: tier.level } : { id, name: null, level: 0 };
}

/**
 * Records a change in the caller's transaction: the history item (not for a first assignment, which
 * only creates the projection) and the `customer.tier_changed` outbox event. Flushes.
 */
export async function recordTierChange(em: EntityManager, change: TierChange): Promise<TierHistory | null> {
  const history =
    change.changeType === 'assign'
      ? null
      : em.create(TierHistory, {
          memberId: change.memberId,
          changeType: change.changeType,
          snapshot: change.snapshot,
          fromTierId: change.fromTierId,
          toTierId: change.toTierId,
          reason: change.reason ?? null,
        });
  const [fromTier, toTier] = await Promise.all([v1TierOf(em, change.fromTierId), v1TierOf(em, change.toTierId)]);
  recordEvent(
    em,
    CLUSTER.events.tierChanged,
    {
      memberId: change.memberId,
      fromTierId: change.fromTierId,
      toTierId: change.toTierId,
      changeType: change.changeType,
      source: change.source,
      tierEndAt: change.tierEndAt?.toISOString() ?? null,
      snapshot: change.snapshot,
      historyId: history?.id ?? null,
      // The v1 webhook fields (Part 3 `customer.tier_changed`, subgraphs/cluster/DECISIONS.md): snake_case beside the internal ones.
      customer_id: change.memberId,
      from_tier: fromTier,
      to_tier: toTier,
      reason: change.reason ?? null,
      changed_at: new Date().toISOString(),
    },
    { aggregateId: change.memberId },
  );
  await em.flush();
  return history;
}
