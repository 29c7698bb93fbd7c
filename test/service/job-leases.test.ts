import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startEventConsumer } from '../../core/events/event-consumer';
import { JOB_QUEUE_SCHEMA, workOn } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { TcpProxy } from '../support/tcp-proxy';
import { chainedEvent, consumerScratch } from '../support/consumer-scratch';
import { waitFor } from '../support/wait-for';

/** The bound: what a killed worker held is tried again within this (#25). */
const RETRIED_WITHIN_MS = 30_000;
const SCHEMA = 'lease_test';
const EVENT_TYPE = 'test.counted';
const logger = createLogger('test', 'silent');
const scratch = consumerScratch('svc_leases', SCHEMA, `create table ${SCHEMA}.applied (position bigserial primary key, aggregate_id text not null, sequence bigint not null)`);

const jobOf = async (queue: string, id: string) =>
  (await scratch.pool.query(`select state, retry_count, output from ${JOB_QUEUE_SCHEMA}.job where name = $1 and id = $2`, [queue, id])).rows[0];

/** A worker process (a script of test/support) on `env`; resolves once it logs `ready`. */
async function startWorker(script: string, env: Record<string, string>, ready: string): Promise<{ child: ChildProcess; lines: Array<Record<string, any>> }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'support', script)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, any>> = [];
  createInterface({ input: child.stdout! }).on('line', (text) => text.startsWith('{') && lines.push(JSON.parse(text)));
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode})`);
    return lines.some((line) => line.msg === ready);
  }, `${script} to start`, 60_000);
  return { child, lines };
}

it('tries again, within 30 s, the event a consumer process was killed (SIGKILL) applying, and the member’s later events follow it in order', async () => {
  const queue = `test-leases-${randomUUID()}`;
  const memberId = randomUUID();
  const chained = (sequence: number) => chainedEvent(EVENT_TYPE, memberId, sequence);
  const { child, lines } = await startWorker('stuck-consumer-process.ts', { DATABASE_URL: scratch.database.url, QUEUE: queue, SCHEMA, EVENT_TYPE }, 'consuming');
  try {
    const firstJob = (await scratch.boss.send(queue, chained(1)))!;
    await waitFor(async () => lines.some((line) => line.msg === 'applying' && line.sequence === '1'), 'the stuck consumer to take the first event');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();

    // This process consumes the queue from now on; the member's later events wait for the first.
    await startEventConsumer({
      orm: scratch.orm,
      boss: scratch.boss,
      logger,
      queue,
      events: [EVENT_TYPE],
      apply: (em, event) => em.execute(`insert into ${SCHEMA}.applied (aggregate_id, sequence) values (?, ?)`, [memberId, event.sequence]),
    });
    await scratch.boss.send(queue, chained(2));
    await scratch.boss.send(queue, chained(3));
    const applied = () => scratch.pool.query(`select sequence::int from ${SCHEMA}.applied where aggregate_id = $1 order by position`, [memberId]).then(({ rows }) => rows.map((row) => row.sequence));
    await waitFor(async () => (await applied()).length === 3, 'the stream to be applied', RETRIED_WITHIN_MS + 10_000);
    expect(Date.now() - killedAt).toBeLessThanOrEqual(RETRIED_WITHIN_MS);
    expect(await applied()).toEqual([1, 2, 3]);
    // Tried again as pg-boss retries a failed job: its second try.
    expect(await jobOf(queue, firstJob)).toMatchObject({ state: 'completed', retry_count: 1 });
  } finally {
    child.kill('SIGKILL');
    await scratch.boss.offWork(queue);
  }
}, 120_000);

it('fails by its lease a job taken by a worker that stopped renewing it, while a handler running longer than a lease keeps its job', async () => {
  const [working, abandoned] = [`test-leases-long-${randomUUID()}`, `test-leases-abandoned-${randomUUID()}`];
  for (const queue of [working, abandoned]) await scratch.boss.createQueue(queue, { name: queue, retryLimit: 1, retryDelay: 60 });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  await workOn(scratch.boss, working, { pollingIntervalSeconds: 0.5 }, async () => {
    started = true;
    await released;
  });
  const longJob = (await scratch.boss.send(working, {}))!;
  await waitFor(async () => started, 'the long handler to start');
  // Taken without a handler (the stand-in for a worker that died holding it): its lease is never renewed.
  const abandonedJob = (await scratch.boss.send(abandoned, {}))!;
  expect((await scratch.boss.fetch(abandoned)).map((job) => job.id)).toEqual([abandonedJob]);

  const failed = await waitFor(async () => {
    const job = await jobOf(abandoned, abandonedJob);
    return job.state !== 'active' && job;
  }, 'the abandoned job to lose its lease', RETRIED_WITHIN_MS);
  expect(failed).toMatchObject({ state: 'retry', output: { value: { message: expect.stringContaining('lease ran out') } } });
  // The handler began before the abandoned job was taken: it has run longer than a lease, renewing it.
  expect(await jobOf(working, longJob)).toMatchObject({ state: 'active', retry_count: 0 });
  release();
  await waitFor(async () => (await jobOf(working, longJob)).state === 'completed', 'the long job to complete');
  expect(await jobOf(working, longJob)).toMatchObject({ state: 'completed', retry_count: 0 });
  await scratch.boss.offWork(working);
}, 60_000);

it('keeps a worker alive whose job finished while the scratch.database was unreachable, and tries that job again once it is back', async () => {
  const queue = `test-leases-lost-${randomUUID()}`;
  const server = new URL(scratch.database.url);
  const proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port) });
  const { child, lines } = await startWorker('gated-worker-process.ts', { DATABASE_URL: proxy.urlFor(scratch.database.url), QUEUE: queue }, 'working');
  try {
    const jobId = (await scratch.boss.send(queue, {}))!;
    const starts = () => lines.filter((line) => line.msg === 'started' && line.jobs.includes(jobId)).length;
    await waitFor(async () => starts() === 1, 'the worker to take the job');
    proxy.cut();
    // The handler ends; pg-boss records the outcome without awaiting it, on a connection that fails.
    child.kill('SIGUSR2');
    await waitFor(async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error('the worker died');
      return lines.some((line) => String(line.msg).startsWith('job queue error'));
    }, 'the lost completion to be logged');
    proxy.restore();
    // Its lease ran out while the outcome was lost: the job is tried again, by the same living worker.
    await waitFor(async () => starts() === 2, 'the job to be tried again', RETRIED_WITHIN_MS + 10_000);
    expect(child.exitCode).toBeNull();
    expect(await jobOf(queue, jobId)).toMatchObject({ state: 'active', retry_count: 1 });
  } finally {
    child.kill('SIGKILL');
    await proxy.close();
  }
}, 120_000);
