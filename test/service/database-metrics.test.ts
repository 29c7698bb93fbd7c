import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { Pool } from 'pg';
import { databaseMetrics } from '../../core/database-metrics';
import { DEAD_LETTER_SUFFIX, startJobQueue, stopJobQueue } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';

let database: ScratchDatabase;
let boss: PgBoss;
let pool: Pool;
let metrics: ReturnType<typeof databaseMetrics>;

beforeAll(async () => {
  database = await createScratchDatabase('svc_metrics', { migrated: true });
  boss = await startJobQueue(database.url, createLogger('test', 'silent'));
  pool = new Pool({ connectionString: database.url, max: 1 });
  pool.on('error', () => undefined);
  metrics = databaseMetrics(database.url);
});
afterAll(async () => {
  await metrics?.close();
  await pool?.end();
  if (boss) await stopJobQueue(boss);
  await database?.drop();
});

/** The value of each sample of a gauge whose labels include `labels`, as the scrape shows it. */
async function samples(name: string, labels: Record<string, string>): Promise<number[]> {
  const gauge = (await metrics.registry.getMetricsAsJSON()).find((metric) => metric.name === name);
  if (!gauge) throw new Error(`no metric ${name}`);
  return (gauge.values as Array<{ labels: Record<string, string | number>; value: number }>)
    .filter((sample) => Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .map((sample) => sample.value);
}

describe('what the database says at a scrape', () => {
  it("counts a queue's jobs by state, the age of its oldest due job, and its dead letters apart", async () => {
    const queue = `metrics-${randomUUID()}`;
    await boss.createQueue(queue);
    await boss.createQueue(`${queue}${DEAD_LETTER_SUFFIX}`);
    for (let index = 0; index < 3; index++) await boss.send(queue, { index });
    await boss.send(queue, { later: true }, { startAfter: 3600 });
    for (let index = 0; index < 2; index++) await boss.send(`${queue}${DEAD_LETTER_SUFFIX}`, { index });
    await pool.query(`update pgboss.job set start_after = now() - interval '2 minutes' where name = $1 and data->>'index' = '0'`, [queue]);

    expect(await samples('job_queue_jobs', { queue, state: 'created' })).toEqual([4]);
    expect(await samples('dead_letters', { queue })).toEqual([2]);
    const [oldest] = await samples('job_queue_oldest_waiting_age_seconds', { queue });
    expect(oldest).toBeGreaterThanOrEqual(120);
    expect(oldest).toBeLessThan(600);
    // A dead-letter queue is no backlog of its own.
    expect(await samples('job_queue_oldest_waiting_age_seconds', { queue: `${queue}${DEAD_LETTER_SUFFIX}` })).toEqual([]);
  });

  it("counts each domain's outbox rows not yet relayed and the age of the oldest", async () => {
    const [before] = await samples('outbox_unrelayed_events', { domain: 'point' });
    await pool.query(
      `insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at) values
         ($1, 'points.earned', '{}', $3, now() - interval '5 minutes'), ($2, 'points.earned', '{}', $3, now())`,
      [randomUUID(), randomUUID(), randomUUID()],
    );
    expect(await samples('outbox_unrelayed_events', { domain: 'point' })).toEqual([before + 2]);
    const [oldest] = await samples('outbox_oldest_unrelayed_age_seconds', { domain: 'point' });
    expect(oldest).toBeGreaterThanOrEqual(300);
    await pool.query(`update point.outbox_event set published_at = now() where published_at is null`);
    expect(await samples('outbox_unrelayed_events', { domain: 'point' })).toEqual([0]);
    expect(await samples('outbox_oldest_unrelayed_age_seconds', { domain: 'point' })).toEqual([0]);
    expect((await samples('outbox_unrelayed_events', {})).length).toBeGreaterThanOrEqual(9);
  });
});
