import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';
import { Target } from './load';
import { createCatalog, createMembers } from './redeem';
import { EARN_POINTS } from './seed-ledger';
import { prepareCustomerRead } from './v1';

/**
 * `npm run bench:profile [path | write]`: runs the bench target (bench/serve.ts) under Node's CPU profiler,
 * loads one REST path (GET /auth/api/staffs/me by default) or one load of WRITE_LOADS (`earn`, `v1award`,
 * `redeem`: a POST with a fresh body per request; `v1read`: the v1 customer read of a customer made for it) for BENCH_DURATION seconds, and prints
 * where the process spent its time: self time grouped by the part of the chain it belongs to (REST
 * adapter, gateway planning and execution, subgraph execution, database driver, serialization, ...)
 * and the costliest functions. The .cpuprofile stays in the printed directory (open it in Chrome
 * DevTools or speedscope for a flame graph).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds, on the profiled process's clock. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Members, customers or redeemers a write load picks from at random: concurrent writes keep meeting on the same rows, as in `npm run bench`. */
const HOT_MEMBERS = 20;

/** A POST load: the path and body of each request (and its extra headers), prepared on the running target; a GET load has no body. */
interface WriteLoad {
  describe: string;
  method?: 'GET';
  request: () => { path: string; body?: string; headers?: Record<string, string> };
}

const pick = (ids: string[]) => ids[randomInt(ids.length)];

