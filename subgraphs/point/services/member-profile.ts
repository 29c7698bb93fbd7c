import { EntityManager } from '@mikro-orm/postgresql';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { AUTH } from '../../auth/contract';
import { CLUSTER } from '../../cluster/contract';

export const MEMBER_PROFILE_QUEUE = 'point.member-profile';
export const MEMBER_PROFILE_EVENTS = [CLUSTER.events.tierChanged, AUTH.events.memberProfileChanged] as const;

/** The birth month (1 to 12) of a 'YYYY-MM-DD' birth date; null without one. */
const birthMonthOf = (birthDate: string | null): number | null => (birthDate ? Number(birthDate.slice(5, 7)) : null);

/**
 * Consumer keeping `point.member_profile`, the member facts of the earning rules: the current tier from
 * the cluster's `customer.tier_changed` (`toTierId`; null when the member is left without one) and the
 * birth month from auth's `member.profile_changed`. Each part is an upsert that only an event as new as
 * the one that wrote it (`tier_at`, `profile_at`) overwrites, so repeats, redeliveries and late arrivals
 * never move it back; the other part of the row is left as it is.
 */
export async function applyMemberProfile(em: EntityManager, event: PublishedEvent): Promise<void> {
  if (event.type === CLUSTER.events.tierChanged) {
    const change = payloadOf(event, CLUSTER.events.tierChanged);
    await em.execute(
      `insert into point.member_profile (member_id, tier_id, tier_at) values (?, ?, ?)
       on conflict (member_id) do update set tier_id = excluded.tier_id, tier_at = excluded.tier_at
        where member_profile.tier_at is null or member_profile.tier_at <= excluded.tier_at`,
      [change.memberId, change.toTierId, change.changed_at ?? event.occurredAt],
    );
    return;
  }
  const profile = payloadOf(event, AUTH.events.memberProfileChanged);
  await em.execute(
    `insert into point.member_profile (member_id, birth_month, profile_at) values (?, ?, ?)
     on conflict (member_id) do update set birth_month = excluded.birth_month, profile_at = excluded.profile_at
      where member_profile.profile_at is null or member_profile.profile_at <= excluded.profile_at`,
    [profile.memberId, birthMonthOf(profile.birthDate), profile.updatedAt ?? event.occurredAt],
  );
}
