import { MikroORM } from '@mikro-orm/core';
import { event } from '../core/events/event-type';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { listDeadLetters, listParked, replayDeadLetters } from '../core/events/dead-letters';
import { startEventConsumer } from '../core/events/event-consumer';
import { JOB_QUEUE_SCHEMA, startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { PublishedEvent, recordEvent } from '../core/events/outbox-event';
import { startOutboxRelay } from '../core/events/outbox-relay';
import { createLogger } from '../core/logger';
import { openModuleOrm } from '../core/module';
import { Segment } from '../subgraphs/cluster/entities/segment';
import { clusterModule } from '../subgraphs/cluster/module';
import { pointModule } from '../subgraphs/point/module';
import { LedgerService } from '../subgraphs/point/services/ledger.service';
import { usePlatform } from './support/use-platform';
import { sendAndWait, waitFor as waitUntil } from './support/wait-for';

const execFileAsync = promisify(execFile);
const logger = createLogger('test', 'silent');
const { platform } = usePlatform();
let boss: PgBoss;
let pointOrm: MikroORM<PostgreSqlDriver>;
const ledger = new LedgerService({ kind: 'never' });
const pointQueue = `test-events-points-${randomUUID()}`;

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL!;
  pointOrm = await openModuleOrm(pointModule, url);
  boss = await startJobQueue(url, logger, [pointQueue]);
  for (const type of ['points.earned', 'points.redeemed', 'points.expired']) await boss.subscribe(type, pointQueue);
});
afterAll(async () => {
  await stopJobQueue(boss);
  await pointOrm.close();
});

/**
 * 300 earns through four relays: every queue subscribed to points events (the platform's own consumers too)
 * gets its jobs and works them on the same cores, so under a loaded CI the test may outlast jest's 30 s.
 */
const BUSY_RELAY_TIMEOUT_MS = 120_000;

/** Retries with backoff take a while: these waits allow 30 s. */
const waitFor = <T>(probe: () => Promise<T | undefined | null | false>, what: string) => waitUntil(probe, what, 30_000);

/**
 * Every job of `queue` for the given members, in the queue's order (pg-boss hands jobs out by created_on,
 * then id), once `count` arrived. Read from the job table: the rows of one `fetch` come back in no set order.
 */
async function receive(queue: string, memberIds: Set<string>, count: number): Promise<PublishedEvent[]> {
  return waitFor(async () => {
    const { rows } = await platform.sql.query<{ data: PublishedEvent }>(
      `select data from ${JOB_QUEUE_SCHEMA}.job where name = $1 and data->'data'->>'memberId' = any($2) order by created_on, id`,
      [queue, [...memberIds]],
    );
    return rows.length >= count && rows.map((row) => row.data);
  }, `${count} events on ${queue}`);
}

