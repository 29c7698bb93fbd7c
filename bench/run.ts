import '../core/tracing-start';
import autocannon, { Result } from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Pool } from 'pg';
import { largeData } from './large';
import { checkLedger, checkOutbox } from './ledger-check';
import { CONNECTIONS, DURATION_SECONDS, p99Ratio, ratio, run, startTarget, stopTarget, Target, WARM_UP_SECONDS, warmThenLoad } from './load';
import { redeemBurst, redeemSteady } from './redeem';
import { streamScenario } from './stream';
import { WEBHOOK_TARGET_ENV, webhookFanOut } from './webhooks';
import { bookingBurst, bookingSteady } from './bookings';
import { v1Transactions } from './transactions';
import { earningRulesScenario } from './earning-rules';
import { notificationSegmentSend } from './notifications';
import { analyticsScenario } from './analytics';
import { v1Award, v1BatchAward, v1CustomerRead } from './v1';
import { EARN_POINTS, SPEND_POINTS, seedLedger } from './seed-ledger';
import { freePort } from '../core/http';
import { MODULES } from '../subgraphs/registry';

const HOT_MEMBERS = Number(process.env.BENCH_HOT_MEMBERS ?? 20);
const SEED_ROWS = Number(process.env.BENCH_SEED_ROWS ?? 1_000_000);
/** Comma-separated subset of staffs,points,balance,redeem,redeemsteady,stream,v1read,v1award,v1batch,v1transactions,rules,webhooks,bookings,bookingsteady,notify,analytics,large; all but rules and large by default (large seeds 10,000,000 rows: npm run bench:large; rules: BENCH_SCENARIOS=rules). */
const SCENARIOS = new Set((process.env.BENCH_SCENARIOS ?? 'staffs,points,balance,redeem,redeemsteady,stream,v1read,v1award,v1batch,v1transactions,webhooks,bookings,bookingsteady,notify,analytics').split(',').map((name) => name.trim()));
/** Workers of the `npm start` target (one per core by default, as `npm start`). */
const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
/** Both targets verify the other's tokens. */
const JWT_SECRET = randomBytes(32).toString('hex');

/**
 * `npm start` (bin/start.ts) with WORKERS workers on the bench target's database: the platform as it
 * runs on this machine. Resolves with its REST URL once every worker serves.
 */
async function startWorkers(databaseUrl: string): Promise<{ child: ChildProcess; restUrl: string }> {
  const port = await freePort();
  const ports: Record<string, string> = { PORT: String(port), GATEWAY_PORT: String(await freePort()) };
  for (const module of MODULES) ports[`${module.contract.name.toUpperCase()}_PORT`] = String(await freePort());
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'bin', 'start.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...ports, JWT_SECRET, DATABASE_URL: databaseUrl, WORKERS: String(WORKERS), METRICS_PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_STANDARD_PER_HOUR: '100000000' },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
    // The primary says so once every worker serves.
    createInterface({ input: child.stdout! }).on('line', (line) => line.includes('platform is ready') && resolve());
  });
  child.removeAllListeners('exit');
  return { child, restUrl: `http://127.0.0.1:${port}` };
}

/**
 * GET /auth/api/staffs/me through the REST adapter, gateway and auth subgraph, and beside it, in the
 * same run, the baseline express route doing the same JWT check and SELECT.
 */
