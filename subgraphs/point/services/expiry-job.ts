import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { Logger } from '../../../core/logger';
import { LedgerService } from './ledger.service';

export const EXPIRE_LOTS_QUEUE = 'point.expire-lots';
const MEMBERS_PER_RUN = 1000;

/**
 * The scheduled job that writes EXPIRE transactions for lots past their expiry, member by member,
 * each in its own transaction under the member's balance lock. Runs every minute on the job queue
 * (the queue is created when the job queue starts).
 */
export async function scheduleExpiryJob(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, ledger: LedgerService, logger: Logger): Promise<void> {
  await boss.schedule(EXPIRE_LOTS_QUEUE, '* * * * *');
  await boss.work(EXPIRE_LOTS_QUEUE, async () => {
    const expired = await expireAllDue(orm, ledger);
    if (expired > 0) logger.info({ expired }, 'point lots expired');
  });
}

/** Expires every lot that is due; returns how many lots expired. */
export async function expireAllDue(orm: MikroORM<PostgreSqlDriver>, ledger: LedgerService): Promise<number> {
  let total = 0;
  for (;;) {
    const members: Array<{ member_id: string }> = await orm.em
      .fork()
      .execute(`select distinct member_id from point.point_lot where remaining > 0 and expires_at <= now() limit ?`, [MEMBERS_PER_RUN]);
    if (members.length === 0) return total;
    for (const { member_id: memberId } of members) {
      total += await orm.em.fork().transactional((em) => ledger.expireDue(em, memberId));
    }
  }
}
