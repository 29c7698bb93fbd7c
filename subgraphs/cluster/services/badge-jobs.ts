import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { Logger } from '../../../core/logger';
import { applyBadgeEvent, BadgePointEventData } from './badge-progress';

/** The badges' own queue of point events (subscribed to points.earned and points.redeemed). */
export const CLUSTER_BADGES_QUEUE = 'cluster.badges';
const POINT_EVENT_TYPES = ['points.earned', 'points.redeemed'];

/** Badge progress: every point event applied once, each in its own transaction (a failure retries the job). */
export async function startBadgeEventConsumer(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  for (const type of POINT_EVENT_TYPES) await boss.subscribe(type, CLUSTER_BADGES_QUEUE);
  await boss.work<PublishedEvent<BadgePointEventData>>(CLUSTER_BADGES_QUEUE, { batchSize: 20, pollingIntervalSeconds: 0.5 }, async (jobs) => {
    for (const job of jobs) {
      await orm.em.fork().transactional((em) => applyBadgeEvent(em, job.data));
    }
  });
  logger.debug({ queue: CLUSTER_BADGES_QUEUE }, 'badge event consumer started');
}
