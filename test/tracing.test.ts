import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { FakeChatapp, startFakeChatapp } from './support/fake-chatapp';
import { FakeOtlpReceiver, ReceivedSpan, startFakeOtlpReceiver } from './support/fake-otlp-receiver';
import { FakeSms, startFakeSms } from './support/fake-sms';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS, unique } from './support/test-platform';
import { waitFor } from './support/wait-for';

// Traces (issue 28 item 1): the platform as a child process (`bin/start.ts`: the SDK patches http,
// express and pg before they load, which jest's module loader would not let it do) exporting OTLP/JSON
// to a receiver of the test's. One REST call is one trace across the adapter, the gateway, the subgraph
// and its statements; the event it committed is relayed, consumed and delivered to a webhook in traces
// linked to it, as a notification's send is to the request that sent it.
const tempDir = useTempDirs('loyalty-tracing-');
const ADMIN = { email: 'tracing-admin@example.com', password: 'tracing-admin-password' };
let database: ScratchDatabase;
let chatapp: FakeChatapp;
let receiver: FakeOtlpReceiver;
let webhooks: FakeWebhookReceiver;
let sms: FakeSms;
let rest: string;
const platformProcess = new PlatformProcess(() =>
  platformProcessEnv(
    { databaseUrl: database.url, dataDir: tempDir(), admin: ADMIN, chatappUrl: chatapp.url },
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'loyalty-tracing-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SMS_URL: sms.url,
    },
  ),
);

beforeAll(async () => {
  [database, chatapp, receiver, webhooks, sms] = await Promise.all([createScratchDatabase('loyalty_tracing'), startFakeChatapp(), startFakeOtlpReceiver(), startFakeWebhookReceiver(), startFakeSms()]);
  rest = await platformProcess.start();
}, PLATFORM_START_TIMEOUT_MS);

afterAll(async () => {
  await platformProcess.kill('SIGTERM');
  await Promise.all([receiver.close(), chatapp.close(), webhooks.close(), sms.close()]);
  await database.drop();
});

/** A client's trace: a new trace id and the id of the client's span, sent as `traceparent`. */
function clientTrace(): { traceId: string; spanId: string; traceparent: string } {
  const [traceId, spanId] = [randomBytes(16).toString('hex'), randomBytes(8).toString('hex')];
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}
/** The span named `name` in a trace of its own, linked to the trace `traceId`. */
const linkedTo = (name: string, traceId: string) => receiver.spans.find((span) => span.name === name && span.links.some((link) => link.traceId === traceId));

/** A PostgreSQL statement's span (the pg instrumentation names them `pg.query:<command or prepared name> <database>`). */
const isStatement = (span: ReceivedSpan) => span.name.startsWith('pg.query:');
const inTrace = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
/** The names of a span and its ancestors within its trace, from the span up. */
function ancestry(span: ReceivedSpan): string[] {
  const byId = new Map(inTrace(span.traceId).map((each) => [each.spanId, each]));
  const names: string[] = [];
  for (let at: ReceivedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) names.push(at.name);
  return names;
}

