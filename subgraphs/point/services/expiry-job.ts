import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { LedgerService } from './ledger.service';

/** The scheduled job's queue: EXPIRE transactions for lots past their expiry, every minute. */
export const EXPIRE_LOTS_QUEUE = 'point.expire-lots';
const MEMBERS_PER_RUN = 1000;

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
