import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { freePort } from '../core/http';
import { PlatformProcess, platformProcessEnv } from './support/platform-process';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { TcpProxy } from './support/tcp-proxy';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS } from './support/test-platform';
import { waitFor } from './support/wait-for';

const tempDir = useTempDirs('loyalty-workers-');
const ADMIN = { email: 'workers-admin@example.com', password: randomBytes(12).toString('hex') };
let database: ScratchDatabase;
let child: ChildProcess;
/** The primary's /metrics: every worker's metrics summed. */
let metricsUrl: string;
const lines: Array<Record<string, any>> = [];
/** What the primary logs when a worker died, before forking another. */
const WORKER_DIED = 'worker died: starting another after a pause';
/** The primary's banner, printed once every worker serves. */
let announce: (banner: string) => void;
const announced = new Promise<string>((resolve) => (announce = resolve));

/** Resolves with the first log line that matches, or fails when the process exits first or time runs out. */
function logLine(matches: (line: Record<string, any>) => boolean, timeoutMs = 60_000): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const found = lines.find(matches);
    if (found) return resolve(found);
    const timer = setTimeout(() => reject(new Error(`no matching log line within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code: number | null) => reject(new Error(`npm start exited with ${code} before the log line`));
    const check = () => {
      const line = lines.find(matches);
      if (!line) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('line', check);
      resolve(line);
    };
    child.once('exit', onExit);
    child.on('line', check);
  });
}

beforeAll(async () => {
  database = await createScratchDatabase('loyalty_workers');
  const ports: string[] = [];
  for (let i = 0; i < 6; i++) ports.push(String(await freePort()));
  const [port, gatewayPort, authPort, pointPort, clusterPort, metricsPort] = ports;
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'bin', 'start.ts')], {
    env: {
      ...process.env,
      WORKERS: '2',
      DATABASE_URL: database.url,
      DATA_DIR: tempDir(),
      JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: port,
      GATEWAY_PORT: gatewayPort,
      AUTH_PORT: authPort,
      POINT_PORT: pointPort,
      CLUSTER_PORT: clusterPort,
      METRICS_PORT: metricsPort,
      LOG_LEVEL: 'info',
      PASSWORD_SCRYPT_COST: '1024',
      // Each worker, once told to stop, answers /readyz 503 and goes on serving for this long, then drains.
      SHUTDOWN_DELAY_SECONDS: '5',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    if (text.startsWith('Loyalty platform is ready')) announce(text);
    if (!text.startsWith('{')) return;
    lines.push(JSON.parse(text));
    child.emit('line');
  });
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await database.drop();
});

it('lowers one caller\'s X-RateLimit-Remaining by one with every request, whichever worker answers it', async () => {
  const ready = await logLine((line) => line.msg === 'platform ready');
  await announced;
  const login = await fetch(`${ready.rest}/auth/api/staffs/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const authorization = `Bearer ${((await login.json()) as any).data.data.accessToken}`;
  const remaining: number[] = [];
  const servedBy = new Set<number>();
  for (let i = 0; i < 40; i += 1) {
    // A new connection each time: the workers take connections in turn.
    const requestId = `rate-${i}`;
    const response =
      i % 4 === 3
        ? await fetch(ready.graphql, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization, connection: 'close' },
            body: JSON.stringify({ query: '{ currentStaff { id } }' }),
          })
        : await fetch(`${ready.rest}/auth/api/staffs/me`, { headers: { authorization, 'x-request-id': requestId, connection: 'close' } });
    expect(response.status).toBe(200);
    remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
    if (i % 4 !== 3) servedBy.add((await logLine((line) => line.msg === 'request' && line.reqId === requestId)).pid);
  }
  expect(servedBy.size).toBe(2);
  expect(remaining).toEqual(remaining.map((_, i) => remaining[0] - i));
}, 120_000);

