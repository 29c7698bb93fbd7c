import autocannon, { Result } from 'autocannon';
import { randomInt, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { checkLedger, checkOutbox } from './ledger-check';
import { CONNECTIONS, drained, DURATION_SECONDS, p99Ratio, ratio, run, Target, WARM_UP_SECONDS, warmThenLoad } from './load';

/** Ledger entries of the customer the read scenario reads (its lifetime sums cover them all). */
const READ_ENTRIES = Number(process.env.BENCH_V1_READ_ENTRIES ?? 200);
/** Customers the diagnostic beside the v1 customer read reads in turn. */
const SPREAD_CUSTOMERS = Number(process.env.BENCH_V1_SPREAD_CUSTOMERS ?? 20);
/** Rows of each batch award, and how many batches are timed (each a fresh Idempotency-Key). */
const BATCH_ROWS = 1_000;
const BATCHES = Number(process.env.BENCH_V1_BATCHES ?? 5);
/** Concurrent single awards of the baseline (the same 1,000 awards, one request each). */
const SINGLE_AWARD_CONNECTIONS = 20;
/** Customers the single-award scenario awards at random: concurrent awards keep meeting on their balance rows. */
const AWARD_CUSTOMERS = Number(process.env.BENCH_HOT_MEMBERS ?? 20);
/** Points of each single award. */
const AWARD_POINTS = 10;

async function call(target: Target, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${target.restUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const expectStatus = (what: string, response: { status: number; body: unknown }, status: number) => {
  if (response.status !== status) throw new Error(`${what} answered ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
};

/** `count` members straight in the auth schema (what a v1 import would have made). */
export async function insertMembers(pool: Pool, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await pool.query(
    `insert into auth.member (id, name, status, created_at, updated_at) select id, 'Bench customer', 'ACTIVE', now(), now() from unnest($1::uuid[]) as id`,
    [ids],
  );
  return ids;
}

/**
 * A customer to read: created through v1 in a tier of its own, READ_ENTRIES awards behind its lifetime
 * sums, placed by the cluster (its tier projection written, as for any customer once `customer.created`
 * is consumed). Answers the read's path.
 */
export async function prepareCustomerRead(target: Target, pool: Pool): Promise<{ id: string; path: string }> {
  await pool.query(
    `insert into cluster.tier (id, name_en, description_en, level, requirement, is_active, is_special, created_at, updated_at)
     values ($1, 'Bench tier', 'bench', 1, '{}', true, false, now(), now())`,
    [randomUUID()],
  );
  const [id] = await customersToRead(target, pool, 1);
  return { id, path: `/api/v1/customers/${id}?include=points,tier` };
}

/** `count` customers made as `prepareCustomerRead` makes one (in the tiers there are), once the cluster has placed them all. */
async function customersToRead(target: Target, pool: Pool, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const created = await call(target, 'POST', '/api/v1/customers', { name: 'Bench reader', email: `bench-${randomUUID()}@example.com` });
    expectStatus('POST /api/v1/customers', created, 200);
    const id: string = created.body.data.id;
    const awards = Array.from({ length: READ_ENTRIES }, (_, entry) => ({ customer_id: id, points: 10 + (entry % 7), reason: `bench ${entry}` }));
    expectStatus('batch award', await call(target, 'POST', '/api/v1/points/batch-award', { awards }, { 'idempotency-key': randomUUID() }), 200);
    ids.push(id);
  }
  // The cluster places a new customer when it consumes customer.created (until then the read shows the promised entry tier): wait for it.
  for (let tries = 0; ; tries++) {
    const { rows } = await pool.query('select count(*)::int as placed from cluster.tier_projection where member_id = any($1::uuid[])', [ids]);
    if (rows[0].placed === ids.length) return ids;
    if (tries === 100) throw new Error(`the cluster never placed customers ${ids.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * GET /api/v1/customers/{id}?include=points,tier (auth, point and cluster through the gateway, with
 * READ_ENTRIES ledger entries behind the lifetime sums) beside the baseline express route that makes
 * the same checks, reads the same in one SQL statement and answers the same body
 * (bench/baselines/v1-customer.ts). Both answers are checked equal byte for byte, and so are their
 * 404s for an unknown customer.
 */
export async function v1CustomerRead(target: Target, pool: Pool): Promise<boolean> {
  const problems: string[] = [];
  const { id, path } = await prepareCustomerRead(target, pool);
  const answers = async (customerId: string) => {
    const headers = { authorization: `Bearer ${target.token}` };
    const read = (url: string) => fetch(url, { headers }).then(async (response) => `${response.status} ${await response.text()}`);
    return [await read(`${target.restUrl}/api/v1/customers/${customerId}?include=points,tier`), await read(`${target.baselineUrl}/baseline/v1/customers/${customerId}`)];
  };
  for (const customerId of [id, randomUUID()]) {
    const [platformAnswer, baselineAnswer] = await answers(customerId);
    if (platformAnswer !== baselineAnswer) problems.push(`the answers differ: platform ${platformAnswer}, baseline ${baselineAnswer}`);
  }
  // As the write scenarios: neither side is measured while the platform still consumes the events of the
  // work before it (the scenarios before, this customer's 200 awards).
  const load = async (name: string, url: string): Promise<[string, Awaited<ReturnType<typeof warmThenLoad>>]> => {
    if (!(await drained(target.databaseUrl))) console.log(`${name}: measured with the event consumers' backlog of the work before it not drained`);
    return [name, await warmThenLoad(url, target.token)];
  };
  const results = [
    await load('baseline: express + jose + pg', `${target.baselineUrl}/baseline/v1/customers/${id}`),
    await load('platform, one process', `${target.restUrl}${path}`),
  ];
  printReads(`GET /api/v1/customers/{id}?include=points,tier (${READ_ENTRIES} ledger entries), ${CONNECTIONS} connections, ${DURATION_SECONDS}s each`, results, problems);
  // A diagnostic beside it (not a goal): each request reads the next of SPREAD_CUSTOMERS customers, so
  // that the reads running at one moment ask different ids (one customer's reads share their statements).
  const spread = await customersToRead(target, pool, SPREAD_CUSTOMERS);
  const spreadLoad = async (name: string, base: string, pathOf: (customerId: string) => string): Promise<[string, Result]> => {
    if (!(await drained(target.databaseUrl))) console.log(`${name}: measured with the event consumers' backlog of the work before it not drained`);
    let next = 0;
    const options = (duration: number) => ({
      url: base,
      connections: CONNECTIONS,
      duration,
      headers: { authorization: `Bearer ${target.token}` },
      requests: [{ method: 'GET' as const, setupRequest: (request: any) => ({ ...request, path: pathOf(spread[next++ % spread.length]) }) }],
    });
    await run(options(WARM_UP_SECONDS));
    return [name, await run(options(DURATION_SECONDS))];
  };
  printReads(`the same read of ${SPREAD_CUSTOMERS} customers in turn (diagnostic)`, [
    await spreadLoad('baseline: express + jose + pg', target.baselineUrl, (customerId) => `/baseline/v1/customers/${customerId}`),
    await spreadLoad('platform, one process', target.restUrl, (customerId) => `/api/v1/customers/${customerId}?include=points,tier`),
  ], problems);
  console.log(problems.length === 0 ? 'v1 customer read: PASS (platform and baseline agree)' : `v1 customer read: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}

/** Prints a read's baseline and platform sides with their ratios; a non-2xx answer is a problem. */
function printReads(title: string, results: Array<[string, Result]>, problems: string[]): void {
  console.log(`\n${title}\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx');
  for (const [name, result] of results) {
    console.log(`${name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)}`);
    if (result.non2xx > 0 || result.errors > 0) problems.push(`${title}, ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const [[, baseline], [, platform]] = results;
  console.log(`\nplatform / baseline: request rate ${ratio(platform.requests.average, baseline.requests.average)}, p99 latency ${p99Ratio(platform, baseline)}`);
}

/** Milliseconds of `work`. */
async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * POST /api/v1/points/batch-award with 1,000 rows, BATCHES times (each on 1,000 fresh customers), beside
 * the baseline of the same 1,000 awards sent one per request (POST /customers/{id}/points/award,
 * SINGLE_AWARD_CONNECTIONS at a time). Then the ledger check over every customer awarded.
 */
export async function v1BatchAward(target: Target, pool: Pool): Promise<boolean> {
  const problems: string[] = [];
  const awarded: string[] = [];
  const batch = async (members: string[]) => {
    const awards = members.map((customer_id, index) => ({ customer_id, points: 1 + (index % 50), reason: 'bench batch' }));
    const response = await call(target, 'POST', '/api/v1/points/batch-award', { awards }, { 'idempotency-key': randomUUID() });
    expectStatus('batch award', response, 200);
    if (response.body.data.processed !== members.length || response.body.data.failed !== 0) problems.push(`a batch processed ${response.body.data.processed}, failed ${response.body.data.failed}`);
  };
  await batch(await insertMembers(pool, 100)); // warm-up, not timed
  const batchMs: number[] = [];
  for (let round = 0; round < BATCHES; round++) {
    const members = await insertMembers(pool, BATCH_ROWS);
    awarded.push(...members);
    batchMs.push(await timed(() => batch(members)));
  }
  const singles = await insertMembers(pool, BATCH_ROWS);
  awarded.push(...singles);
  const singleMs = await timed(async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: SINGLE_AWARD_CONNECTIONS }, async () => {
        while (next < singles.length) {
          const index = next++;
          const response = await call(target, 'POST', `/api/v1/customers/${singles[index]}/points/award`, { points: 1 + (index % 50), reason: 'bench single' });
          if (response.status !== 200) problems.push(`single award answered ${response.status}`);
        }
      }),
    );
  });
  const check = await checkLedger(pool, awarded);
  problems.push(...check.problems);
  const expected = Array.from({ length: BATCH_ROWS }, (_, index) => 1 + (index % 50)).reduce((sum, points) => sum + points, 0) * (BATCHES + 1);
  const total = check.members.reduce((sum, member) => sum + Number(member.balance), 0);
  if (total !== expected) problems.push(`balances total ${total}, expected ${expected}`);
  const sorted = [...batchMs].sort((a, b) => a - b);
  console.log(`\nPOST /api/v1/points/batch-award, ${BATCH_ROWS} rows, ${BATCHES} batches on fresh customers\n`);
  console.log('scenario                                   seconds (median)   max    rows/s');
  console.log(`${'batch award, one request'.padEnd(42)} ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2).padStart(16)} ${(sorted[sorted.length - 1] / 1000).toFixed(2).padStart(6)} ${(BATCH_ROWS / (sorted[Math.floor(sorted.length / 2)] / 1000)).toFixed(0).padStart(8)}`);
  console.log(`${`baseline: ${BATCH_ROWS} single awards, ${SINGLE_AWARD_CONNECTIONS} at a time`.padEnd(42)} ${(singleMs / 1000).toFixed(2).padStart(16)} ${''.padStart(6)} ${(BATCH_ROWS / (singleMs / 1000)).toFixed(0).padStart(8)}`);
  console.log(`\nbatch / single awards time: ${ratio(sorted[Math.floor(sorted.length / 2)], singleMs)}; ledger check over ${awarded.length} customers, balances total ${total}`);
  console.log(problems.length === 0 ? 'v1 batch award: PASS' : `v1 batch award: FAIL (${problems.slice(0, 5).join('; ')})`);
  return problems.length === 0;
}

/** POST {path of customer}/points/award of AWARD_POINTS for a random customer of `customers`; the 200s counted. */
async function loadAwards(target: Target, url: string, awardPath: (id: string) => string, customers: string[], duration: number) {
  const counts = { awarded: 0, unexpected: new Map<string, number>() };
  const result = await run({
    url,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (request: autocannon.Request) => ({ ...request, path: awardPath(customers[randomInt(customers.length)]), body: JSON.stringify({ points: AWARD_POINTS, reason: 'bench award' }) }),
        onResponse: (status, body) => {
          if (status === 200) return void counts.awarded++;
          if (!counts.unexpected.has(String(status))) console.error(`  first unexpected award ${status}: ${body.slice(0, 300)}`);
          counts.unexpected.set(String(status), (counts.unexpected.get(String(status)) ?? 0) + 1);
        },
      },
    ],
  });
  return { result, counts };
}

/**
 * POST /api/v1/customers/{id}/points/award (single awards of AWARD_POINTS to AWARD_CUSTOMERS customers
 * at random) through the platform and beside it through the hand-written baseline
 * (bench/baselines/points.ts), each on its own customers; then, for each, the ledger and outbox checks
 * and every award's points on the balances. First, on each: one award with an Idempotency-Key and a
 * transaction id, repeated with the key and with the id alone, answers the same (one ledger row), and
 * the two sides answer the same body but for ids and times.
 */
export async function v1Award(target: Target, pool: Pool): Promise<boolean> {
  const problems: string[] = [];
  const sides = [
    { name: 'baseline: express + jose + pg', url: target.baselineUrl, awardPath: (id: string) => `/baseline/v1/customers/${id}/points/award` },
    { name: 'platform, one process', url: target.restUrl, awardPath: (id: string) => `/api/v1/customers/${id}/points/award` },
  ];
  const answers = [];
  for (const side of sides) {
    const [customer] = await insertMembers(pool, 1);
    const award = async (headers: Record<string, string>) => {
      const response = await fetch(`${side.url}${side.awardPath(customer)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ points: AWARD_POINTS, reason: 'bench award', transaction_id: 'bench-1' }),
      });
      return JSON.stringify({ status: response.status, ...((await response.json()) as object) });
    };
    const key = { 'idempotency-key': randomUUID() };
    const [first, byKey, byTransactionId] = [await award(key), await award(key), await award({})];
    // A repeat of the key, and of the transaction id without it, answer the first award and award nothing.
    if (byKey !== first || byTransactionId !== first) problems.push(`${side.name}: repeats answered ${byKey} and ${byTransactionId}, first ${first}`);
    const check = await checkLedger(pool, [customer]);
    if (check.transactions !== 1) problems.push(`${side.name}: ${check.transactions} ledger rows for one award repeated`);
    const body = JSON.parse(first);
    answers.push(JSON.stringify({ ...body, data: { ...body.data, id: typeof body.data?.id, customer_id: typeof body.data?.customer_id, created_at: typeof body.data?.created_at } }));
  }
  if (answers[0] !== answers[1]) problems.push(`the answers differ: baseline ${answers[0]}, platform ${answers[1]}`);
  const results: Array<[string, Result]> = [];
  for (const side of sides) {
    const customers = await insertMembers(pool, AWARD_CUSTOMERS);
    const warmUp = await loadAwards(target, side.url, side.awardPath, customers, WARM_UP_SECONDS);
    const { result, counts } = await loadAwards(target, side.url, side.awardPath, customers, DURATION_SECONDS);
    results.push([side.name, result]);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the awards dropped in flight land
    const check = await checkLedger(pool, customers);
    const sideProblems = [...check.problems, ...(await checkOutbox(pool, customers))];
    const awarded = warmUp.counts.awarded + counts.awarded;
    const inFlight = 2 * CONNECTIONS;
    if (check.transactions < awarded || check.transactions > awarded + inFlight) sideProblems.push(`${check.transactions} ledger rows for ${awarded} awards (+ at most ${inFlight} dropped in flight)`);
    const total = check.members.reduce((sum, member) => sum + Number(member.balance), 0);
    if (total !== check.transactions * AWARD_POINTS) sideProblems.push(`balances total ${total} for ${check.transactions} awards of ${AWARD_POINTS}`);
    const unexpected = [...counts.unexpected, ...warmUp.counts.unexpected];
    if (unexpected.length > 0) sideProblems.push(`unexpected answers: ${unexpected.map(([status, n]) => `${status} x${n}`).join(', ')}`);
    if (result.errors + warmUp.result.errors > 0) sideProblems.push(`${result.errors + warmUp.result.errors} connection errors or timeouts`);
    console.log(`${side.name}: ${awarded} awards (warm-up included), ${check.transactions} ledger rows, balances total ${total}`);
    problems.push(...sideProblems.map((problem) => `${side.name}: ${problem}`));
  }
  console.log(`\nPOST /api/v1/customers/{id}/points/award ${AWARD_POINTS}, ${AWARD_CUSTOMERS} customers, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx');
  for (const [name, result] of results) {
    console.log(`${name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)}`);
  }
  const [[, baseline], [, platform]] = results;
  console.log(`\nplatform / baseline: request rate ${ratio(platform.requests.average, baseline.requests.average)}, p99 latency ${p99Ratio(platform, baseline)}`);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length === 0 ? 'v1 award: PASS (same answers, repeats award nothing; ledger and outbox checks after both)' : `v1 award: FAIL (${problems.length} problems)`);
  return problems.length === 0;
}
