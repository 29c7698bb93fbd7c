import PgBoss from 'pg-boss';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { withAdvisoryLock } from '../db/orm';
import { Logger } from '../logger';
import { logFailure } from '../unavailable';
import { JobLeases, leaseIndexSql } from './job-leases';
import './pg-boss-completions';

/** The Postgres schema of the job queue. */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/** How often and how far apart a failed job is tried again (pg-boss seconds; the delay doubles each time). */
export interface RetryPolicy {
  retryLimit: number;
  retryDelay: number;
}

/** Six more tries, 5 s apart and doubling (with jitter; 5 to 10 minutes in all), then the dead-letter queue. */
export const DEFAULT_RETRY: RetryPolicy = { retryLimit: 6, retryDelay: 5 };

/** A job waits this long (a dead letter about twice as long) before pg-boss archives it. */
const RETENTION_MINUTES = 30 * 24 * 60;

/** Where a queue's jobs go when they failed every try: `<queue>.dead-letter`. */
export const DEAD_LETTER_SUFFIX = '.dead-letter';
export const deadLetterQueueOf = (queue: string) => `${queue}${DEAD_LETTER_SUFFIX}`;

/**
 * The Postgres job queue (pg-boss, in its own `pgboss` schema) shared by every domain. Installing its
 * schema and creating queues take a cluster-wide lock: processes starting together deadlock otherwise.
 * Every queue named here gets the retry policy and a dead-letter queue. Fetched jobs are leased
 * (core/events/job-leases.ts): a dead worker's jobs are tried again within seconds.
 */
export async function startJobQueue(databaseUrl: string, logger: Logger, queues: string[] = []): Promise<PgBoss> {
  const db = new JobQueueConnections(databaseUrl, logger);
  const boss = new PgBoss({ db, schema: JOB_QUEUE_SCHEMA });
  connections.set(boss, db);
  boss.on('error', (error) => logFailure(logger, error, 'job queue error'));
  if (await isInstalled(db)) await boss.start();
  else {
    await withAdvisoryLock(databaseUrl, 'pgboss:setup', async () => {
      await boss.start();
      await db.executeSql(`do $$ begin if to_regclass('${JOB_QUEUE_SCHEMA}.job_lease_idx') is null then ${leaseIndexSql(JOB_QUEUE_SCHEMA)}; end if; end $$`);
    });
  }
  for (const name of queues) await ensureQueue(boss, databaseUrl, name, DEFAULT_RETRY);
  db.leases.start();
  return boss;
}

/** The schema version of the pg-boss we run. */
const PG_BOSS_SCHEMA_VERSION = (require('pg-boss/version.json') as { schema: number }).schema;

/**
 * Whether the job queue's schema is installed at our pg-boss's version, with our lease index: then a
 * start (every one but a new database's first) changes nothing and needs neither the cluster-wide lock
 * nor its connection. Any doubt (no schema yet) takes the locked path.
 */
async function isInstalled(db: JobQueueConnections): Promise<boolean> {
  try {
    const { rows } = await db.executeSql(
      `select (select version from ${JOB_QUEUE_SCHEMA}.version) as version, to_regclass('${JOB_QUEUE_SCHEMA}.job_lease_idx') is not null as leased`,
    );
    return Number(rows[0].version) === PG_BOSS_SCHEMA_VERSION && rows[0].leased === true;
  } catch {
    return false;
  }
}

/**
 * Runs `run` on `cron` (pg-boss schedules are cluster-wide: one run per tick whatever the number of
 * instances), on a queue with the retry policy; a run that throws is tried again, then dead-lettered.
 */
export async function scheduleJob(boss: PgBoss, databaseUrl: string, queue: string, cron: string, run: () => Promise<void>, logger: Logger): Promise<void> {
  await ensureQueue(boss, databaseUrl, queue, DEFAULT_RETRY);
  await boss.schedule(queue, cron);
  await workOn(boss, queue, {}, async () => {
    try {
      await run();
    } catch (error) {
      logger.error({ err: error, queue }, 'scheduled job failed');
      throw error;
    }
  });
}

/**
 * The job queue's connections, ours rather than pg-boss's: pg-boss closes its own pool as it stops,
 * while a worker may still be fetching; the batch it then gets could be neither completed nor failed
 * and would stay active until it expires. Ours stay open until the last statement of the queue is done.
 */
class JobQueueConnections implements PgBoss.Db {
  private readonly pool: Pool;
  private readonly inFlight = new Set<Promise<unknown>>();
  readonly leases: JobLeases;

  constructor(databaseUrl: string, logger: Logger) {
    this.pool = new Pool({ connectionString: databaseUrl, max: 4 });
    this.pool.on('error', (error) => logFailure(logger, error, 'job queue connection error'));
    this.leases = new JobLeases(this, JOB_QUEUE_SCHEMA, logger);
  }