/** The value of one sample of a Prometheus text exposition (0 when absent). */
const sample = (exposition: string, name: string, labels: Record<string, string>): number => {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((pair) => candidate.includes(pair)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

it('serves on METRICS_PORT the metrics of every worker summed: the requests above counted exactly, by route template, method and status', async () => {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const exposition = await response.text();
  const requests = (labels: Record<string, string>) => sample(exposition, 'http_request_duration_seconds_count', labels);
  // The 30 REST reads were answered by both workers (the test above): one scrape counts them all.
  expect(requests({ part: 'rest', route: '/auth/api/staffs/me', method: 'GET', status: '200' })).toBe(30);
  expect(requests({ part: 'rest', route: '/auth/api/staffs/login', method: 'POST', status: '200' })).toBe(1);
  expect(requests({ part: 'gateway', route: '/graphql', method: 'POST', status: '200' })).toBe(10);
  expect(sample(exposition, 'graphql_operations_total', { operation: 'CurrentStaff', outcome: 'success' })).toBe(30);
  expect(sample(exposition, 'graphql_operations_total', { operation: 'anonymous', outcome: 'success' })).toBe(10);
  expect(exposition).toMatch(/^process_cpu_seconds_total \d/m);
  // What the database says, read once by the primary (not summed over the workers): every domain's outbox.
  for (const domain of ['auth', 'point', 'cluster']) {
    expect(exposition).toMatch(new RegExp(`^outbox_unrelayed_events\\{domain="${domain}"\\} \\d+$`, 'm'));
    expect(exposition).toMatch(new RegExp(`^outbox_oldest_unrelayed_age_seconds\\{domain="${domain}"\\} [\\d.]+$`, 'm'));
  }
  expect(exposition.match(/^outbox_unrelayed_events\{/gm)?.length).toBe(new Set(exposition.match(/^outbox_unrelayed_events\{domain="\w+"\}/gm)).size);
  for (const gauge of ['job_queue_jobs', 'job_queue_oldest_waiting_age_seconds', 'dead_letters']) expect(exposition).toMatch(new RegExp(`^# TYPE ${gauge} gauge$`, 'm'));
  // Each worker's pools, summed: the domains' connections in use, idle and awaited.
  for (const state of ['in_use', 'idle', 'waiting']) expect(exposition).toMatch(new RegExp(`^db_pool_connections\\{domain="auth",state="${state}"\\} \\d+$`, 'm'));
  expect(sample(exposition, 'db_pool_connections', { domain: 'auth', state: 'idle' }) + sample(exposition, 'db_pool_connections', { domain: 'auth', state: 'in_use' })).toBeGreaterThanOrEqual(2);
  expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
});

it('forks a worker killed with SIGKILL again after a pause of 1 s, logging why it died', async () => {
  await announced;
  const first = new Set(lines.filter((line) => line.msg === 'platform ready').map((line) => line.pid));
  const [victim] = first;
  process.kill(victim, 'SIGKILL');
  const died = await logLine((line) => line.msg === WORKER_DIED && line.worker === victim);
  expect(died).toMatchObject({ pid: child.pid, code: null, signal: 'SIGKILL', restartInMs: 1000, livedMs: expect.any(Number) });
  const replacement = await logLine((line) => line.msg === 'platform ready' && !first.has(line.pid), PLATFORM_START_TIMEOUT_MS);
  const response = await fetch(`${replacement.rest}/auth/api/consents/current`, { headers: { connection: 'close' } });
  expect(response.status).toBe(200);
}, PLATFORM_START_TIMEOUT_MS + 30_000);

/** The status of GET `url` on a new connection (the workers take connections in turn), with its `data.status`. */
const probe = async (url: string) => {
  const response = await fetch(url, { headers: { connection: 'close' } });
  return `${response.status} ${((await response.json()) as any).data?.status}`;
};

it('runs the platform in one worker per WORKERS, serving requests from each, and stops them all on SIGTERM, not ready before they drain', async () => {
  const ready = await logLine((line) => line.msg === 'platform ready');
  await logLine((line) => line.msg === 'platform ready' && line.pid !== ready.pid);
  // The workers serving now: a worker killed by the test before is not among them.
  const died = new Set(lines.filter((line) => line.msg === WORKER_DIED).map((line) => line.worker));
  const readyPids = new Set(lines.filter((line) => line.msg === 'platform ready' && !died.has(line.pid)).map((line) => line.pid));
  expect(readyPids.size).toBe(2);
  expect(await announced).toBe('Loyalty platform is ready (2 workers)');

  // The workers share the listening port: requests land on both.
  const servedBy = new Set<number>();
  for (let attempt = 0; attempt < 200 && servedBy.size < 2; attempt += 1) {
    const requestId = `workers-${attempt}`;
    const response = await fetch(`${ready.rest}/auth/api/consents/current`, { headers: { 'x-request-id': requestId, connection: 'close' } });
    expect(response.status).toBe(200);
    const served = await logLine((line) => line.msg === 'request' && line.reqId === requestId);
    servedBy.add(served.pid);
  }
  expect(servedBy).toEqual(readyPids);

  const gateway = new URL(ready.graphql).origin;
  for (const base of [ready.rest, gateway]) {
    expect(await probe(`${base}/livez`)).toBe('200 alive');
    expect(await probe(`${base}/readyz`)).toBe('200 ready');
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  // Within SHUTDOWN_DELAY_SECONDS: not ready (a load balancer takes the workers out), yet alive and serving.
  await waitFor(async () => (await probe(`${ready.rest}/readyz`)) === '503 stopping' && (await probe(`${gateway}/readyz`)) === '503 stopping', 'the workers not ready', 4_000);
  expect(await probe(`${ready.rest}/livez`)).toBe('200 alive');
  expect((await fetch(`${ready.rest}/auth/api/consents/current`, { headers: { connection: 'close' } })).status).toBe(200);
  expect(await exited).toBe(0);
  const delayed = lines.filter((line) => line.msg === 'shutting down: not ready, still serving').map((line) => line.pid);
  expect(new Set(delayed)).toEqual(readyPids);
  const stopped = lines.filter((line) => line.msg === 'stopped').map((line) => line.pid);
  expect(new Set(stopped)).toEqual(new Set([...readyPids, child.pid]));
}, 120_000);

describe('a platform started while its database is unreachable', () => {
  let proxy: TcpProxy | undefined;
  let platform: PlatformProcess | undefined;
  afterAll(async () => {
    await platform?.kill('SIGKILL');
    await proxy?.close();
  });

  it('waits for the database, logging each wait, and becomes ready once it answers', async () => {
    const server = new URL(database.url);
    proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port) });
    proxy.cut();
    const through = proxy.urlFor(database.url);
    platform = new PlatformProcess(() => platformProcessEnv({ databaseUrl: through, dataDir: tempDir(), admin: ADMIN, chatappUrl: 'http://127.0.0.1:9' }, {}));
    let failure: unknown;
    const started = platform.start();
    started.catch((error) => (failure = error));
    const waits = () => platform!.lines.filter((line) => line.msg === 'database not reachable: waiting for it');
    await waitFor(
      async () => {
        if (failure) throw failure;
        return waits().length >= 2 && proxy!.refused >= 2;
      },
      'the platform to wait for its database',
      60_000,
    );
    proxy.restore();
    const rest = await started;
    const response = await fetch(`${rest}/auth/api/consents/current`, { headers: { connection: 'close' } });
    expect(response.status).toBe(200);
    // Each wait logged, the pause doubling.
    expect(waits().slice(0, 2).map((line) => line.retryInMs)).toEqual([500, 1000]);
  }, PLATFORM_START_TIMEOUT_MS + 60_000);
});
