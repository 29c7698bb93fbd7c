import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { PublishedEvent } from '../core/events/outbox-event';
import { createLogger } from '../core/logger';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const { platform, admin } = usePlatform({ staff: ['admin'] });
let boss: PgBoss;
const queue = `test-point-events-${randomUUID()}`;

beforeAll(async () => {
  boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'), [queue]);
  for (const type of ['points.earned', 'points.redeemed', 'points.expired']) await boss.subscribe(type, queue);
});
afterAll(() => stopJobQueue(boss));

const earn = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  platform.api('POST', '/point/api/earn', { token: admin.token, body, headers });
const spend = (body: Record<string, unknown>) => platform.api('POST', '/point/api/spend', { token: admin.token, body });
const outbox = async (memberId: string) =>
  (await platform.sql.query(`select type, payload, published_at from point.outbox_event where payload->>'memberId' = $1 order by sequence`, [memberId])).rows;

const waitForRows = (memberId: string, done: (rows: Awaited<ReturnType<typeof outbox>>) => boolean) =>
  waitFor(async () => {
    const rows = await outbox(memberId);
    return done(rows) && rows;
  }, 'the outbox rows', 15_000);

/** Jobs the subscribed queue received for the member, fetched until `count` have arrived. */
async function received(memberId: string, count: number): Promise<PublishedEvent[]> {
  const seen: PublishedEvent[] = [];
  await waitFor(async () => {
    const jobs = await boss.fetch<PublishedEvent>(queue, { batchSize: 50 });
    for (const job of jobs) {
      await boss.complete(queue, job.id);
      if (job.data.data.memberId === memberId) seen.push(job.data);
    }
    return seen.length >= count;
  }, `${count} events of the member`, 15_000);
  return seen;
}

it('commits an event with every earn and spend, and the relay publishes it on the job queue', async () => {
  const member = await platform.loginMember();
  expect((await earn({ memberId: member.id, amount: 30, purchaseAmount: 300, shopId: 'shop-9' })).status).toBe(200);
  expect((await spend({ memberId: member.id, amount: 12 })).status).toBe(200);
  const events = await received(member.id, 2);
  expect(events.map((event) => event.type)).toEqual(['points.earned', 'points.redeemed']);
  expect(events[0]).toMatchObject({
    id: expect.any(String),
    occurredAt: expect.any(String),
    data: { memberId: member.id, actionType: 'EARN', amount: '30.00', purchaseAmount: '300.00', shopId: 'shop-9', balanceAfter: '30.00' },
  });
  expect(events[1].data).toMatchObject({ actionType: 'SPEND', amount: '12.00', balanceAfter: '18.00' });
  // The relay marks an event published when its own transaction commits, just after handing it over.
  const rows = await waitForRows(member.id, (all) => all.every((row) => row.published_at !== null));
  expect(rows.map((row) => row.type)).toEqual(['points.earned', 'points.redeemed']);
  const { rows: ledger } = await platform.sql.query('select id from point.point_transaction where member_id = $1 order by created_at, id', [member.id]);
  expect(events.map((event) => event.data.transactionId)).toEqual(ledger.map((row) => row.id));
});

it('writes no event for a change that was rolled back', async () => {
  const member = await platform.loginMember();
  await earn({ memberId: member.id, amount: 5 });
  expect((await spend({ memberId: member.id, amount: 6 })).status).toBe(400);
  const key = { 'idempotency-key': randomUUID() };
  await earn({ memberId: member.id, amount: 1 }, key);
  expect((await earn({ memberId: member.id, amount: 2 }, key)).status).toBe(409);
  expect((await earn({ memberId: member.id, amount: 1 }, key)).status).toBe(200);
  expect((await outbox(member.id)).map((row) => `${row.type}:${row.payload.amount}`)).toEqual(['points.earned:5.00', 'points.earned:1.00']);
});

it('announces expiries as points.expired', async () => {
  const member = await platform.loginMember();
  await earn({ memberId: member.id, amount: 9 });
  await platform.sql.query(`update point.point_lot set expires_at = now() - interval '1 day' where member_id = $1`, [member.id]);
  await earn({ memberId: member.id, amount: 1 });
  const events = await received(member.id, 3);
  expect(events.map((event) => `${event.type}:${event.data.amount}`)).toEqual(['points.earned:9.00', 'points.expired:9.00', 'points.earned:1.00']);
});