it("traces a REST call across the adapter, the gateway, the subgraph and its SQL, and links its event's relay and consumers to it", async () => {
  const admin = (await callRest(rest, 'POST', '/auth/api/staffs/login', ADMIN)).body.data.data.accessToken as string;
  const member = (await callRest(rest, 'POST', '/auth/api/members/chatapp/login', { code: unique('code') })).body.data.data.accessToken as string;
  const memberId = (await fetch(`${rest}/auth/api/members/me`, { headers: { authorization: `Bearer ${member}` } }).then((response) => response.json() as any)).data.data.id;

  const webhook = await callRest(rest, 'POST', '/api/v1/webhooks', { url: `${webhooks.url}/traced`, events: ['points.earned'] }, admin);
  expect(webhook.status).toBe(201);

  // The client's own trace (W3C traceparent): the platform continues it.
  const { traceId, spanId: clientSpanId, traceparent } = clientTrace();
  const earned = await fetch(`${rest}/point/api/earn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, traceparent },
    body: JSON.stringify({ memberId, amount: 7 }),
  });
  expect(earned.status).toBe(200);

  const sql = await waitFor(async () => inTrace(traceId).find((span) => isStatement(span) && ancestry(span).includes('subgraph point')), 'a statement of the point subgraph in the trace', 20_000);
  const chain = ancestry(sql);
  // The statement's ancestors, innermost first: the point subgraph, the gateway's fetch from it, its
  // request, and at the root the adapter's HTTP server span, whose parent is the client's span.
  expect(chain.indexOf('subgraph point')).toBeLessThan(chain.indexOf('gateway.fetch'));
  expect(chain.indexOf('gateway.fetch')).toBeLessThan(chain.indexOf('gateway.request'));
  const root = inTrace(traceId).find((span) => span.name === chain[chain.length - 1])!;
  expect(root.parentSpanId).toBe(clientSpanId);
  expect(root.kind).toBe(2); // SERVER
  expect(root.service).toBe('loyalty-tracing-test');
  expect(inTrace(traceId).find((span) => span.name === 'gateway.fetch')?.attributes.service).toBe('point');

  // The event: relayed, consumed and delivered in traces of their own, each linked to the request's trace.
  const relay = await waitFor(async () => linkedTo('outbox relay point', traceId), 'the relay of the points.earned event', 20_000);
  const consumer = await waitFor(async () => linkedTo('consume points.earned', traceId), 'a consumer of the points.earned event', 20_000);
  const delivery = await waitFor(async () => linkedTo('webhook delivery', traceId), 'the webhook delivery of the points.earned event', 20_000);
  expect(delivery.attributes['webhook.id']).toBe(webhook.body.data.id);
  expect(webhooks.on('/traced')).toHaveLength(1);
  for (const span of [relay, consumer, delivery]) {
    expect(span.traceId).not.toBe(traceId);
    expect(span.parentSpanId).toBeUndefined();
  }
  expect(consumer.kind).toBe(5); // CONSUMER
  // The consumer's statements are in its trace.
  await waitFor(async () => inTrace(consumer.traceId).some(isStatement), "the consumer's statements in its trace", 20_000);
});

it("traces a notification's sends (SMS, in-app) in traces of their own, linked to the request that sent it", async () => {
  const admin = (await callRest(rest, 'POST', '/auth/api/staffs/login', ADMIN)).body.data.data.accessToken as string;
  const customerId = randomUUID();
  const pool = new Pool({ connectionString: database.url, max: 1 });
  pool.on('error', () => undefined);
  try {
    await pool.query(`insert into auth.member (id, name, phone_number, status, created_at, updated_at) values ($1, 'Traced customer', '+66812345678', 'ACTIVE', now(), now())`, [customerId]);
  } finally {
    await pool.end();
  }
  const send = async (channel: string) => {
    const { traceId, traceparent } = clientTrace();
    const sent = await fetch(`${rest}/api/v1/notifications/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, traceparent },
      body: JSON.stringify({ customer_ids: [customerId], title: 'Traced', body: 'b', channel }),
    });
    expect(sent.status).toBe(202);
    return { traceId, notificationId: ((await sent.json()) as { data: { notification_id: string } }).data.notification_id };
  };
  const bySms = await send('sms');
  const smsSpan = await waitFor(async () => linkedTo('notification send sms', bySms.traceId), 'the SMS send linked to the request', 20_000);
  expect(smsSpan.traceId).not.toBe(bySms.traceId);
  expect(smsSpan.attributes['notification.id']).toBe(bySms.notificationId);
  expect(sms.taken.map((message) => message.to)).toEqual(['+66812345678']);

  const inApp = await send('in_app');
  const inAppSpan = await waitFor(async () => linkedTo('notification send in_app', inApp.traceId), 'the in-app send linked to the request', 20_000);
  expect(inAppSpan.traceId).not.toBe(inApp.traceId);
  expect(inTrace(inAppSpan.traceId).some(isStatement)).toBe(true);
});

