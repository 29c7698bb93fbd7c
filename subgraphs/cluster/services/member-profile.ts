import { EntityManager } from '@mikro-orm/postgresql';
import { PublishedEvent } from '../../../core/events/outbox-event';
import type { MemberProfileChanged } from '../../auth/contract';

/**
 * Keeps each member's birth month (for birthday-month segments) from auth's member.profile_changed.
 * An upsert that only an equal or newer profile overwrites, so repeats and late arrivals change nothing.
 */
export async function applyMemberProfile(em: EntityManager, event: PublishedEvent<MemberProfileChanged>): Promise<void> {
  const month = event.data.birthDate ? Number(event.data.birthDate.slice(5, 7)) : null;
  await em.execute(
    `insert into cluster.member_profile (member_id, birth_month, profile_at) values (?, ?, ?)
     on conflict (member_id) do update set birth_month = excluded.birth_month, profile_at = excluded.profile_at
      where member_profile.profile_at <= excluded.profile_at`,
    [event.data.memberId, month, event.data.updatedAt],
  );
}