async function staffsMe(target: Target, workersUrl?: string): Promise<boolean> {
  const scenarios: Array<[string, string]> = [
    ['baseline: express + jose + pg', `${target.baselineUrl}/baseline/staffs/me`],
    ['platform, one process', `${target.restUrl}/auth/api/staffs/me`],
  ];
  if (workersUrl) scenarios.push([`platform, npm start (${WORKERS} workers)`, `${workersUrl}/auth/api/staffs/me`]);
  const results: Array<[string, Result]> = [];
  for (const [name, url] of scenarios) results.push([name, await warmThenLoad(url, target.token)]);
  console.log(`\nGET /auth/api/staffs/me, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx');
  for (const [name, result] of results) {
    console.log(
      `${name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)}`,
    );
  }
  const [[, baseline], ...platforms] = results;
  console.log('');
  for (const [name, platform] of platforms) {
    console.log(`${name} / baseline: request rate ${ratio(platform.requests.average, baseline.requests.average)}, p99 latency ${p99Ratio(platform, baseline)}`);
  }
  return results.every(([, result]) => result.non2xx === 0 && result.errors === 0);
}

interface WriteCounts {
  earned: number;
  spent: number;
  /** Spends refused with 400 for insufficient points: expected, not failures. */
  refused: number;
  /** Any other response: `earn 500`, `spend 409`, ... */
  unexpected: Map<string, number>;
}

/** Where one side of the points write scenario earns and spends: the platform's REST routes or the baseline's. */
interface WriteSide {
  name: string;
  url: string;
  earnPath: string;
  spendPath: string;
}

/**
 * Earn 10 / spend 5, alternating on each connection, each for a random member of the hot set, so
 * that concurrent requests keep meeting on the same balance rows.
 */
function loadWrites(target: Target, side: WriteSide, members: string[], duration: number): Promise<{ result: Result; counts: WriteCounts }> {
  const counts: WriteCounts = { earned: 0, spent: 0, refused: 0, unexpected: new Map() };
  const unexpected = (kind: string, status: number, body: string) => {
    const key = `${kind} ${status}`;
    if (!counts.unexpected.has(key)) console.error(`  ${side.name}: first unexpected ${key}: ${body.slice(0, 300)}`);
    counts.unexpected.set(key, (counts.unexpected.get(key) ?? 0) + 1);
  };
  const movement = (amount: number) => (request: autocannon.Request) => ({
    ...request,
    body: JSON.stringify({ memberId: members[randomInt(members.length)], amount }),
  });
  const result = run({
    url: side.url,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: side.earnPath,
        setupRequest: movement(EARN_POINTS),
        onResponse: (status, body) => (status >= 200 && status < 300 ? counts.earned++ : unexpected('earn', status, body)),
      },
      {
        method: 'POST',
        path: side.spendPath,
        setupRequest: movement(SPEND_POINTS),
        onResponse: (status, body) => {
          if (status >= 200 && status < 300) counts.spent++;
          else if (status === 400 && body.includes('Insufficient points')) counts.refused++;
          else unexpected('spend', status, body);
        },
      },
    ],
  });
  return result.then((result) => ({ result, counts }));
}

/** One side's measured run, its counts and what its state check found. */
interface WriteRun {
  result: Result;
  counts: WriteCounts;
  problems: string[];
}

/**
 * One side of the points write scenario on its own hot set: warm-up, measured run, then the ledger
 * check (balance = ledger = open lots, entry counts, no negative balance_after), one outbox event per
 * entry, as many entries as successful writes (and at most the requests dropped in flight more).
 */
async function writeSide(target: Target, pool: Pool, side: WriteSide): Promise<WriteRun> {
  const members = Array.from({ length: HOT_MEMBERS }, () => randomUUID());
  const warmUp = await loadWrites(target, side, members, WARM_UP_SECONDS);
  const { result, counts } = await loadWrites(target, side, members, DURATION_SECONDS);
  await settle(pool, members);
  const check = await checkLedger(pool, members);
  const problems = [...check.problems, ...(await checkOutbox(pool, members))];
  if (check.members.length !== members.length) problems.push(`${check.members.length} of ${members.length} members checked`);
  // Every write of the warm-up and of the measured run lands on the hot set.
  const succeeded = warmUp.counts.earned + warmUp.counts.spent + counts.earned + counts.spent;
  // autocannon drops the requests still in flight when a run ends; the server may commit them.
  const inFlight = 2 * CONNECTIONS;
  if (check.transactions < succeeded || check.transactions > succeeded + inFlight) {
    problems.push(`${check.transactions} ledger rows for ${succeeded} successful writes (+ at most ${inFlight} dropped in flight)`);
  }
  const unexpected = [...counts.unexpected.values(), ...warmUp.counts.unexpected.values()].reduce((sum, n) => sum + n, 0);
  if (unexpected > 0) problems.push(`${unexpected} unexpected responses (${[...counts.unexpected].map(([key, n]) => `${key} x${n}`).join(', ')})`);
  if (result.errors + warmUp.result.errors > 0) problems.push(`${result.errors + warmUp.result.errors} connection errors or timeouts`);
  const balances = check.members.reduce((sum, member) => sum + Number(member.balance), 0);
  console.log(
    `${side.name}: earned ${counts.earned}, spent ${counts.spent}, refused for insufficient points (400) ${counts.refused}; ledger check over ${members.length} hot members: ${check.transactions} transactions for ${succeeded} successful writes (warm-up included), balances total ${balances}`,
  );
  return { result, counts, problems };
}

/**
 * Before the load, on a fresh member: an earn repeated with its Idempotency-Key, then a spend larger
 * than the balance. Returns the three answers (status and body), which both sides must give alike,
 * and a problem when the repeat wrote a second entry.
 */
async function writeAnswers(target: Target, pool: Pool, side: WriteSide): Promise<{ answers: string; problems: string[] }> {
  const memberId = randomUUID();
  const post = async (path: string, amount: number, headers: Record<string, string> = {}) => {
    const response = await fetch(`${side.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ memberId, amount }),
    });
    return { status: response.status, body: await response.json() };
  };
  const key = { 'idempotency-key': randomUUID() };
  const answers = [await post(side.earnPath, EARN_POINTS, key), await post(side.earnPath, EARN_POINTS, key), await post(side.spendPath, EARN_POINTS + 1)];
  const { transactions } = await checkLedger(pool, [memberId]);
  return { answers: JSON.stringify(answers), problems: transactions === 1 ? [] : [`${transactions} ledger rows for an earn repeated with its key`] };
}

