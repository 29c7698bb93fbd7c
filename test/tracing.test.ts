import { randomBytes } from 'node:crypto';
import { FakeChatapp, startFakeChatapp } from './support/fake-chatapp';
import { FakeOtlpReceiver, ReceivedSpan, startFakeOtlpReceiver } from './support/fake-otlp-receiver';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS, unique } from './support/test-platform';
import { waitFor } from './support/wait-for';

// Traces (issue 28 item 1): the platform as a child process (`bin/start.ts`: the SDK patches http,
// express and pg before they load, which jest's module loader would not let it do) exporting OTLP/JSON
// to a receiver of the test's. One REST call is one trace across the adapter, the gateway, the subgraph
// and its statements; the event it committed is relayed and consumed in traces linked to it.
const tempDir = useTempDirs('loyalty-tracing-');
const ADMIN = { email: 'tracing-admin@example.com', password: 'tracing-admin-password' };
let database: ScratchDatabase;
let chatapp: FakeChatapp;
let receiver: FakeOtlpReceiver;
let rest: string;
const platformProcess = new PlatformProcess(() =>
  platformProcessEnv(
    { databaseUrl: database.url, dataDir: tempDir(), admin: ADMIN, chatappUrl: chatapp.url },
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'loyalty-tracing-test', OTEL_BSP_SCHEDULE_DELAY: '100' },
  ),
);

beforeAll(async () => {
  [database, chatapp, receiver] = await Promise.all([createScratchDatabase('loyalty_tracing'), startFakeChatapp(), startFakeOtlpReceiver()]);
  rest = await platformProcess.start();
}, PLATFORM_START_TIMEOUT_MS);

afterAll(async () => {
  await platformProcess.kill('SIGTERM');
  await Promise.all([receiver.close(), chatapp.close()]);
  await database.drop();
});

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

  // The client's own trace (W3C traceparent): the platform continues it.
  const traceId = randomBytes(16).toString('hex');
  const clientSpanId = randomBytes(8).toString('hex');
  const earned = await fetch(`${rest}/point/api/earn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, traceparent: `00-${traceId}-${clientSpanId}-01` },
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

  // The event: relayed and consumed in traces of their own, each linked to the request's trace.
  const linkedTo = (name: string) => receiver.spans.find((span) => span.name === name && span.links.some((link) => link.traceId === traceId));
  const relay = await waitFor(async () => linkedTo('outbox relay point'), 'the relay of the points.earned event', 20_000);
  const consumer = await waitFor(async () => linkedTo('consume points.earned'), 'a consumer of the points.earned event', 20_000);
  for (const span of [relay, consumer]) {
    expect(span.traceId).not.toBe(traceId);
    expect(span.parentSpanId).toBeUndefined();
  }
  expect(consumer.kind).toBe(5); // CONSUMER
  // The consumer's statements are in its trace.
  await waitFor(async () => inTrace(consumer.traceId).some(isStatement), "the consumer's statements in its trace", 20_000);
});
