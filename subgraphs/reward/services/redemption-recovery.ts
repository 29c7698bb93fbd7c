import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Logger } from '../../../core/logger';
import { Redemption } from '../entities/redemption';
import { settleRedemption } from './redemption-settlement';
import { RedemptionCalls } from './redemption-calls';

/** The recovery job's queue: settles the redemptions a dead process left PENDING, every minute. */
export const RECOVER_REDEMPTIONS_QUEUE = 'reward.recover-redemptions';
/** A redemption still PENDING this long after it began was left behind (a live one settles in well under a second, or holds its row lock). */
export const RECOVER_AFTER_MS = 60_000;
const PER_RUN = 500;
/** Redemptions read at once. */
const BATCH = 50;

export interface RecoveryOptions {
  /** Only redemptions begun at least this long ago; RECOVER_AFTER_MS unless given. */
  olderThanMs?: number;
  logger?: Logger;
}

export interface RecoveryTally {
  completed: number;
  failed: number;
  /** Still PENDING: the point domain did not answer, or settling threw. The next run tries again. */
  pending: number;
}

/**
 * Settles the PENDING redemptions older than the threshold, oldest first, as any actor does
 * (services/redemption-settlement.ts): its points are spent (or the earlier spend is answered, by the
 * key), then it completes under its row lock; a refused spend compensates it. A request or another
 * instance settling the same one meanwhile is no harm: the key makes their spends one, and the one
 * that takes the row lock second answers what the first did. One that cannot be settled now is left
 * for the next run.
 */
export async function recoverRedemptions(orm: MikroORM<PostgreSqlDriver>, calls: RedemptionCalls, options: RecoveryOptions = {}): Promise<RecoveryTally> {
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? RECOVER_AFTER_MS));
  const tally: RecoveryTally = { completed: 0, failed: 0, pending: 0 };
  let after = { createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' };
  for (let seen = 0; seen < PER_RUN; ) {
    const em = orm.em.fork();
    const rows: Array<Record<string, any>> = await em.execute(
      `select * from reward.redemption
        where state = 'PENDING' and created_at < ? and (created_at, id) > (?, ?)
        order by created_at, id limit ?`,
      [cutoff, after.createdAt, after.id, Math.min(BATCH, PER_RUN - seen)],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      seen += 1;
      after = { createdAt: row.created_at, id: row.id };
      try {
        const outcome = await settleRedemption(em, em.map(Redemption, row), calls);
        tally[outcome.state === 'COMPLETED' ? 'completed' : outcome.state === 'FAILED' ? 'failed' : 'pending'] += 1;
      } catch (error) {
        tally.pending += 1;
        options.logger?.error({ err: error, redemptionId: row.id }, 'a PENDING redemption could not be settled');
      }
    }
  }
  return tally;
}
