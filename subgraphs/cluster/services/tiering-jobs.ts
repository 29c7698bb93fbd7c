import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { startEventConsumer } from '../../../core/events/event-consumer';
import { Logger } from '../../../core/logger';
import { POINT_EVENTS } from '../../point/events';
import { applyPointEvent, expireMemberTier, PointEventData } from './tiering.service';

/** The cluster's queue of point events (subscribed to points.earned and points.redeemed). */
export const CLUSTER_POINTS_QUEUE = 'cluster.points';
/** The scheduled job ending tiers whose `tier_end_at` has passed. */
export const TIER_EXPIRY_QUEUE = 'cluster.tier-expiry';
const MEMBERS_PER_RUN = 1000;

/** Automatic tiering: every point event with its purchase amount, applied once, a member's in order. */
export async function startPointEventConsumer(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  await startEventConsumer<PointEventData>({
    orm,
    boss,
    logger,
    queue: CLUSTER_POINTS_QUEUE,
    events: [POINT_EVENTS.earned, POINT_EVENTS.redeemed],
    apply: applyPointEvent,
  });
}

/** Runs the tier expiry every minute on the job queue. */
export async function scheduleTierExpiryJob(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  await boss.schedule(TIER_EXPIRY_QUEUE, '* * * * *');
  await boss.work(TIER_EXPIRY_QUEUE, async () => {
    const expired = await expireAllDueTiers(orm);
    if (expired > 0) logger.info({ expired }, 'member tiers expired');
  });
}

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
