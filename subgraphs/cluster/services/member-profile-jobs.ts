import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { startEventConsumer } from '../../../core/events/event-consumer';
import { Logger } from '../../../core/logger';
import { AUTH_EVENTS } from '../../auth/events';

/** The cluster's queue of auth's member.profile_changed events. */
export const CLUSTER_MEMBERS_QUEUE = 'cluster.members';

interface MemberProfileData {
  memberId: string;
  birthDate: string | null;
  updatedAt: string;
}

/**
 * Keeps each member's birth month (for birthday-month segments). Applying an event is an upsert that
 * only an equal or newer profile overwrites, so late arrivals of events without a stream change nothing.
 */
export async function startMemberProfileConsumer(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  await startEventConsumer<MemberProfileData>({
    orm,
    boss,
    logger,
    queue: CLUSTER_MEMBERS_QUEUE,
    events: [AUTH_EVENTS.memberProfileChanged],
    batchSize: 50,
    apply: async (em, event) => {
      const month = event.data.birthDate ? Number(event.data.birthDate.slice(5, 7)) : null;
      await em.execute(
        `insert into cluster.member_profile (member_id, birth_month, profile_at) values (?, ?, ?)
         on conflict (member_id) do update set birth_month = excluded.birth_month, profile_at = excluded.profile_at
          where member_profile.profile_at <= excluded.profile_at`,
        [event.data.memberId, month, event.data.updatedAt],
      );
    },
  });
}
