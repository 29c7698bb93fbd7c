import { EntityManager } from '@mikro-orm/postgresql';
import { PublishedEvent } from '../../../core/events/outbox-event';
import type { CustomerTierChanged } from '../../cluster/contract';

/**
 * Keeps `auth.member_tier` (each member's current tier id) from the cluster's `customer.tier_changed`,
 * a member's events in commit order: the member list filters on it (`filter[tier]`) without reading the
 * cluster's tables. A move to no tier (expiry with nothing below) removes the row.
 */
export async function applyMemberTier(em: EntityManager, event: PublishedEvent<CustomerTierChanged>): Promise<void> {
  const { memberId, toTierId } = event.data;
  if (!toTierId) {
    await em.execute('delete from auth.member_tier where member_id = ?', [memberId]);
    return;
  }
  await em.execute(
    `insert into auth.member_tier (member_id, tier_id, changed_at) values (?, ?, ?)
     on conflict (member_id) do update set tier_id = excluded.tier_id, changed_at = excluded.changed_at`,
    [memberId, toTierId, event.occurredAt],
  );
}