  executeSql(text: string, values: unknown[] = []): Promise<{ rows: any[] }> {
    const query = this.pool.query(text, values);
    const settled = query.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return query;
  }

  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  idle(): Promise<unknown> {
    return Promise.all([...this.inFlight]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

const connections = new WeakMap<PgBoss, JobQueueConnections>();

/** The handlers of each job queue's workers that are running now. */
const running = new WeakMap<PgBoss, Set<Promise<unknown>>>();

/**
 * `boss.work`, with each run of the handler known to `stopJobQueue`, which waits for it, and the
 * leases of its jobs renewed while it runs.
 */
export async function workOn<T>(boss: PgBoss, queue: string, options: PgBoss.WorkOptions, handler: PgBoss.WorkWithMetadataHandler<T>): Promise<string> {
  const runs = running.get(boss) ?? new Set<Promise<unknown>>();
  running.set(boss, runs);
  const leases = connections.get(boss)?.leases;
  return boss.work<T>(queue, { ...options, includeMetadata: true }, (jobs) => {
    const release = leases?.hold(queue, jobs.map((job) => job.id));
    const run = handler(jobs).finally(() => {
      release?.();
      runs.delete(run);
    });
    runs.add(run);
    return run;
  });
}

/**
 * Stops the job queue and returns once no worker of it runs: the handlers of jobs fetched while it
 * stopped have finished (before the caller closes what they use, such as its ORM) and their jobs are
 * completed or failed, every worker's loop has ended (pg-boss checks for that on a one-second timer that
 * must find nothing left to wait for, or it keeps polling after its owner has gone), and its
 * connections are closed.
 */
export async function stopJobQueue(boss: PgBoss): Promise<void> {
  const db = connections.get(boss);
  await db?.leases.stop();
  await boss.stop({ graceful: true, wait: true });
  const runs = running.get(boss) ?? new Set();
  // A fetch still running returns its batch to the handler, which the worker then completes or fails:
  // wait until neither a statement nor a handler is left, a turn of the event loop apart.
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    if (runs.size === 0 && !db?.busy) break;
    await Promise.allSettled([...runs, db?.idle()]);
  }
  await db?.close();
}

/**
 * Creates the queue with its dead-letter queue, or brings an existing one to the policy. A queue already
 * as asked (every start but the first) costs one look, without the cluster-wide lock and its connection.
 */
export async function ensureQueue(boss: PgBoss, databaseUrl: string, name: string, retry: RetryPolicy): Promise<void> {
  if (await isDefined(boss, name, retry)) return;
  await withAdvisoryLock(databaseUrl, 'pgboss:setup', () => defineQueue(boss, name, retry));
}

/** Whether the queue has this policy and its dead-letter queue exists. */
async function isDefined(boss: PgBoss, name: string, retry: RetryPolicy): Promise<boolean> {
  const deadLetter = deadLetterQueueOf(name);
  const [queue, deadLetterQueue] = await Promise.all([boss.getQueue(name), boss.getQueue(deadLetter)]);
  return (
    deadLetterQueue !== null &&
    queue?.policy === 'standard' &&
    queue.retryLimit === retry.retryLimit &&
    queue.retryDelay === retry.retryDelay &&
    queue.retryBackoff === true &&
    queue.retentionMinutes === RETENTION_MINUTES &&
    queue.deadLetter === deadLetter
  );
}

async function defineQueue(boss: PgBoss, name: string, retry: RetryPolicy): Promise<void> {
  const deadLetter = deadLetterQueueOf(name);
  if (!(await boss.getQueue(deadLetter))) await boss.createQueue(deadLetter);
  const options = { name, ...retry, retryBackoff: true, deadLetter, retentionMinutes: RETENTION_MINUTES };
  if (await boss.getQueue(name)) await boss.updateQueue(name, options);
  else await boss.createQueue(name, options);
}

/** pg-boss statements run on one connection (`client.query`), e.g. inside a transaction of ours. */
export const onConnection = (client: { query: (text: string, values?: unknown[]) => Promise<{ rows: any[] }> }): PgBoss.Db => ({
  executeSql: (text, values) => client.query(text, values),
});

/**
 * A job id that sorts by `position` (then randomly): jobs inserted in one transaction share their
 * `created_on`, and pg-boss hands them out by (created_on, id).
 */
export function orderedJobId(position: bigint): string {
  const hex = position.toString(16).padStart(16, '0') + randomBytes(8).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * pg-boss statements run in the caller's MikroORM transaction (e.g. to put a job back on a queue in the
 * same commit as the change that decided it). pg-boss writes `$n` parameters; MikroORM takes `?`.
 */
export const inTransaction = (em: EntityManager): PgBoss.Db => ({
  executeSql: async (text, values = []) => {
    const bindings: unknown[] = [];
    const sql = text.replace(/\$(\d+)/g, (_, index: string) => {
      const value = values[Number(index) - 1];
      bindings.push(value === undefined ? null : typeof value === 'object' && value !== null ? JSON.stringify(value) : value);
      return '?';
    });
    return { rows: await em.execute(sql, bindings) };
  },
});