/** Waits until the requests autocannon dropped in flight at the end of a run have landed. */
async function settle(pool: Pool, members: string[]): Promise<void> {
  const count = async () =>
    (await pool.query(`select count(*)::int as n from point.point_transaction where member_id = any($1::uuid[])`, [members])).rows[0].n as number;
  for (let previous = -1, current = await count(), tries = 0; current !== previous && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    [previous, current] = [current, await count()];
  }
}

/**
 * Sustained earn + spend on a hot set of members, through REST (adapter, gateway, point) and beside it
 * through the hand-written baseline (bench/baselines/points.ts), each on its own hot set; after each,
 * the ledger and outbox checks. Before, both answer a repeated key and a refused spend alike. FAIL on a broken invariant or on an unexpected response.
 */
async function pointsWrite(target: Target, pool: Pool): Promise<boolean> {
  const sides: WriteSide[] = [
    { name: 'baseline: express + jose + pg', url: target.baselineUrl, earnPath: '/baseline/points/earn', spendPath: '/baseline/points/spend' },
    { name: 'platform: REST -> gateway -> point', url: target.restUrl, earnPath: '/point/api/earn', spendPath: '/point/api/spend' },
  ];
  console.log('');
  const [baselineAnswers, platformAnswers] = [await writeAnswers(target, pool, sides[0]), await writeAnswers(target, pool, sides[1])];
  const runs: WriteRun[] = [];
  for (const side of sides) runs.push(await writeSide(target, pool, side));
  console.log(`\nPOST /point/api/earn ${EARN_POINTS} + /point/api/spend ${SPEND_POINTS}, ${HOT_MEMBERS} hot members, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx   refused  unexpected  errors');
  for (const [index, { result, counts }] of runs.entries()) {
    const unexpected = [...counts.unexpected.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `${sides[index].name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)} ${String(counts.refused).padStart(9)} ${String(unexpected).padStart(11)} ${String(result.errors).padStart(7)}`,
    );
  }
  const [baseline, platform] = runs;
  console.log(`\nplatform / baseline: request rate ${ratio(platform.result.requests.average, baseline.result.requests.average)}, p99 latency ${p99Ratio(platform.result, baseline.result)}`);
  const problems = [
    ...[...baselineAnswers.problems, ...runs[0].problems].map((problem) => `${sides[0].name}: ${problem}`),
    ...[...platformAnswers.problems, ...runs[1].problems].map((problem) => `${sides[1].name}: ${problem}`),
  ];
  if (baselineAnswers.answers !== platformAnswers.answers) problems.push(`the answers differ: baseline ${baselineAnswers.answers}, platform ${platformAnswers.answers}`);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length === 0 ? 'points write: PASS (same answers, a repeated key writes nothing; ledger and outbox checks after both)' : `points write: FAIL (${problems.length} problems)`);
  return problems.length === 0;
}

/**
 * GET /point/api/balance/:memberId for a member with 10 ledger entries and for one with 1,000,000
 * (seeded directly into the database): the read cost should not grow with the history.
 */
async function balanceRead(target: Target, pool: Pool): Promise<boolean> {
  const seeded = await seedLedger(target.databaseUrl, SEED_ROWS);
  console.log(
    `\nseeded ${seeded.transactionRows} transactions and ${seeded.lotRows} lots in ${seeded.seconds.toFixed(1)}s (bench/seed-ledger.ts)`,
  );
  const check = await checkLedger(pool, [seeded.light.memberId, seeded.heavy.memberId]);
  const problems = [...check.problems];

  const results: Array<[string, number, Result]> = [];
  for (const [name, member] of [['light member', seeded.light], ['heavy member', seeded.heavy]] as const) {
    const url = `${target.restUrl}/point/api/balance/${member.memberId}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${target.token}` } });
    const body = (await response.json()) as { data?: { pointAmount?: number } };
    if (response.status !== 200 || body.data?.pointAmount !== member.balance) {
      problems.push(`${name}: GET balance answered ${response.status} ${JSON.stringify(body)}, expected pointAmount ${member.balance}`);
    }
    results.push([name, member.transactions, await warmThenLoad(url, target.token)]);
  }

  console.log(`\nGET /point/api/balance/:memberId, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
  console.log('scenario                 ledger rows     req/s     p50 ms   p99 ms   non-2xx');
  for (const [name, rows, result] of results) {
    console.log(
      `${name.padEnd(24)} ${String(rows).padStart(11)} ${result.requests.average.toFixed(0).padStart(9)} ${String(result.latency.p50).padStart(10)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)}`,
    );
    if (result.non2xx > 0 || result.errors > 0) problems.push(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const [[, , light], [, , heavy]] = results;
  console.log(`\nheavy / light request rate: ${ratio(heavy.requests.average, light.requests.average)}`);
  console.log(`heavy / light p99 latency:  ${p99Ratio(heavy, light)}`);
  console.log(problems.length === 0 ? 'balance read: PASS (seeded ledger consistent, balances answered)' : `balance read: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}

/**
 * `npm run bench`: staffs/me beside the baseline, points write on a hot set beside its baseline
 * (bench/baselines/points.ts) with the ledger and outbox checks, the v1 single award likewise,
 * balance reads for a light and a heavy ledger, and a burst of redemptions on a small stock with the
 * check that stock, codes and points agree and steady redemptions beside their baseline (bench/redeem.ts), 1,000 open notification streams with the
 * delivery latency and memory per stream (bench/stream.ts), GET /api/v1/customers/{id}?include=points,tier
 * beside its one-statement baseline and 1,000-row batch awards beside 1,000 single awards (bench/v1.ts),
 * v1 transactions (purchases) recorded beside their baseline (bench/transactions.ts), and (`rules`, not by default) with no
 * active earning rule and with 200 (bench/earning-rules.ts),
 * webhook fan-out to 10 receivers (one down) with deliveries per second and commit-to-receipt latency
 * (bench/webhooks.ts), a burst of bookings and steady bookings beside their baseline (bench/bookings.ts), a v1 send-to-segment over in_app to 100,000 members (bench/notifications.ts), the analytics dashboard over a
 * read model fed by 1,000,000 events beside its baseline and a 1,000,000-row report (bench/analytics.ts); `large` (bench/large.ts) the reads on 10,000,000
 * ledger rows and 1,000,000 members beside a small database. Exits non-zero when a check fails.
 */
async function main(): Promise<void> {
  let passed = true;
  if (['staffs', 'points', 'balance', 'redeem', 'redeemsteady', 'stream', 'v1read', 'v1award', 'v1batch', 'v1transactions', 'rules', 'webhooks', 'bookings', 'bookingsteady', 'notify', 'analytics'].some((name) => SCENARIOS.has(name))) {
    const { child, target } = await startTarget({ JWT_SECRET, ...(SCENARIOS.has('webhooks') ? WEBHOOK_TARGET_ENV : {}) });
    const pool = new Pool({ connectionString: target.databaseUrl, max: 2 });
    pool.on('error', () => {});
    const workers = WORKERS > 1 && SCENARIOS.has('staffs') ? await startWorkers(target.databaseUrl) : undefined;
    try {
      if (SCENARIOS.has('staffs')) passed = (await staffsMe(target, workers?.restUrl)) && passed;
      if (SCENARIOS.has('points')) passed = (await pointsWrite(target, pool)) && passed;
      if (SCENARIOS.has('balance')) passed = (await balanceRead(target, pool)) && passed;
      if (SCENARIOS.has('redeem')) passed = (await redeemBurst(target, pool)) && passed;
      if (SCENARIOS.has('redeemsteady')) passed = (await redeemSteady(target, pool)) && passed;
      if (SCENARIOS.has('stream')) passed = (await streamScenario(target, child, JWT_SECRET)) && passed;
      if (SCENARIOS.has('v1read')) passed = (await v1CustomerRead(target, pool)) && passed;
      if (SCENARIOS.has('v1award')) passed = (await v1Award(target, pool)) && passed;
      if (SCENARIOS.has('v1batch')) passed = (await v1BatchAward(target, pool)) && passed;
      if (SCENARIOS.has('v1transactions')) passed = (await v1Transactions(target, pool)) && passed;
      if (SCENARIOS.has('rules')) passed = (await earningRulesScenario(target, pool)) && passed;
      if (SCENARIOS.has('webhooks')) passed = (await webhookFanOut(target, pool)) && passed;
      if (SCENARIOS.has('bookings')) passed = (await bookingBurst(target, pool)) && passed;
      if (SCENARIOS.has('bookingsteady')) passed = (await bookingSteady(target, pool)) && passed;
      if (SCENARIOS.has('notify')) passed = (await notificationSegmentSend(target, pool)) && passed;
      if (SCENARIOS.has('analytics')) passed = (await analyticsScenario(target, child, pool)) && passed;
    } finally {
      await pool.end();
      if (workers) await stopTarget(workers.child);
      await stopTarget(child);
    }
  }
  if (SCENARIOS.has('large')) passed = (await largeData()) && passed;
  if (!passed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
