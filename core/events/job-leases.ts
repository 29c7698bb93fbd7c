import PgBoss from 'pg-boss';
import { Logger } from '../logger';

/** pg-boss 10.4.2's own statements (its plans module has no types): their form is reused, not copied. */
const plans = require('pg-boss/src/plans') as {
  failJobsByTimeout: (schema: string) => string;
};

/** A worker renews the leases of the jobs its handler runs this often... */
export const LEASE_RENEW_MS = 3_000;
/** ...and a job whose lease was not renewed for this long is failed (its worker died or lost the database). */
export const LEASE_SECONDS = 10;
/** Every job queue looks for run-out leases this often. */
const SWEEP_MS = 5_000;

/** The condition of pg-boss's expiry (`failJobsByTimeout`), which the sweep replaces with the lease's. */
const EXPIRED = `state = 'active' AND (started_on + expire_in) < now()`;
const EXPIRED_OUTPUT = `'{ "value": { "message": "job failed by timeout in active state" } }'::jsonb`;

/** The partial index the sweep reads (a partition of every queue gets it too). */
export const leaseIndexSql = (schema: string) => `create index if not exists job_lease_idx on ${schema}.job (started_on) where state = 'active'`;

/**
 * pg-boss's expiry with the lease's condition: a job `active` whose `started_on` (renewed while its
 * handler runs) is older than LEASE_SECONDS is failed as pg-boss fails an expired one, so its retry
 * count, retry delay and dead letter stay pg-boss's. One statement: processes sweeping together each
 * fail a job at most once (a row another deleted is passed over).
 */
function sweepSql(schema: string): string {
  const expiry = plans.failJobsByTimeout(schema);
  if (!expiry.includes(EXPIRED) || !expiry.includes(EXPIRED_OUTPUT)) throw new Error('pg-boss expiry statement changed: review the job lease sweep (core/events/job-leases.ts)');
  const output = `'{ "value": { "message": "job lease ran out: its worker stopped renewing it (died or lost the database)" } }'::jsonb`;
  return expiry.replace(EXPIRED, `state = 'active' AND started_on < now() - interval '${LEASE_SECONDS} seconds'`).replace(EXPIRED_OUTPUT, output);
}

/**
 * Leases on fetched jobs. pg-boss holds a fetched job `active` until its queue's expiry (15 minutes),
 * so the jobs of a worker that died waited that long, and each member's later events behind them. Here
 * a handler renews its jobs' `started_on` every LEASE_RENEW_MS while it runs, and every process fails
 * the jobs whose lease ran out: what a dead worker held is tried again within seconds.
 */
export class JobLeases {
  private readonly sweep: string;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly db: PgBoss.Db,
    private readonly schema: string,
    private readonly logger: Logger,
  ) {
    this.sweep = sweepSql(schema);
  }

  /** Starts sweeping (unref'd: it never keeps a process alive). */
  start(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    }, SWEEP_MS).unref();
  }

  /** Fails the jobs whose lease ran out (logged, never thrown: the next sweep tries again). */
  async sweepOnce(): Promise<void> {
    try {
      const { rows } = await this.db.executeSql(this.sweep, []);
      const failed = Number(rows[0]?.count ?? 0);
      if (failed > 0) this.logger.warn({ jobs: failed }, 'jobs whose lease ran out failed: tried again');
    } catch (error) {
      this.logger.warn({ err: error }, 'job lease sweep failed: trying again');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** Renews the leases of `ids` on `queue` until the returned function is called. */
  hold(queue: string, ids: string[]): () => void {
    const timer = setInterval(() => {
      this.db
        .executeSql(`update ${this.schema}.job set started_on = now() where name = $1 and id = any($2::uuid[]) and state = 'active'`, [queue, ids])
        .catch((error) => this.logger.warn({ err: error, queue, jobs: ids.length }, 'renewing job leases failed: trying again'));
    }, LEASE_RENEW_MS);
    return () => clearInterval(timer);
  }
}
