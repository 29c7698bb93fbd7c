import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { Logger } from '../../../core/logger';

/** The cluster's queue of auth's member.profile_changed events. */
export const CLUSTER_MEMBERS_QUEUE = 'cluster.members';

interface MemberProfileData {
  memberId: string;
  birthDate: string | null;
  updatedAt: string;
}

/**
 * Keeps each member's birth month (for birthday-month segments). Applying an event is an upsert that
 * only an equal or newer profile overwrites, so repeats and late arrivals change nothing.
 */
export async function startMemberProfileConsumer(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  await boss.subscribe('member.profile_changed', CLUSTER_MEMBERS_QUEUE);
  await boss.work<PublishedEvent<MemberProfileData>>(CLUSTER_MEMBERS_QUEUE, { batchSize: 50, pollingIntervalSeconds: 0.5 }, async (jobs) => {
    for (const { data: event } of jobs) {
      const month = event.data.birthDate ? Number(event.data.birthDate.slice(5, 7)) : null;
      await orm.em.fork().execute(
        `insert into cluster.member_profile (member_id, birth_month, profile_at) values (?, ?, ?)
         on conflict (member_id) do update set birth_month = excluded.birth_month, profile_at = excluded.profile_at
          where member_profile.profile_at <= excluded.profile_at`,
        [event.data.memberId, month, event.data.updatedAt],
      );
    }
  });
  logger.debug({ queue: CLUSTER_MEMBERS_QUEUE }, 'member profile consumer started');
}
