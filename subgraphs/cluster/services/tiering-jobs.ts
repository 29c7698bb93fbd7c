import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { Logger } from '../../../core/logger';
import { applyPointEvent, expireMemberTier, PointEventData } from './tiering.service';

/** The cluster's queue of point events (subscribed to points.earned and points.redeemed). */
export const CLUSTER_POINTS_QUEUE = 'cluster.points';
/** The scheduled job ending tiers whose `tier_end_at` has passed. */
export const TIER_EXPIRY_QUEUE = 'cluster.tier-expiry';
export const CLUSTER_QUEUES = [CLUSTER_POINTS_QUEUE, TIER_EXPIRY_QUEUE];
const POINT_EVENT_TYPES = ['points.earned', 'points.redeemed'];
const MEMBERS_PER_RUN = 1000;

/**
 * Automatic tiering: every point event with its purchase amount, applied once each in its own
 * transaction (a failure retries the job; the event's id makes a repeat a no-op).
 */
export async function startPointEventConsumer(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  for (const type of POINT_EVENT_TYPES) await boss.subscribe(type, CLUSTER_POINTS_QUEUE);
  await boss.work<PublishedEvent<PointEventData>>(CLUSTER_POINTS_QUEUE, { batchSize: 20, pollingIntervalSeconds: 0.5 }, async (jobs) => {
    for (const job of jobs) {
      await orm.em.fork().transactional((em) => applyPointEvent(em, job.data));
    }
  });
  logger.debug({ queue: CLUSTER_POINTS_QUEUE }, 'point event consumer started');
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