describe('the outbox relay', () => {
  it('publishes each member’s events in commit order while several relays run on the same domain', async () => {
    const members = Array.from({ length: 12 }, () => randomUUID());
    const perMember = 25;
    const relays = Array.from({ length: 4 }, () => startOutboxRelay(pointOrm, boss, logger));
    try {
      // Every earn of a member waits for the member's balance lock: its balanceAfter is its commit position.
      await Promise.all(
        members.flatMap((memberId) =>
          Array.from({ length: perMember }, () => pointOrm.em.fork().transactional((em) => ledger.earn(em, { memberId, amount: '1' }))),
        ),
      );
      const unpublished = async () =>
        Number((await platform.sql.query(`select count(*) from point.outbox_event where published_at is null and payload->>'memberId' = any($1)`, [members])).rows[0].count);
      while ((await unpublished()) > 0) await Promise.all(relays.map((relay) => relay.drain()));
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
    }
    const events = await receive(pointQueue, new Set(members), members.length * perMember);
    const expected = Array.from({ length: perMember }, (_, index) => `${index + 1}.00`);
    for (const memberId of members) {
      const stream = events.filter((event) => event.data.memberId === memberId);
      expect(stream.map((event) => event.data.balanceAfter)).toEqual(expected);
      // Each message names its stream and the one before it in this queue.
      expect(stream.map((event) => [event.source, event.aggregateId, event.previousSequence])).toEqual(
        stream.map((_, index) => ['point', memberId, index === 0 ? null : stream[index - 1].sequence]),
      );
    }
  }, BUSY_RELAY_TIMEOUT_MS);

  it('numbers a member’s events in commit order, even when the later writer inserted first', async () => {
    const memberId = randomUUID();
    let inserted!: () => void;
    const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const write = (name: string, hold?: Promise<void>) =>
      pointOrm.em.fork().transactional(async (em) => {
        recordEvent(em, event<{ memberId: string }>(`test.${name}`), { memberId }, { aggregateId: memberId });
        await em.flush();
        if (hold) {
          inserted();
          await hold;
        }
      });
    const first = write('first', released);
    await firstInserted;
    let secondDone = false;
    const second = write('second').finally(() => (secondDone = true));
    // The second writer waits for the member's lock until the first commits (without the lock, it commits first).
    await waitFor(async () => {
      if (secondDone) return true;
      const { rows } = await platform.sql.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like $1`, [`%${memberId}%`]);
      return rows.length > 0;
    }, 'the second writer to wait or commit');
    // The commit order, as the database decided it: the first is held open until released, so a second
    // writer done by then committed first; one seen waiting on the member's lock commits after the first.
    const commits = secondDone ? ['test.second', 'test.first'] : ['test.first', 'test.second'];
    release();
    await Promise.all([first, second]);
    const { rows } = await platform.sql.query(`select type from point.outbox_event where aggregate_id = $1 order by sequence`, [memberId]);
    expect(rows.map((row) => row.type)).toEqual(commits);
    expect(commits).toEqual(['test.first', 'test.second']);
  });
});

it('gives the platform’s consumer and scheduled-job queues a retry policy with backoff and a dead-letter queue', async () => {
  const queues = ['cluster.points', 'cluster.badges', 'cluster.members', 'cluster.tier-expiry', 'point.expire-lots'];
  const { rows } = await platform.sql.query(`select name, retry_backoff, dead_letter from pgboss.queue where name = any($1) order by name`, [queues]);
  expect(rows).toEqual([...queues].sort().map((name) => ({ name, retry_backoff: true, dead_letter: `${name}.dead-letter` })));
});

describe('an event consumer', () => {
  const queue = `test-events-consumer-${randomUUID()}`;
  let clusterOrm: MikroORM<PostgreSqlDriver>;
  let pool: Pool;
  /** The events (member, balance after) that fail until the fault is "fixed", and how often each was tried. */
  const failing = new Set<string>();
  const attempts = new Map<string, number>();
  /** Members whose events also rename a segment (an entity change) to the balance they carry, before failing or not. */
  const renames = new Map<string, string>();

  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL!;
    clusterOrm = await openModuleOrm(clusterModule, url);
    pool = new Pool({ connectionString: url, max: 2 });
    await pool.query(`create schema if not exists event_test;
      create table if not exists event_test.applied (position bigserial primary key, queue text not null, member_id text not null, balance_after text not null)`);
    await startEventConsumer<{ memberId: string; balanceAfter: string }>({
      orm: clusterOrm,
      boss,
      logger,
      queue,
      events: ['points.earned', 'points.redeemed'],
      retry: { retryLimit: 2, retryDelay: 1 },
      apply: async (em, event) => {
        const { memberId, balanceAfter } = event.data;
        const key = `${memberId}:${balanceAfter}`;
        const segmentId = renames.get(memberId);
        if (segmentId) (await em.findOneOrFail(Segment, segmentId)).name_en = `renamed by ${balanceAfter}`;
        if (failing.has(key)) {
          attempts.set(key, (attempts.get(key) ?? 0) + 1);
          throw new Error(`cannot apply ${balanceAfter} of ${memberId}`);
        }
        await em.execute('insert into event_test.applied (queue, member_id, balance_after) values (?, ?, ?)', [queue, memberId, balanceAfter]);
      },
    });
  });
  afterAll(async () => {
    await boss.offWork(queue);
    await pool.end();
    await clusterOrm.close();
  });

  const earnOne = (memberId: string) => pointOrm.em.fork().transactional((em) => ledger.earn(em, { memberId, amount: '1' }));
  const applied = async (memberId: string) =>
    (await pool.query('select balance_after from event_test.applied where queue = $1 and member_id = $2 order by position', [queue, memberId])).rows.map(
      (row) => row.balance_after,
    );
  const parked = async (memberId: string) => (await listParked(pool, queue)).filter((event) => event.aggregate === `point:${memberId}`);
  const deadLetterOf = async (memberId: string) => (await listDeadLetters(pool, queue)).find((letter) => letter.aggregate === `point:${memberId}`);

  it('retries a failing event with backoff, dead-letters it and holds back only that member; a replay applies it, then the parked ones', async () => {
    const [stuck, other, viaCli] = [randomUUID(), randomUUID(), randomUUID()];
    failing.add(`${stuck}:2.00`).add(`${viaCli}:2.00`);
    for (let index = 0; index < 4; index++) await Promise.all([earnOne(stuck), earnOne(viaCli), earnOne(other)]);

    // The other member's events go on; the failing event was tried 1 + retryLimit times, then dead-lettered.
    await waitFor(async () => (await applied(other)).length === 4, "the other member's events");
    const deadLetter = await waitFor(() => deadLetterOf(stuck), 'the dead letter');
    await waitFor(() => deadLetterOf(viaCli), 'the second dead letter');
    expect(deadLetter).toMatchObject({ queue, type: 'points.earned', error: `cannot apply 2.00 of ${stuck}` });
    expect(attempts.get(`${stuck}:2.00`)).toBe(3);
    const { rows: failed } = await pool.query(
      `select state, retry_count, retry_limit, retry_backoff from pgboss.job where name = $1 and data->>'id' = $2`,
      [queue, deadLetter!.eventId],
    );
    expect(failed).toEqual([{ state: 'failed', retry_count: 2, retry_limit: 2, retry_backoff: true }]);
    // The member's later events wait, parked behind it.
    expect(await applied(stuck)).toEqual(['1.00']);
    await waitFor(async () => (await parked(stuck)).length === 2, 'the parked events');
    expect((await parked(stuck)).map((event) => event.waitsFor)).toEqual([deadLetter!.sequence, expect.any(String)]);

    // The fault is fixed; the operator replays the dead letter: it is applied, then the parked ones, in order.
    failing.delete(`${stuck}:2.00`);
    failing.delete(`${viaCli}:2.00`);
    expect(await replayDeadLetters(pool, boss, queue, [deadLetter!.id])).toEqual([deadLetter]);
    await waitFor(async () => (await applied(stuck)).length === 4, 'the replayed stream');
    expect(await applied(stuck)).toEqual(['1.00', '2.00', '3.00', '4.00']);
    expect(await parked(stuck)).toEqual([]);
    expect(await deadLetterOf(stuck)).toBeUndefined();

    // The same through the command line.
    const cli = (...args: string[]) =>
      execFileAsync(process.execPath, ['-r', '@swc-node/register', 'bin/events.ts', ...args], {
        cwd: join(__dirname, '..'),
        env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL },
      });
    const listed = await cli('dead-letters', queue);
    expect(listed.stdout).toContain(`point:${viaCli}`);
    expect(listed.stdout).not.toContain(`point:${stuck}`);
    expect((await cli('parked', queue)).stdout).toContain(`point:${viaCli}`);
    expect((await cli('replay', queue)).stdout).toContain(`Replayed 1 dead letter(s) on ${queue}.`);
    await waitFor(async () => (await applied(viaCli)).length === 4, 'the stream replayed from the command line');
    expect(await applied(viaCli)).toEqual(['1.00', '2.00', '3.00', '4.00']);
    expect((await cli('dead-letters', queue)).stdout).toContain('No dead letters.');
  }, 90_000);

  it('puts a parked event that fails when its turn comes back on the queue, where it gets its own retries', async () => {
    const memberId = randomUUID();
    failing.add(`${memberId}:2.00`).add(`${memberId}:3.00`);
    for (let index = 0; index < 4; index++) await earnOne(memberId);
    const second = await waitFor(() => deadLetterOf(memberId), 'the dead letter of the second event');
    await waitFor(async () => (await parked(memberId)).length === 2, 'the parked events');
    failing.delete(`${memberId}:2.00`);
    await replayDeadLetters(pool, boss, queue, [second!.id]);
    // The second event is applied; the third fails in its turn, goes back on the queue and is dead-lettered in turn.
    const third = await waitFor(async () => {
      const letter = await deadLetterOf(memberId);
      return letter?.eventId !== second!.eventId && letter;
    }, 'the dead letter of the third event');
    expect(third).toMatchObject({ error: `cannot apply 3.00 of ${memberId}` });
    expect(Number(third.sequence)).toBeGreaterThan(Number(second!.sequence));
    expect(await applied(memberId)).toEqual(['1.00', '2.00']);
    expect(await parked(memberId)).toEqual([expect.objectContaining({ waitsFor: third.sequence })]);
    failing.delete(`${memberId}:3.00`);
    await replayDeadLetters(pool, boss, queue);
    await waitFor(async () => (await applied(memberId)).length === 4, 'the rest of the stream');
    expect(await applied(memberId)).toEqual(['1.00', '2.00', '3.00', '4.00']);
  }, 90_000);

  it('keeps no entity change of a parked event that failed: the events applied before it commit without it', async () => {
    const [memberId, segmentId] = [randomUUID(), randomUUID()];
    await pool.query(`insert into cluster.segment (id, name_en, type, created_at, updated_at) values ($1, $2, 'manual', now(), now())`, [segmentId, `segment ${segmentId}`]);
    renames.set(memberId, segmentId);
    failing.add(`${memberId}:2.00`);
    const chained = (sequence: number) => ({
      id: randomUUID(),
      type: 'points.earned',
      source: 'point',
      aggregateId: memberId,
      sequence: String(sequence),
      previousSequence: sequence === 1 ? null : String(sequence - 1),
      occurredAt: new Date().toISOString(),
      data: { memberId, balanceAfter: `${sequence}.00` },
    });
    const [first, second] = [chained(1), chained(2)];
    await sendAndWait(boss, queue, second, 30_000); // parked behind the first
    await sendAndWait(boss, queue, first, 30_000); // applied; the parked second fails in its turn and goes back on the queue
    const letter = await waitFor(() => deadLetterOf(memberId), 'the dead letter of the second event');
    expect(letter).toMatchObject({ eventId: second.id, error: `cannot apply 2.00 of ${memberId}` });
    expect(await applied(memberId)).toEqual(['1.00']);
    const { rows } = await pool.query('select name_en from cluster.segment where id = $1', [segmentId]);
    expect(rows).toEqual([{ name_en: 'renamed by 1.00' }]);
  });

  it('changes nothing when an event is delivered again', async () => {
    const memberId = randomUUID();
    for (let index = 0; index < 2; index++) await earnOne(memberId);
    await waitFor(async () => (await applied(memberId)).length === 2, 'the events');
    const { rows } = await pool.query<{ data: PublishedEvent }>(`select data from pgboss.job where name = $1 and data->'data'->>'memberId' = $2 order by created_on, id`, [
      queue,
      memberId,
    ]);
    expect(rows.map((row) => row.data.previousSequence)).toEqual([null, rows[0].data.sequence]);
    // Each message again, the earlier one last: a repeat of a stream position is a no-op.
    await sendAndWait(boss, queue, rows[1].data, 30_000);
    await sendAndWait(boss, queue, rows[0].data, 30_000);
    // An event without a stream is applied once by its id.
    const loose = { id: randomUUID(), type: 'points.earned', occurredAt: new Date().toISOString(), data: { memberId, balanceAfter: 'loose' } };
    await sendAndWait(boss, queue, loose, 30_000);
    await sendAndWait(boss, queue, loose, 30_000);
    expect(await applied(memberId)).toEqual(['1.00', '2.00', 'loose']);
  });
});
