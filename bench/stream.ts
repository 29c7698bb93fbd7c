import { randomUUID } from 'node:crypto';
import { ChildProcess } from 'node:child_process';
import { AccessTokens } from '../core/auth/jwt';
import { Principal } from '../core/auth/principal';
import { EventStreamClient } from '../test/support/event-stream-client';
import { DURATION_SECONDS, Target, targetMemory } from './load';

/** Open SSE streams, one per member (a member may hold STREAM_MAX_PER_MEMBER). */
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
/** Notifications created per second, each for a random member with an open stream. */
const RATE = Number(process.env.BENCH_STREAM_RATE ?? 20);
/** Streams opened at once while connecting. */
const OPENING_BATCH = 50;
const NOTIFICATIONS = '/notification/api/in-apps';

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const wallClock = (performanceNow: number) => performance.timeOrigin + performanceNow;

interface Sent {
  memberId: string;
  /** When the creating request's answer arrived (after the commit). */
  answeredAt: number;
  /** The notification's createdAt: set in the writing transaction, before its commit. */
  createdAt: number;
}

/**
 * `stream`: STREAMS members each hold GET /notification/api/in-apps/me/events open through the REST
 * adapter (then the gateway and the notification subgraph over graphql-ws); notifications are then
 * created through REST at RATE per second for DURATION seconds, each for a random one of them. Reports
 * the delivery latency p50/p99 (the notification's createdAt, inside its transaction, to the event read
 * by the client; and from the creating request's answer, after the commit) and the target process's
 * memory per open stream (what stays allocated after a full collection, heap and external). FAIL when
 * a notification is not delivered exactly once to its member only, or when a stream does not open.
 */
export async function streamScenario(target: Target, targetProcess: ChildProcess, jwtSecret: string): Promise<boolean> {
  const tokens = new AccessTokens(jwtSecret);
  const members = Array.from({ length: STREAMS }, () => randomUUID());
  const memberTokens = await Promise.all(members.map((id) => tokens.sign(new Principal('member', id, 'customer', []))));
  const problems: string[] = [];

  const before = await targetMemory(targetProcess);
  const openingStarted = performance.now();
  const streams: EventStreamClient[] = [];
  const connectMs: number[] = [];
  for (let start = 0; start < STREAMS; start += OPENING_BATCH) {
    const batch = await Promise.all(
      memberTokens.slice(start, start + OPENING_BATCH).map(async (token) => {
        const sent = performance.now();
        const stream = await EventStreamClient.open(`${target.restUrl}${NOTIFICATIONS}/me/events`, { authorization: `Bearer ${token}` });
        await until(() => stream.events.length > 0 || stream.ended || stream.status !== 200);
        connectMs.push(performance.now() - sent);
        return stream;
      }),
    );
    streams.push(...batch);
  }
  const openingSeconds = (performance.now() - openingStarted) / 1000;
  const refused = streams.filter((stream) => stream.status !== 200 || stream.events[0]?.data.type !== 'connected');
  if (refused.length > 0) problems.push(`${refused.length} streams did not open (first: ${refused[0].status} ${JSON.stringify(refused[0].body)})`);
  await settle();
  const after = await targetMemory(targetProcess);

  const sent = new Map<string, Sent>();
  const unexpected: string[] = [];
  const total = Math.round(RATE * DURATION_SECONDS);
  const creating: Promise<void>[] = [];
  const sendingStarted = performance.now();
  for (let index = 0; index < total; index += 1) {
    await untilTime(sendingStarted + (index * 1000) / RATE);
    const memberId = members[Math.floor(Math.random() * members.length)];
    creating.push(
      (async () => {
        const response = await fetch(`${target.restUrl}${NOTIFICATIONS}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ memberId, title_en: 'Bench notification', content_en: `Notification ${index}` }),
        });
        const answeredAt = wallClock(performance.now());
        const body = (await response.json()) as any;
        if (response.status !== 201) return void unexpected.push(`${response.status} ${JSON.stringify(body).slice(0, 200)}`);
        sent.set(body.data.data.id, { memberId, answeredAt, createdAt: Date.parse(body.data.data.createdAt) });
      })(),
    );
  }
  await Promise.all(creating);
  const sendingSeconds = (performance.now() - sendingStarted) / 1000;
  const delivered = () => streams.reduce((sum, stream) => sum + stream.ofType('new_notification').length, 0);
  await until(() => delivered() >= sent.size, 10_000);

  const fromCreation: number[] = [];
  const fromAnswer: number[] = [];
  const seen = new Map<string, number>();
  streams.forEach((stream, index) => {
    for (const event of stream.ofType('new_notification')) {
      const id = event.data.data.id as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const origin = sent.get(id);
      if (!origin) continue;
      if (origin.memberId !== members[index]) problems.push(`notification ${id} reached another member's stream`);
      fromCreation.push(wallClock(event.receivedAt) - origin.createdAt);
      fromAnswer.push(wallClock(event.receivedAt) - origin.answeredAt);
    }
  });
  const missing = [...sent.keys()].filter((id) => !seen.has(id)).length;
  const repeated = [...seen.values()].filter((count) => count > 1).length;
  if (missing > 0) problems.push(`${missing} of ${sent.size} notifications never reached their stream`);
  if (repeated > 0) problems.push(`${repeated} notifications delivered more than once`);
  if (unexpected.length > 0) problems.push(`${unexpected.length} creations failed (first: ${unexpected[0]})`);
  for (const stream of streams) stream.close();

  fromCreation.sort((a, b) => a - b);
  fromAnswer.sort((a, b) => a - b);
  connectMs.sort((a, b) => a - b);
  const opened = Math.max(1, STREAMS - refused.length);
  const perStream = (after.retained - before.retained) / opened;
  console.log(`\nGET ${NOTIFICATIONS}/me/events: ${STREAMS} open streams (one per member), ${total} notifications at ${RATE}/s through POST ${NOTIFICATIONS}\n`);
  console.log(`streams opened in ${openingSeconds.toFixed(1)}s (${OPENING_BATCH} at a time), connected p50 ${percentile(connectMs, 50).toFixed(0)} ms, p99 ${percentile(connectMs, 99).toFixed(0)} ms`);
  console.log(`notifications created in ${sendingSeconds.toFixed(1)}s (${(sent.size / sendingSeconds).toFixed(1)}/s), ${fromCreation.length} delivered`);
  console.log('delivery latency                               p50 ms   p99 ms   max ms');
  for (const [name, values] of [['createdAt (in the transaction) -> event read', fromCreation], ['creating answer (after commit) -> event read', fromAnswer]] as const) {
    console.log(`${name.padEnd(46)} ${percentile(values, 50).toFixed(1).padStart(6)} ${percentile(values, 99).toFixed(1).padStart(8)} ${(values.at(-1) ?? NaN).toFixed(1).padStart(8)}`);
  }
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  console.log(`target memory after a full collection (heap + external): ${mib(before.retained)} before, ${mib(after.retained)} with the streams open: ${(perStream / 1024).toFixed(1)} KiB per open stream (resident ${mib(before.resident)} -> ${mib(after.resident)})`);
  console.log(problems.length === 0 ? 'stream: PASS (every notification delivered once, to its member only)' : `stream: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}

/** Waits for `condition`, polling on the event loop; gives up after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Resolves at `at` (performance.now()), the pacing of a steady rate. */
function untilTime(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
}

/** Lets the target finish what opening the streams allocated before its memory is read. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2000));
}
