import { randomUUID } from 'node:crypto';
import { openDomainOrm } from '../../core/db/orm';
import { listDeadLetters, listParked } from '../../core/events/dead-letters';
import { consumerParkedFlagSql, consumerTablesSql, startEventConsumer } from '../../core/events/event-consumer';
import { JOB_QUEUE_SCHEMA } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { chainedEvent, consumerScratch } from '../support/consumer-scratch';
import { waitFor } from '../support/wait-for';

const SCHEMA = 'consumer_test';
const EVENT_TYPE = 'test.counted';
const logger = createLogger('test', 'silent');
const scratch = consumerScratch('svc_consumer', SCHEMA, `create table ${SCHEMA}.applied (position bigserial primary key, queue text not null, aggregate_id text not null, sequence bigint not null)`);

const chained = (memberId: string, sequence: number) => chainedEvent(EVENT_TYPE, memberId, sequence);

const appliedOf = async (queue: string, memberId: string) =>
  (await scratch.pool.query(`select sequence::int from ${SCHEMA}.applied where queue = $1 and aggregate_id = $2 order by position`, [queue, memberId])).rows.map((row) => row.sequence);
const statesOf = async (queue: string) =>
  (await scratch.pool.query(`select state from ${JOB_QUEUE_SCHEMA}.job where name = $1 order by created_on, id`, [queue])).rows.map((row) => row.state);

// Held: the stream's first event (its position row is being inserted), or a later one (the row exists).
it.each([1, 2])('applies a member’s events once and in order while several workers take them at the same time: a redelivery of event %i and the next event wait for it', async (held) => {
  const queue = `test-consumer-concurrent-${randomUUID()}`;
  const memberId = randomUUID();
  const stream = [1, 2, 3].map((sequence) => chained(memberId, sequence));
  const heldEvent = stream[held - 1];
  let started!: () => void;
  const heldStarted = new Promise<void>((resolve) => (started = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  // Three workers of the queue, one job each at a time: one holds the held event's transaction open.
  for (let worker = 0; worker < 3; worker++) {
    await startEventConsumer({
      orm: scratch.orm,
      boss: scratch.boss,
      logger,
      queue,
      events: [EVENT_TYPE],
      batchSize: 1,
      apply: async (em, event) => {
        if (event.id === heldEvent.id && holding) {
          holding = false;
          started();
          await released;
        }
        await em.execute(`insert into ${SCHEMA}.applied (queue, aggregate_id, sequence) values (?, ?, ?)`, [queue, memberId, event.sequence]);
      },
    });
  }
  try {
    for (const event of stream.slice(0, held - 1)) await scratch.boss.send(queue, event);
    await waitFor(async () => (await appliedOf(queue, memberId)).length === held - 1, 'the events before the held one');
    await scratch.boss.send(queue, heldEvent);
    await heldStarted;
    // The same event again (a redelivery) and the next one, taken by the two other workers: both wait for the held one.
    await scratch.boss.send(queue, heldEvent);
    await scratch.boss.send(queue, stream[held]);
    await waitFor(async () => {
      const { rows } = await scratch.pool.query(`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and query like $1`, [`%${memberId}%`]);
      return rows[0].waiting === 2;
    }, 'the redelivery and the next event to wait for the held one');
    release();
    await waitFor(async () => (await statesOf(queue)).every((state) => state === 'completed'), 'every job to complete');
    expect(await statesOf(queue)).toEqual(Array(held + 2).fill('completed'));
    expect(await appliedOf(queue, memberId)).toEqual(stream.slice(0, held + 1).map((event) => Number(event.sequence)));
    expect(await listParked(scratch.pool, queue)).toEqual([]);
    expect(await listDeadLetters(scratch.pool, queue)).toEqual([]);
  } finally {
    release();
    await scratch.boss.offWork(queue);
  }
});

it('applies, once their predecessor arrives, the events a consumer had parked before its positions said which streams have parked events', async () => {
  const schema = 'consumer_upgrade_test';
  const queue = `test-consumer-upgrade-${randomUUID()}`;
  const memberId = randomUUID();
  const [, second, third] = [1, 2, 3].map((sequence) => chained(memberId, sequence));
  // The tables as before the upgrade: the first event applied, the third parked behind the second.
  await scratch.pool.query(`create schema ${schema}; ${consumerTablesSql(schema)}`);
  await scratch.pool.query(`insert into ${schema}.event_position (queue, source, aggregate_id, last_sequence) values ($1, 'test', $2, 1)`, [queue, memberId]);
  await scratch.pool.query(
    `insert into ${schema}.parked_event (queue, source, aggregate_id, sequence, previous_sequence, event_id, type, message) values ($1, 'test', $2, 3, 2, $3, $4, $5)`,
    [queue, memberId, third.id, EVENT_TYPE, JSON.stringify(third)],
  );
  await scratch.pool.query(consumerParkedFlagSql(schema));
  const upgraded = await openDomainOrm({ url: scratch.database.url, schema, entities: [], migrations: {} });
  try {
    await startEventConsumer({
      orm: upgraded,
      boss: scratch.boss,
      logger,
      queue,
      events: [EVENT_TYPE],
      apply: (em, event) => em.execute(`insert into ${SCHEMA}.applied (queue, aggregate_id, sequence) values (?, ?, ?)`, [queue, memberId, event.sequence]),
    });
    await scratch.boss.send(queue, second);
    await waitFor(async () => (await appliedOf(queue, memberId)).length === 2, 'the second event and the parked third');
    expect(await appliedOf(queue, memberId)).toEqual([2, 3]);
    expect(await listParked(scratch.pool, queue)).toEqual([]);
    const { rows } = await scratch.pool.query(`select last_sequence::int as last, parked from ${schema}.event_position where queue = $1`, [queue]);
    expect(rows).toEqual([{ last: 3, parked: false }]);
  } finally {
    await scratch.boss.offWork(queue);
    await upgraded.close();
  }
});
