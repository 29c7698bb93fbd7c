import autocannon, { Options, Result } from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Pool } from 'pg';

/** A bench target (bench/serve.ts) as its JSON line describes it. */
export interface Target {
  restUrl: string;
  baselineUrl: string;
  /** An admin staff token: every permission, point:manage and point:read included. */
  token: string;
  databaseUrl: string;
}

export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
export const WARM_UP_SECONDS = 3;

/** Starts bench/serve.ts in its own process, with `env` over this process's environment. */
export function startTarget(env: Record<string, string> = {}): Promise<{ child: ChildProcess; target: Target }> {
  // --expose-gc and the IPC channel: the target answers `targetMemory` after a full collection.
  const child = spawn(process.execPath, ['--expose-gc', '-r', '@swc-node/register', join(__dirname, 'serve.ts')], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, target: JSON.parse(line) }));
  });
}

/** What the target holds after a full garbage collection: its JS heap and the memory outside it, and its resident size. */
export interface TargetMemory {
  retained: number;
  resident: number;
}

export function targetMemory(child: ChildProcess): Promise<TargetMemory> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as TargetMemory));
    child.send('memory');
  });
}

/** Stops a target started by startTarget and waits for its exit (it closes the platform and its database first). */
export function stopTarget(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function run(options: Options): Promise<Result> {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

export function load(url: string, token: string, duration = DURATION_SECONDS): Promise<Result> {
  return run({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } });
}

/** Warms connections, JIT and caches for WARM_UP_SECONDS, then measures for DURATION_SECONDS. */
export async function warmThenLoad(url: string, token: string): Promise<Result> {
  await load(url, token, WARM_UP_SECONDS);
  return load(url, token);
}

export const ratio = (a: number, b: number) => (a / Math.max(1, b)).toFixed(3);
export const p99Ratio = (a: Result, b: Result) => `${(a.latency.p99 / Math.max(1, b.latency.p99)).toFixed(2)}x`;

/** One POST of a steady write load: its path and body, and its own headers (a fresh Idempotency-Key). */
export interface WriteRequest {
  path: string;
  body: string;
  headers?: Record<string, string>;
}

/** A steady write run: autocannon's result, the answers counted by status, the first body of each unexpected status. */
export interface WriteRun {
  result: Result;
  statuses: Map<number, number>;
  unexpected: string[];
}

/**
 * CONNECTIONS connections POST `next()` (a fresh request each time) to `url` as the admin for
 * `duration` seconds; every answer is counted by status, and the first body of each status `expected`
 * refuses is kept.
 */
export async function loadWrite(url: string, token: string, next: () => WriteRequest, expected: (status: number) => boolean, duration: number): Promise<WriteRun> {
  const statuses = new Map<number, number>();
  const unexpected: string[] = [];
  const result = await run({
    url,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const { path, body, headers } = next();
          return { ...request, path, body, headers: { ...request.headers, ...headers } };
        },
        onResponse: (status, body) => {
          if (!expected(status) && !statuses.has(status)) unexpected.push(`${status} ${body.slice(0, 300)}`);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  return { result, statuses, unexpected };
}

/** Prints each side's rate and latencies, and the ratios of the second side (the platform) to the first (the baseline). */
export function printSides(title: string, sides: Array<[string, Result]>): void {
  console.log(`\n${title}, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx   errors');
  for (const [name, result] of sides) {
    console.log(
      `${name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)} ${String(result.errors).padStart(8)}`,
    );
  }
  const [[, baseline], [, platform]] = sides;
  console.log(`\nplatform / baseline: request rate ${ratio(platform.requests.average, baseline.requests.average)}, p99 latency ${p99Ratio(platform, baseline)}`);
}

/** Polls `count` every half second until two readings agree: the writes autocannon dropped in flight at the end of a run have landed. */
export async function settled(count: () => Promise<number>): Promise<number> {
  let [previous, current] = [-1, await count()];
  for (let tries = 0; current !== previous && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    [previous, current] = [current, await count()];
  }
  return current;
}

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMESTAMPS = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

/**
 * An answer with what differs between two equal requests on fresh rows left out, to compare a
 * platform's answer with its baseline's: every UUID and ISO timestamp (in any string), and the values
 * of `keys` (codes drawn at random, images of them); keys sorted, as JSON objects have no order.
 */
export function anonymized(value: unknown, keys: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => anonymized(item, keys));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries.map(([key, item]) => [key, keys.includes(key) ? `<${key}>` : anonymized(item, keys)]));
  }
  return typeof value === 'string' ? value.replace(UUIDS, '<uuid>').replace(TIMESTAMPS, '<time>') : value;
}

/**
 * Waits (at most `timeoutMs`) until the platform has done the work a measured run left behind: every
 * domain's outbox published and no job of the queue due or running (the event consumers' backlog).
 * So that a side is not measured while the platform still consumes the events of the side before it.
 * Returns false when the backlog outlasted the wait.
 */
export async function drained(databaseUrl: string, timeoutMs = 120_000): Promise<boolean> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows: outboxes } = await pool.query(`select table_schema from information_schema.tables where table_name = 'outbox_event'`);
    const backlog = `select ${outboxes.map(({ table_schema }) => `(select count(*) from ${table_schema}.outbox_event where published_at is null)`).join(' + ')}
                          + (select count(*) from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now()) as n`;
    for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 250))) {
      if (Number((await pool.query(backlog)).rows[0].n) === 0) return true;
    }
    return false;
  } finally {
    await pool.end();
  }
}

/** Told when a write load's requests start and when their writes have all landed, before its checks (what large.ts counts the server's cost between). */
export interface LoadWatcher {
  started(): Promise<void>;
  landed(): Promise<void>;
}
