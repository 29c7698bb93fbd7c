import { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../core/events/outbox-event';
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
        });
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
    },
    { aggregateId: change.memberId },
  );
  await em.flush();
  return history;
}