/** The writes `npm run bench` measures, as steady loads on a hot set (bench/run.ts, bench/v1.ts, bench/redeem.ts), and reads that need data made first. */
const WRITE_LOADS: Record<string, (target: Target, pool: Pool) => Promise<WriteLoad>> = {
  /** POST /point/api/earn for members the auth domain does not hold, as the points write scenario. */
  earn: async () => {
    const members = Array.from({ length: HOT_MEMBERS }, () => randomUUID());
    return {
      describe: `POST /point/api/earn ${EARN_POINTS}, ${HOT_MEMBERS} hot members`,
      request: () => ({ path: '/point/api/earn', body: JSON.stringify({ memberId: pick(members), amount: EARN_POINTS }) }),
    };
  },
  /** POST /api/v1/customers/:id/points/award for customers created through v1. */
  v1award: async (target) => {
    const customers: string[] = [];
    for (let index = 0; index < HOT_MEMBERS; index++) {
      const response = await fetch(`${target.restUrl}/api/v1/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench awardee', email: `bench-${randomUUID()}@example.com` }),
      });
      customers.push(((await response.json()) as any).data.id as string);
    }
    return {
      describe: `POST /api/v1/customers/:id/points/award, ${HOT_MEMBERS} hot customers`,
      request: () => ({ path: `/api/v1/customers/${pick(customers)}/points/award`, body: JSON.stringify({ points: 1, reason: 'bench profile' }) }),
    };
  },
  /** GET /api/v1/customers/:id?include=points,tier of a customer with its ledger and tier, as the v1read scenario (bench/v1.ts). */
  v1read: async (target, pool) => {
    const { path } = await prepareCustomerRead(target, pool);
    return { describe: `GET ${path}`, method: 'GET', request: () => ({ path }) };
  },
  /** POST /reward/api/reward-catalogs/:id/redeem on a catalog that does not run out, by members with points for every request, each with its own key. */
  redeem: async (target, pool) => {
    const catalogId = await createCatalog(target, 1_000_000);
    const members = await createMembers(target, pool, HOT_MEMBERS, 1_000_000);
    return {
      describe: `POST /reward/api/reward-catalogs/:id/redeem, ${HOT_MEMBERS} hot members, stock that does not run out`,
      request: () => ({ path: `/reward/api/reward-catalogs/${catalogId}/redeem`, body: JSON.stringify({ memberId: pick(members) }), headers: { 'idempotency-key': randomUUID() } }),
    };
  },
};

/** Milliseconds after the profiled process started: only the samples taken in it are counted. */
interface Window {
  fromMs: number;
  toMs: number;
}

/** Which part of the chain a frame belongs to, by its file: the first rule that matches wins. */
const CATEGORIES: Array<[string, RegExp]> = [
  ['idle / GC / program', /^\((idle|garbage collector|program|root)\)$/],
  ['REST adapter (ours)', /^(?!.*node_modules).*\/rest-adapter\//],
  ['gateway (ours)', /^(?!.*node_modules).*\/gateway\//],
  ['core (ours)', /^(?!.*node_modules).*\/core\//],
  ['subgraph code (ours)', /^(?!.*node_modules).*\/subgraphs\//],
  ['Apollo gateway + query planner', /@apollo\/(gateway|query-planner|federation-internals|composition)/],
  ['Apollo server', /@apollo\/(server|utils|subgraph)|@as-integrations/],
  ['GraphQL Armor', /@escape\.tech/],
  ['graphql-js (parse, validate, execute)', /\/graphql\//],
  ['type-graphql + class-validator', /type-graphql|class-validator|class-transformer|validator\//],
  ['MikroORM + knex', /@mikro-orm|\/knex\//],
  ['pg driver', /\/pg(-protocol|-pool|-types)?\//],
  ['express + body parsing', /express|body-parser|router|raw-body|iconv|qs\/|cookie/],
  ['rate limiter', /rate-limiter-flexible/],
  ['jose (JWT)', /\/jose\//],
  ['pino (logs)', /pino|sonic-boom|thread-stream/],
  ['node:http, net, streams', /^node:(_http|http|net|stream|internal\/(http|streams|stream_base))|^node:internal\/(http|net)/],
  ['node: other internals', /^node:/],
  ['other dependencies', /node_modules/],
];

function categoryOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  const key = url || `(${functionName.replace(/[()]/g, '')})`;
  if (!url && /JSON|stringify|parse/i.test(functionName)) return 'JSON (de)serialization';
  for (const [name, pattern] of CATEGORIES) if (pattern.test(key)) return name;
  return url ? 'other' : 'native / V8 builtins';
}

function summarize(profile: CpuProfile, window: Window, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, index) => {
    elapsed += profile.timeDeltas[index] ?? 0;
    if (elapsed < window.fromMs * 1000 || elapsed > window.toMs * 1000) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const busy = [...self.entries()].filter(([id]) => !/^\((idle|program)\)$/.test(byId.get(id)!.callFrame.functionName)).reduce((sum, [, value]) => sum + value, 0);
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const category = categoryOf(node);
    categories.set(category, (categories.get(category) ?? 0) + micros);
    const where = node.callFrame.url ? `${node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\/work\/[^/]+\//, '')}:${node.callFrame.lineNumber + 1}` : '';
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const percent = (micros: number, of: number) => `${((100 * micros) / of).toFixed(1).padStart(5)}%`;
  const lines = [`sampled ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s`, '', 'self time by part (share of all samples):'];
  for (const [name, micros] of [...categories.entries()].sort((a, b) => b[1] - a[1])) lines.push(`  ${percent(micros, total)}  ${name}`);
  lines.push('', `costliest functions (self time, share of busy time):`);
  for (const [name, micros] of [...functions.entries()].filter(([name]) => !/^\((idle|program)\)/.test(name)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${percent(micros, busy)}  ${name}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const path = process.argv[2] ?? '/auth/api/staffs/me';
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  const directory = mkdtempSync(join(tmpdir(), 'loyalty-profile-'));
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${directory}`, '-r', '@swc-node/register', join(__dirname, 'serve.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const target = await new Promise<Target>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
  });
  child.removeAllListeners('exit');
  const headers = { authorization: `Bearer ${target.token}` };
  const pool = new Pool({ connectionString: target.databaseUrl, max: 2 });
  const write = WRITE_LOADS[path] ? await WRITE_LOADS[path](target, pool) : undefined;
  await pool.end();
  const load = (seconds: number) =>
    write
      ? autocannon({
          url: target.restUrl,
          connections,
          duration: seconds,
          headers: { ...headers, 'content-type': 'application/json' },
          requests: [
            {
              method: write.method ?? 'POST',
              setupRequest: (request) => {
                const next = write.request();
                return { ...request, ...next, headers: { ...request.headers, ...next.headers } };
              },
            },
          ],
        })
      : autocannon({ url: `${target.restUrl}${path}`, connections, duration: seconds, headers });
  await load(3);
  const window = { fromMs: Date.now() - spawnedAt, toMs: 0 };
  const result = await load(duration);
  window.toMs = Date.now() - spawnedAt;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${directory}`);
  console.log(
    `${write?.describe ?? `GET ${path}`}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx} (${connections} connections)`,
  );
  console.log(`profile: ${join(directory, file)} (the figures below count the measured load only)\n`);
  console.log(summarize(JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile, window));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
