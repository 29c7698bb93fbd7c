import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { TcpProxy } from './support/tcp-proxy';
import { PLATFORM_START_TIMEOUT_MS, startTestPlatform, TestMember, TestPlatform, TestStaff } from './support/test-platform';
import { waitFor } from './support/wait-for';
import { WEBHOOK_FAN_OUT_QUEUE } from '../subgraphs/webhook/services/fan-out';

/** The request deadline of this platform (REQUEST_TIMEOUT_MS): short, so that a stalled database shows in seconds. */
const DEADLINE_MS = 3_000;

let database: ScratchDatabase;
let proxy: TcpProxy;
let platform: TestPlatform;
let admin: TestStaff;
let member: TestMember;

beforeAll(async () => {
  database = await createScratchDatabase('outage', { migrated: true });
  const server = new URL(database.url);
  proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port) });
  platform = await startTestPlatform({ DATABASE_URL: proxy.urlFor(database.url), REQUEST_TIMEOUT_MS: String(DEADLINE_MS), DATABASE_POOL_WAIT_MS: '1500', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  admin = await platform.createStaff('admin');
  member = await platform.loginMember();
}, PLATFORM_START_TIMEOUT_MS);

afterAll(async () => {
  proxy?.restore();
  await platform?.close();
  await proxy?.close();
  await database?.drop();
}, 60_000);

const earn = (amount: number, key: string = randomUUID()) =>
  platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId: member.id, amount }, headers: { 'Idempotency-Key': key } });
const get = (path: string) => platform.api('GET', path, { token: admin.token });
const ready = async (url: string) => (await fetch(url)).status;
const gatewayBase = () => platform.gatewayUrl.replace(/\/graphql$/, '');

/** Waits until both faces of the platform say they reach the database again. */
async function untilReady(): Promise<void> {
  await waitFor(async () => (await ready(`${platform.restUrl}/readyz`)) === 200 && (await ready(`${gatewayBase()}/readyz`)) === 200, 'the platform ready again', 30_000);
}

