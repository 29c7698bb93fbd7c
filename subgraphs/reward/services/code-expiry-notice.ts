import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { inBatches } from '../../../core/db/batches';
import { recordEvent } from '../../../core/events/outbox-event';
import { REWARD, RewardCodeExpiring } from '../contract';
import { RewardCode } from '../entities/reward-code';

/** The scheduled job's queue: announces the unused codes that expire soon, once each. */
export const CODE_EXPIRY_NOTICE_QUEUE = 'reward.code-expiry-notice';
const CODES_PER_BATCH = 500;

/**
 * One batch, in one transaction: takes up to `batchSize` unused, unannounced codes expiring within
 * `horizonDays` (rows another instance holds are skipped, not waited for), stamps
 * `expiration_notified_at` and records `reward.code-expiring` for each. The events are written in
 * member order, so two instances taking the outbox's per-member locks never wait on each other in a circle.
 */
export async function noticeExpiringBatch(em: EntityManager, horizonDays: number, batchSize = CODES_PER_BATCH): Promise<number> {
  const rows = await em.execute(
    `with due as (
       select id from reward.reward_code
        where used_at is null and expiration_notified_at is null
          and expired_at > now() and expired_at <= now() + make_interval(days => ?)
        order by expired_at, id
        limit ? for update skip locked)
     update reward.reward_code c set expiration_notified_at = now(), updated_at = now()
       from due where c.id = due.id
     returning c.*`,
    [horizonDays, batchSize],
  );
  const codes = rows.map((row) => em.map(RewardCode, row));
  codes.sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : a.id < b.id ? -1 : 1));
  for (const code of codes) {
    const expiring: RewardCodeExpiring = {
      memberId: code.memberId,
      rewardId: code.rewardId,
      rewardCatalogId: code.rewardCatalogId,
      rewardCodeId: code.id,
      expiredAt: code.expiredAt.toISOString(),
      notifiedAt: code.expirationNotifiedAt!.toISOString(),
    };
    recordEvent(em, REWARD.events.codeExpiring, expiring, { aggregateId: code.memberId });
  }
  await em.flush();
  return codes.length;
}

/** Announces every code due, batch after batch, each batch committed on its own; returns how many. */
export async function noticeExpiringCodes(orm: MikroORM<PostgreSqlDriver>, horizonDays: number, batchSize = CODES_PER_BATCH): Promise<number> {
  return inBatches(orm, batchSize, (em) => noticeExpiringBatch(em, horizonDays, batchSize));
}
