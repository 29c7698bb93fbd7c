import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Logger } from '../../../core/logger';
import { Redemption } from '../entities/redemption';
import { settleRedemption } from './redemption-settlement';
import { RedemptionPoints } from './redemption-supergraph';

/** The recovery job's queue: settles the redemptions a dead process left PENDING, every minute. */
export const RECOVER_REDEMPTIONS_QUEUE = 'reward.recover-redemptions';
/** A redemption still PENDING this long after it began was left behind (a live one settles in well under a second, or holds its row lock). */
export const RECOVER_AFTER_MS = 60_000;
const PER_RUN = 500;

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
 * Settles the PENDING redemptions older than the threshold, oldest first, each in its own transaction
 * under its row lock (`for update skip locked`: one being settled by a request or another instance is
 * skipped): its points are spent (or the earlier spend is answered, by the key), then it completes;
 * a refused spend compensates it. One that cannot be settled now is left for the next run.
 */
export async function recoverRedemptions(orm: MikroORM<PostgreSqlDriver>, points: RedemptionPoints, options: RecoveryOptions = {}): Promise<RecoveryTally> {
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? RECOVER_AFTER_MS));
  const tally: RecoveryTally = { completed: 0, failed: 0, pending: 0 };
  let after = { createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' };
  for (let settled = 0; settled < PER_RUN; settled += 1) {
    let found = false;
    try {
      const outcome = await orm.em.fork().transactional(async (em) => {
        const [next] = await em.execute(
          `select id, created_at from reward.redemption
            where state = 'PENDING' and created_at < ? and (created_at, id) > (?, ?)
            order by created_at, id limit 1 for update skip locked`,
          [cutoff, after.createdAt, after.id],
        );
        if (!next) return undefined;
        found = true;
        after = { createdAt: next.created_at, id: next.id };
        return settleRedemption(em, await em.findOneOrFail(Redemption, { id: next.id }), points);
      });
      if (!outcome) break;
      tally[outcome.state === 'COMPLETED' ? 'completed' : outcome.state === 'FAILED' ? 'failed' : 'pending'] += 1;
    } catch (error) {
      if (!found) throw error;
      tally.pending += 1;
      options.logger?.error({ err: error, redemptionId: after.id }, 'a PENDING redemption could not be settled');
    }
  }
  return tally;
}
