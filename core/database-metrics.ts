import { Pool } from 'pg';
import { Gauge, Registry } from 'prom-client';
import { DEAD_LETTER_SUFFIX, JOB_QUEUE_SCHEMA } from './events/job-queue';

/** The job states a queue's backlog is made of (completed and cancelled jobs only wait for their deletion). */
const COUNTED_STATES = ['created', 'retry', 'active', 'failed'];

type Row = Record<string, string>;

/** What one scrape reads from the database, once, for every gauge below. */
interface DatabaseReading {
  outbox: Row[];
  queues: Row[];
  waiting: Row[];
  deadLetters: Row[];
}

/** A gauge read from the database: its rows, which columns are its labels, and which one its value. */
interface DatabaseGauge {
  name: string;
  help: string;
  rows: (reading: DatabaseReading) => Row[];
  labels: Record<string, string>;
  value: string;
}

const GAUGES: DatabaseGauge[] = [
  {
    name: 'outbox_unrelayed_events',
    help: "Events committed in a domain's outbox and not yet relayed to the job queue",
    rows: (reading) => reading.outbox,
    labels: { domain: 'domain' },
    value: 'unrelayed',
  },
  {
    name: 'outbox_oldest_unrelayed_age_seconds',
    help: "Seconds since the oldest event of a domain's outbox that is not relayed yet was committed (0: none waits)",
    rows: (reading) => reading.outbox,
    labels: { domain: 'domain' },
    value: 'oldest_age',
  },
  {
    name: 'job_queue_jobs',
    help: 'Jobs of each queue (events for consumers, webhook deliveries, notification sends, scheduled work) by state',
    rows: (reading) => reading.queues,
    labels: { queue: 'queue', state: 'state' },
    value: 'jobs',
  },
  {
    name: 'job_queue_oldest_waiting_age_seconds',
    help: 'Seconds the oldest job of each queue that is due has waited to be taken (absent: none waits)',
    rows: (reading) => reading.waiting,
    labels: { queue: 'queue' },
    value: 'oldest_age',
  },
  {
    name: 'dead_letters',
    help: 'Events and jobs that failed every try, by the queue they failed on (npm run events -- dead-letters)',
    rows: (reading) => reading.deadLetters,
    labels: { queue: 'queue' },
    value: 'dead',
  },
];

/**
 * What the database says about the events and jobs (`/metrics`), read once per scrape by the process
 * that serves it (under `npm start` the primary, so that workers' sums do not count one table twice):
 * each domain's outbox rows not yet relayed and the age of the oldest, each queue's jobs by state and
 * the age of its oldest waiting one, and the dead letters of each queue. The gauges of one scrape are
 * collected together and share one reading.
 */
export function databaseMetrics(databaseUrl: string): { registry: Registry; close: () => Promise<void> } {
  const registry = new Registry();
  const pool = new Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 2_000, query_timeout: 5_000 });
  // A lost idle connection: the next scrape connects again.
  pool.on('error', () => undefined);
  let reading: Promise<DatabaseReading> | undefined;
  const current = () => (reading ??= read(pool).finally(() => (reading = undefined)));
  for (const gauge of GAUGES) {
    new Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: Object.keys(gauge.labels),
      registers: [registry],
      async collect() {
        const rows = gauge.rows(await current());
        this.reset();
        for (const row of rows) this.set(Object.fromEntries(Object.entries(gauge.labels).map(([label, column]) => [label, row[column]])), Number(row[gauge.value]));
      },
    });
  }
  return { registry, close: () => pool.end() };
}

async function read(pool: Pool): Promise<DatabaseReading> {
  const outbox = await outboxRows(pool);
  if (!(await installed(pool))) return { outbox, queues: [], waiting: [], deadLetters: [] };
  return { outbox, queues: await queueRows(pool), waiting: await waitingRows(pool), deadLetters: await deadLetterRows(pool) };
}

/** Each domain's outbox: unrelayed rows and the oldest one's age; nothing before any domain has migrated. */
async function outboxRows(pool: Pool): Promise<Row[]> {
  const { rows: tables } = await pool.query<{ schema: string }>(`select table_schema as schema from information_schema.tables where table_name = 'outbox_event' order by 1`);
  if (tables.length === 0) return [];
  const union = tables
    .map(
      ({ schema }) => `select '${schema}' as domain, count(*) as unrelayed, coalesce(extract(epoch from now() - min(occurred_at)), 0) as oldest_age
         from "${schema}".outbox_event where published_at is null`,
    )
    .join(' union all ');
  return (await pool.query(union)).rows;
}

const installed = async (pool: Pool) => (await pool.query(`select to_regclass('${JOB_QUEUE_SCHEMA}.job') is not null as installed`)).rows[0].installed as boolean;

async function queueRows(pool: Pool): Promise<Row[]> {
  const { rows } = await pool.query(`select name as queue, state::text as state, count(*) as jobs from ${JOB_QUEUE_SCHEMA}.job where state::text = any($1) group by 1, 2`, [COUNTED_STATES]);
  return rows;
}

async function waitingRows(pool: Pool): Promise<Row[]> {
  const { rows } = await pool.query(
    `select name as queue, extract(epoch from now() - min(start_after)) as oldest_age from ${JOB_QUEUE_SCHEMA}.job
      where state in ('created', 'retry') and start_after <= now() and name not like $1 group by 1`,
    [`%${DEAD_LETTER_SUFFIX}`],
  );
  return rows;
}

async function deadLetterRows(pool: Pool): Promise<Row[]> {
  const { rows } = await pool.query(
    `select left(name, -${DEAD_LETTER_SUFFIX.length}) as queue, count(*) as dead from ${JOB_QUEUE_SCHEMA}.job where state = 'created' and name like $1 group by 1`,
    [`%${DEAD_LETTER_SUFFIX}`],
  );
  return rows;
}
