import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { FakeChatapp, startFakeChatapp } from './support/fake-chatapp';
import { FakeSms, startFakeSms } from './support/fake-sms';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS } from './support/test-platform';
import { waitFor } from './support/wait-for';

// The whole platform as a child process (`bin/start.ts`, one worker) on a database of its own, killed
// with SIGKILL in the middle of a send and started again on the same database (as the webhook crash test).
const tempDir = useTempDirs('loyalty-notification-crash-');
const ADMIN = { email: 'notify-crash-admin@example.com', password: 'notify-crash-admin-password' };
const CUSTOMERS = 1000;
let database: ScratchDatabase;
let chatapp: FakeChatapp;
let sms: FakeSms;
let pool: Pool;
let env: Record<string, string>;
const customerIds = Array.from({ length: CUSTOMERS }, () => randomUUID());
const phoneOf = (index: number) => `+669${String(index).padStart(8, '0')}`;

const platformProcess = new PlatformProcess(() => env);
const login = async (rest: string) => (await callRest(rest, 'POST', '/auth/api/staffs/login', ADMIN)).body.data.data.accessToken as string;
const count = async (sql: string, params: unknown[]) => Number((await pool.query(sql, params)).rows[0].count);

beforeAll(async () => {
  [database, chatapp, sms] = await Promise.all([createScratchDatabase('loyalty_notify_crash'), startFakeChatapp(), startFakeSms()]);
  pool = new Pool({ connectionString: database.url, max: 2 });
  env = platformProcessEnv({ databaseUrl: database.url, dataDir: tempDir(), admin: ADMIN, chatappUrl: chatapp.url }, {
    SMS_URL: sms.url,
    NOTIFY_BATCH_SIZE: '5',
    // Far longer than the wait below for the held message to be alone in flight: it must still be in
    // flight (not failed at its deadline) when the process is killed. Its lease runs out 10 s after that.
    NOTIFY_CHANNEL_TIMEOUT_MS: '10000',
    NOTIFY_RETRY_SCHEDULE: '1',
    RATE_LIMIT_STANDARD_PER_HOUR: '1000000',
  });
}, 60_000);

afterAll(async () => {
  await platformProcess.kill('SIGKILL');
  await pool?.end();
  await Promise.all([sms?.close(), chatapp?.close()]);
  await database?.drop();
});

it('a send killed mid-way finishes after a restart: every customer gets exactly one message', async () => {
  let rest = await platformProcess.start();
  await pool.query(
    `insert into auth.member (id, name, phone_number, status, created_at, updated_at) select id, 'Crash customer', phone, 'ACTIVE', now(), now() from unnest($1::uuid[], $2::text[]) as t(id, phone)`,
    [customerIds, customerIds.map((_id, index) => phoneOf(index))],
  );

  // In-app, 5 per transaction: killed once some batches are in, far from all.
  let token = await login(rest);
  const inApp = await callRest(rest, 'POST', '/api/v1/notifications/send', { customer_ids: customerIds, title: 'Crash in-app', body: 'b', channel: 'in_app' }, token);
  expect(inApp.status).toBe(202);
  const inAppId = inApp.body.data.notification_id;
  await waitFor(async () => (await count(`select count(*) from notification.delivery where notification_id = $1 and status = 'delivered'`, [inAppId])) >= 50, 'some in-app deliveries');
  await platformProcess.kill('SIGKILL');
  const deliveredAtKill = await count(`select count(*) from notification.delivery where notification_id = $1 and status = 'delivered'`, [inAppId]);
  expect(deliveredAtKill).toBeLessThan(CUSTOMERS);

  rest = await platformProcess.start();
  token = await login(rest);
  await waitFor(async () => (await count(`select count(*) from notification.v1_notification where id = $1 and status = 'completed'`, [inAppId])) === 1, 'the in-app send completed after the restart', 90_000);
  const done = (await callRest(rest, 'GET', `/api/v1/notifications/${inAppId}`, undefined, token)).body.data;
  expect(done).toMatchObject({ total_recipients: CUSTOMERS, delivered: CUSTOMERS, failed: 0 });
  const copies = (await pool.query(`select count(*)::int as total, count(distinct member_id)::int as members from notification.in_app_notification where metadata->>'notificationId' = $1`, [inAppId])).rows[0];
  expect(copies).toEqual({ total: CUSTOMERS, members: CUSTOMERS });
  expect(await count(`select count(*) from notification.outbox_event where type = 'notification.delivered' and payload->>'notificationId' = $1`, [inAppId])).toBe(CUSTOMERS);

  // SMS: the gateway holds one message unanswered; the process dies while it is in flight.
  const smsCustomers = customerIds.slice(0, 30);
  const held = phoneOf(7);
  sms.answer(held, ['hang']);
  const sent = await callRest(rest, 'POST', '/api/v1/notifications/send', { customer_ids: smsCustomers, title: 'Crash sms', body: 'b', channel: 'sms' }, token);
  expect(sent.status).toBe(202);
  const smsId = sent.body.data.notification_id;
  // The held message is in flight and every other attempt is settled.
  await waitFor(
    async () => sms.requests.some((request) => request.to === held) && (await count(`select count(*) from notification.delivery where notification_id = $1 and status = 'sending'`, [smsId])) === 1,
    'the held message alone in flight',
  );
  await platformProcess.kill('SIGKILL');

  rest = await platformProcess.start();
  token = await login(rest);
  await waitFor(async () => (await count(`select count(*) from notification.v1_notification where id = $1 and status = 'completed'`, [smsId])) === 1, 'the sms send completed after the restart', 90_000);
  const smsDone = (await callRest(rest, 'GET', `/api/v1/notifications/${smsId}`, undefined, token)).body.data;
  // Nothing twice: the message in flight at the kill is not sent again (its outcome is unknown: failed).
  for (let index = 0; index < 30; index++) expect(sms.requests.filter((request) => request.to === phoneOf(index))).toHaveLength(1);
  expect(smsDone).toMatchObject({ total_recipients: 30, delivered: 29, failed: 1 });
  const [interrupted] = (await pool.query(`select d.last_error from notification.delivery d join auth.member m on m.id = d.customer_id where d.notification_id = $1 and m.phone_number = $2`, [smsId, held])).rows;
  expect(interrupted.last_error).toMatch(/interrupted while sending/);
  await platformProcess.kill('SIGTERM');
}, 3 * PLATFORM_START_TIMEOUT_MS + 240_000);
