import { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from '../../../core/events/outbox-event';
import { TierChangeType, TierHistory } from '../entities/tier-history';

/** The event every tier change of a member announces (spec Part 3's customer event group). */
export const TIER_CHANGED_EVENT = 'customer.tier_changed';

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
  em.create(OutboxEvent, {
    type: TIER_CHANGED_EVENT,
    payload: {
      memberId: change.memberId,
      fromTierId: change.fromTierId,
      toTierId: change.toTierId,
      changeType: change.changeType,
      source: change.source,
      tierEndAt: change.tierEndAt?.toISOString() ?? null,
      snapshot: change.snapshot,
      historyId: history?.id ?? null,
    },
  });
  await em.flush();
  return history;
}
