import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { freePort } from '../core/http';
import { Target } from './load';

/** Webhooks registered, one of them pointing at a receiver that is down the whole time. */
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10);
/** Events committed (each to every webhook). */
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
/** How long a receiver takes to answer 200. */
const RECEIVER_MS = Number(process.env.BENCH_WEBHOOK_RECEIVER_MS ?? 50);
/** Events per committing transaction. */
const BATCH = 500;
/** Past this, what has not arrived is reported missing. */
const DEADLINE_MS = Number(process.env.BENCH_WEBHOOK_DEADLINE_SECONDS ?? 900) * 1000;

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** The target's environment this scenario needs: loopback receivers allowed. */
export const WEBHOOK_TARGET_ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

interface Receiver {
  url: string;
  /** Event id → when it first arrived (ms, wall clock). */
  firstSeen: Map<string, number>;
  requests: number;
  server?: Server;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', firstSeen: new Map(), requests: 0 };
  const server = createServer((req, res) => {
    const id = req.headers['webhook-id'] as string;
    req.resume();
    req.on('end', () => {
      const at = Date.now();
      receiver.requests += 1;
      if (!receiver.firstSeen.has(id)) receiver.firstSeen.set(id, at);
      setTimeout(() => res.writeHead(200).end(), RECEIVER_MS);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.server = server;
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/**
 * `webhooks`: WEBHOOKS webhooks subscribed to `transaction.completed` (one whose receiver is down the
 * whole time: connection refused), receivers answering 200 after RECEIVER_MS; EVENTS events committed
 * to the point domain's outbox in transactions of BATCH (the outbox row is what a purchase commits; only
 * the webhook domain consumes this type). Reports deliveries per second and the latency from each
 * batch's commit to the first receipt of each event at each live receiver (p50, p99). FAIL when a live
 * receiver misses an event or the down one's deliveries are not all still pending.
 */
export async function webhookFanOut(target: Target, pool: Pool): Promise<boolean> {
  const receivers = await Promise.all(Array.from({ length: WEBHOOKS - 1 }, startReceiver));
  const downUrl = `http://127.0.0.1:${await freePort()}/hook`;
  const webhookIds: string[] = [];
  for (const url of [...receivers.map((receiver) => receiver.url), downUrl]) {
    const response = await fetch(`${target.restUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['transaction.completed'] }),
    });
    if (response.status !== 201) throw new Error(`webhook registration: ${response.status} ${await response.text()}`);
    webhookIds.push(((await response.json()) as any).data.id);
  }
  const downWebhook = webhookIds[webhookIds.length - 1];

  const committedAt = new Map<string, number>();
  const started = Date.now();
  for (let offset = 0; offset < EVENTS; offset += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, EVENTS - offset) }, () => randomUUID());
    const payloads = ids.map((transactionId) => {
      const now = new Date().toISOString();
      return {
        transactionId,
        customerId: randomUUID(),
        amount: '19.99',
        storeId: 'bench-store',
        category: null,
        externalId: null,
        status: 'completed',
        pointsEarned: '19',
        occurredAt: now,
        createdAt: now,
      };
    });
    await pool.query(
      `insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at)
       select id, 'transaction.completed', payload, payload->>'customerId', now() from unnest($1::uuid[], $2::jsonb[]) as e(id, payload)`,
      [ids, payloads.map((payload) => JSON.stringify(payload))],
    );
    const at = Date.now();
    for (const id of ids) committedAt.set(id, at);
  }
  const committedSeconds = (Date.now() - started) / 1000;

  const deadline = Date.now() + DEADLINE_MS;
  const complete = () => receivers.every((receiver) => receiver.firstSeen.size >= EVENTS);
  while (!complete() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  const latencies: number[] = [];
  let lastReceipt = 0;
  let missing = 0;
  for (const receiver of receivers) {
    for (const [id, at] of committedAt) {
      const seen = receiver.firstSeen.get(id);
      if (seen === undefined) missing += 1;
      else {
        latencies.push(seen - at);
        lastReceipt = Math.max(lastReceipt, seen);
      }
    }
  }
  latencies.sort((a, b) => a - b);
  const requests = receivers.reduce((sum, receiver) => sum + receiver.requests, 0);
  const seconds = (lastReceipt - started) / 1000;
  const { rows: down } = await pool.query(
    `select status, count(*)::int as n, coalesce(sum(attempts), 0)::int as attempts from webhook.webhook_delivery where webhook_id = $1 group by status`,
    [downWebhook],
  );
  const downStates = Object.fromEntries(down.map((row) => [row.status, row.n]));

  console.log(`\nwebhooks: ${WEBHOOKS} webhooks (1 receiver down) x ${EVENTS} events, receivers answer in ${RECEIVER_MS} ms; events committed in ${committedSeconds.toFixed(1)} s\n`);
  console.log(`deliveries to live receivers   ${latencies.length} of ${EVENTS * receivers.length} (${missing} missing, ${requests - latencies.length} repeats)`);
  console.log(`deliveries per second          ${(latencies.length / Math.max(seconds, 0.001)).toFixed(0)} (first commit to last receipt: ${seconds.toFixed(1)} s)`);
  console.log(`commit to receipt, ms          p50 ${percentile(latencies, 50)}   p99 ${percentile(latencies, 99)}   max ${latencies[latencies.length - 1]}`);
  console.log(`down receiver's deliveries     ${JSON.stringify(downStates)} (${down.reduce((sum, row) => sum + row.attempts, 0)} attempts)`);

  for (const receiver of receivers) receiver.server?.close();
  for (const id of webhookIds) await fetch(`${target.restUrl}/api/v1/webhooks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${target.token}` } });
  const passed = missing === 0 && (downStates.succeeded ?? 0) === 0;
  if (!passed) console.log('FAIL: a live receiver missed events, or the down receiver was reported as reached');
  return passed;
}
