import { FakeChatapp, startFakeChatapp } from './support/fake-chatapp';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { useTempDirs } from './support/temp-dirs';
import { unique } from './support/test-platform';
import { waitFor } from './support/wait-for';

// The whole platform as a child process (`bin/start.ts`, one worker) on a database of its own: killed
// with SIGKILL while a delivery is in flight, then started again on the same database.
const tempDir = useTempDirs('loyalty-webhook-crash-');
const ADMIN = { email: 'crash-admin@example.com', password: 'crash-admin-password' };
let database: ScratchDatabase;
let chatapp: FakeChatapp;
let receiver: FakeWebhookReceiver;
let env: Record<string, string>;

const platformProcess = new PlatformProcess(() => env);

beforeAll(async () => {
  [database, chatapp, receiver] = await Promise.all([createScratchDatabase('loyalty_webhook_crash'), startFakeChatapp(), startFakeWebhookReceiver()]);
  env = platformProcessEnv({ databaseUrl: database.url, dataDir: tempDir(), admin: ADMIN, chatappUrl: chatapp.url }, {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE: '1,1',
  });
}, 60_000);

afterAll(async () => {
  await platformProcess.kill('SIGKILL');
  await Promise.all([receiver.close(), chatapp.close()]);
  await database.drop();
});

it('attempts after a restart the delivery that was in flight when the delivering process was killed', async () => {
  let rest = await platformProcess.start();
  const admin = (await callRest(rest, 'POST', '/auth/api/staffs/login', ADMIN)).body.data.data.accessToken as string;
  const path = `/${unique('crash')}`;
  receiver.behave(path, 'hang');
  const created = await callRest(rest, 'POST', '/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['transaction.completed'] }, admin);
  expect(created.status).toBe(201);
  const webhookId = created.body.data.id;

  const member = (await callRest(rest, 'POST', '/auth/api/members/chatapp/login', { code: unique('code') })).body.data.data.accessToken as string;
  const memberId = (await fetch(`${rest}/auth/api/members/me`, { headers: { authorization: `Bearer ${member}` } }).then((r) => r.json() as any)).data.data.id;
  const recorded = await callRest(rest, 'POST', '/api/v1/transactions', { customer_id: memberId, amount: 10 }, admin);
  expect(recorded.status).toBe(201);

  // The attempt is in flight (the receiver holds it), not yet recorded: then the process dies.
  const [inFlight] = await waitFor(async () => receiver.on(path).length > 0 && receiver.on(path), 'the attempt to reach the receiver');
  await platformProcess.kill('SIGKILL');
  receiver.behave(path, 200);

  rest = await platformProcess.start();
  const admin2 = (await callRest(rest, 'POST', '/auth/api/staffs/login', ADMIN)).body.data.data.accessToken as string;
  const [, retried] = await waitFor(async () => receiver.on(path).length > 1 && receiver.on(path), 'the attempt after the restart', 30_000);
  expect(retried.headers['webhook-id']).toBe(inFlight.headers['webhook-id']);
  expect(retried.body).toBe(inFlight.body);
  const log = await waitFor(
    async () => {
      const { body } = await callRest(rest, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`, undefined, admin2);
      return body.data[0]?.status === 'succeeded' && body;
    },
    'the delivery recorded as succeeded',
  );
  // The killed attempt was never recorded; the one after the restart was.
  expect(log.data).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 1, last_status_code: 200 })]);
  await platformProcess.kill('SIGTERM');
}, 150_000);
