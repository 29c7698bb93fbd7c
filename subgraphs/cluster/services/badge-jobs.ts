import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { startEventConsumer } from '../../../core/events/event-consumer';
import { Logger } from '../../../core/logger';
import { POINT_EVENTS } from '../../point/events';
import { applyBadgeEvent, BadgePointEventData } from './badge-progress';

/** The badges' own queue of point events (subscribed to points.earned and points.redeemed). */
export const CLUSTER_BADGES_QUEUE = 'cluster.badges';

/** Badge progress: every point event applied once, a member's in order. */
export async function startBadgeEventConsumer(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger): Promise<void> {
  await startEventConsumer<BadgePointEventData>({
    orm,
    boss,
    logger,
    queue: CLUSTER_BADGES_QUEUE,
    events: [POINT_EVENTS.earned, POINT_EVENTS.redeemed],
    apply: applyBadgeEvent,
  });
}
