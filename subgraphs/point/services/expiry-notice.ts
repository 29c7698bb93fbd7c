import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { inBatches } from '../../../core/db/batches';
import { recordEvent } from '../../../core/events/outbox-event';
import { POINT, PointsExpiring } from '../contract';

/** The daily job's queue: announces the points that expire soon, once per lot. */
export const EXPIRY_NOTICE_QUEUE = 'point.expiry-notice';
const LOTS_PER_BATCH = 1000;

/**
 * One batch, in one transaction: takes up to `batchSize` unannounced lots with points left that expire
 * within `horizonDays` (rows another instance holds are skipped), stamps `expiry_notified_at` and
 * records one `points.expiring` per member, in member order (the outbox's per-member locks).
 */
export async function noticeExpiringBatch(em: EntityManager, horizonDays: number, batchSize = LOTS_PER_BATCH): Promise<number> {
  const members: Array<{ member_id: string; points: string; expires_at: Date; lot_count: number; noticed_at: Date }> = await em.execute(
    `with due as (
       select id from point.point_lot
        where remaining > 0 and expiry_notified_at is null
          and expires_at > now() and expires_at <= now() + make_interval(days => ?)
        order by expires_at, id
        limit ? for update skip locked),
     stamped as (
       update point.point_lot lot set expiry_notified_at = now()
         from due where lot.id = due.id
       returning lot.member_id, lot.remaining, lot.expires_at, lot.expiry_notified_at)
     select member_id, sum(remaining)::text as points, min(expires_at) as expires_at, count(*)::int as lot_count, max(expiry_notified_at) as noticed_at
       from stamped group by member_id order by member_id`,
    [horizonDays, batchSize],
  );
  for (const member of members) {
    const expiring: PointsExpiring = {
      memberId: member.member_id,
      points: member.points,
      expiresAt: new Date(member.expires_at).toISOString(),
      lotCount: member.lot_count,
      noticedAt: new Date(member.noticed_at).toISOString(),
    };
    recordEvent(em, POINT.events.expiring, expiring, { aggregateId: member.member_id });
  }
  await em.flush();
  return members.reduce((lots, member) => lots + member.lot_count, 0);
}

/** Announces every lot due, batch after batch, each committed on its own; returns how many lots. */
export async function noticeExpiringPoints(orm: MikroORM<PostgreSqlDriver>, horizonDays: number, batchSize = LOTS_PER_BATCH): Promise<number> {
  return inBatches(orm, batchSize, (em) => noticeExpiringBatch(em, horizonDays, batchSize));
}
