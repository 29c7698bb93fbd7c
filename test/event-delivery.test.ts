import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { openDomainOrm } from '../core/db/orm';
import { startJobQueue } from '../core/events/job-queue';
import { PublishedEvent } from '../core/events/outbox-event';
import { startOutboxRelay } from '../core/events/outbox-relay';
import { createLogger } from '../core/logger';
import { pointMigrations } from '../subgraphs/point/migrations';
import { LedgerService } from '../subgraphs/point/services/ledger.service';
import { pointEntities } from '../subgraphs/point/subgraph';
import { startTestPlatform, TestPlatform } from './support/test-platform';

const logger = createLogger('test', 'silent');
let platform: TestPlatform;
let boss: PgBoss;
let pointOrm: MikroORM<PostgreSqlDriver>;
const ledger = new LedgerService({ kind: 'never' });
const pointQueue = `test-events-points-${randomUUID()}`;

beforeAll(async () => {
  platform = await startTestPlatform();
  const url = process.env.TEST_DATABASE_URL!;
  pointOrm = await openDomainOrm({ url, schema: 'point', entities: pointEntities, migrations: pointMigrations });
  boss = await startJobQueue(url, logger, [pointQueue]);
  for (const type of ['points.earned', 'points.redeemed', 'points.expired']) await boss.subscribe(type, pointQueue);
});
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
  await pointOrm.close();
  await platform.close();
});

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Every job of `queue` for the given members, fetched in the queue's order until `count` arrived. */
async function receive(queue: string, memberIds: Set<string>, count: number): Promise<PublishedEvent[]> {
  const seen: PublishedEvent[] = [];
  await waitFor(async () => {
    const jobs = await boss.fetch<PublishedEvent>(queue, { batchSize: 100 });
    if (jobs.length > 0) await boss.complete(queue, jobs.map((job) => job.id));
    for (const job of jobs) if (memberIds.has(job.data.data.memberId as string)) seen.push(job.data);
    return seen.length >= count;
  }, `${count} events on ${queue}`);
  return seen;
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
      expect(events.filter((event) => event.data.memberId === memberId).map((event) => event.data.balanceAfter)).toEqual(expected);
    }
  });
});