/** Ends every connection the platform has open on its database, from the server side (an operator's pg_terminate_backend). */
async function terminateBackends(): Promise<number> {
  const client = new Client({ connectionString: process.env.TEST_SERVER_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [new URL(database.url).pathname.slice(1)]);
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe('the database unreachable', () => {
  it('answers 503 with Retry-After on every surface, says not ready, and serves again once it is back', async () => {
    expect((await earn(10)).status).toBe(200);
    proxy.cut();

    const part1 = await get(`/point/api/balance/${member.id}`);
    expect(part1.status).toBe(503);
    expect(part1.headers.get('retry-after')).toBe('5');
    expect(part1.body).toEqual({ statusCode: 503, data: { message: expect.stringContaining('unavailable') } });

    const write = await earn(1);
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('5');

    const v1 = await get(`/api/v1/customers/${member.id}?include=points`);
    expect(v1.status).toBe(503);
    expect(v1.headers.get('retry-after')).toBe('5');
    expect(v1.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });

    const graphql = await platform.graphql('{ health { ok } }', {}, admin.token);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'UNAVAILABLE', retryAfter: 5 });
    expect(JSON.stringify(graphql.body)).not.toMatch(/Internal server error|stack/i);

    expect(await ready(`${platform.restUrl}/readyz`)).toBe(503);
    expect(await ready(`${gatewayBase()}/readyz`)).toBe(503);
    // A subgraph says it too (its port is internal: probed by its orchestrator, as docker-compose.yml does).
    expect(await ready(platform.subgraphUrls.point.replace(/\/graphql$/, '/readyz'))).toBe(503);
    expect(await ready(platform.subgraphUrls.point.replace(/\/graphql$/, '/livez'))).toBe(200);

    proxy.restore();
    await untilReady();
    await waitFor(async () => (await ready(platform.subgraphUrls.point.replace(/\/graphql$/, '/readyz'))) === 200, 'the point subgraph ready again', 30_000);
    expect((await get(`/point/api/balance/${member.id}`)).body.data.pointAmount).toBe(10);
    expect((await earn(5)).status).toBe(200);
    expect((await get(`/api/v1/customers/${member.id}?include=points`)).status).toBe(200);
  });

  it('answers 503 within the request deadline when the database stops answering, and serves again after', async () => {
    proxy.stall();
    const started = Date.now();
    const stalled = await get(`/point/api/balance/${member.id}`);
    const took = Date.now() - started;
    proxy.restore();
    expect(stalled.status).toBe(503);
    expect(stalled.headers.get('retry-after')).toBe('5');
    // The bound this test names: the platform's deadline, and a second for the answer to travel.
    expect(took).toBeLessThan(DEADLINE_MS + 1_000);
    await untilReady();
    expect((await get(`/point/api/balance/${member.id}`)).status).toBe(200);
  });

  it('survives its connections terminated under load: 2xx or 503, never 500, each key applied once, every event published', async () => {
    const before = Number((await get(`/point/api/balance/${member.id}`)).body.data.pointAmount);
    const keys = Array.from({ length: 60 }, () => randomUUID());
    const statuses: number[] = [];
    // Each earn is retried with its key until it is answered 2xx, as a careful client does.
    const earnUntilDone = async (key: string) => {
      for (;;) {
        const answer = await earn(1, key);
        statuses.push(answer.status);
        if (answer.status === 200) return;
        await waitFor(async () => (await ready(`${platform.restUrl}/readyz`)) === 200, 'ready to retry', 30_000);
      }
    };
    const load = Promise.all(keys.map((key, index) => new Promise((resolve) => setTimeout(resolve, index * 20)).then(() => earnUntilDone(key))));
    let terminated = 0;
    for (let round = 0; round < 3; round += 1) {
      await waitFor(async () => statuses.length > round * 15 && statuses, 'requests under way', 30_000);
      terminated += await terminateBackends();
    }
    await load;
    expect(terminated).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect((await get(`/point/api/balance/${member.id}`)).body.data.pointAmount).toBe(before + keys.length);
    const { rows } = await platform.sql.query(`select count(*)::int as entries from point.point_transaction where member_id = $1`, [member.id]);
    expect(rows[0].entries).toBe(2 + keys.length);
    await waitFor(async () => (await platform.sql.query('select count(*)::int as waiting from point.outbox_event where published_at is null')).rows[0].waiting === 0, 'every event published', 30_000);
  });

  it('records a webhook delivery the receiver took while the database went away once it is back, rather than send it again', async () => {
    // The earlier tests' events are fanned out before the webhook exists, so it gets this test's event alone
    // (one of theirs, claimed as the database went away, would wait for its lease to run out).
    const fanningOut = async () =>
      (await platform.sql.query(`select count(*)::int as open from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`, [WEBHOOK_FAN_OUT_QUEUE])).rows[0].open;
    await waitFor(async () => (await fanningOut()) === 0, 'the earlier events fanned out', 30_000);
    const receiver = await startFakeWebhookReceiver();
    try {
      const webhook = await platform.api('POST', '/api/v1/webhooks', { token: admin.token, body: { url: `${receiver.url}/outage`, events: ['points.earned'] } });
      expect(webhook.status).toBe(201);
      // The receiver takes the first event; the database is gone before the platform records that it did, and back 2 s later.
      let cuts = 0;
      receiver.behave('/outage', (_delivery, res) => {
        if (cuts++ === 0) {
          proxy.cut();
          setTimeout(() => proxy.restore(), 2_000);
        }
        res.writeHead(200).end('ok');
      });
      expect((await earn(3)).status).toBe(200);
      const deliveries = async () => (await platform.api('GET', `/api/v1/webhooks/${webhook.body.data.id}/deliveries?limit=100`, { token: admin.token })).body?.data ?? [];
      const earned = () => receiver.on('/outage').find((delivery) => JSON.parse(delivery.body).data.points === 3);
      const recorded = async () => {
        const list: Array<{ status: string }> = await deliveries();
        return earned() && list.length === receiver.on('/outage').length && list.every((delivery) => delivery.status === 'succeeded');
      };
      await waitFor(recorded, 'a succeeded delivery for each request the receiver took', 30_000);
      expect(cuts).toBeGreaterThan(0);
      // Each event reached the receiver once, and each delivery took one attempt: none was sent again.
      const ids = receiver.on('/outage').map((delivery) => delivery.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect((await deliveries()).map((delivery: { attempts: number }) => delivery.attempts)).toEqual(ids.map(() => 1));
    } finally {
      receiver.behave('/outage', 200);
      await receiver.close();
    }
  }, 60_000);
});
