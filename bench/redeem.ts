import { randomInt, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { checkLedger, checkOutbox } from './ledger-check';
import { anonymized, CONNECTIONS, drained, DURATION_SECONDS, LoadWatcher, loadWrite, printSides, ratio, settled, Target, WARM_UP_SECONDS, WriteRun } from './load';

/** Redemptions sent at once, by as many distinct members, on a stock of STOCK. */
const REDEEMERS = Number(process.env.BENCH_REDEEMERS ?? 200);
const STOCK = Number(process.env.BENCH_REDEEM_STOCK ?? 100);
const POINT_USAGE = 10;
/** A smaller burst first, on a catalog of its own, so that the measured one does not pay for cold code paths. */
const WARM_UP_REDEEMERS = 20;

async function call(target: Target, method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A POINT reward with `stock` units and its catalog at POINT_USAGE points; the catalog's id. */
export async function createCatalog(target: Target, stock: number): Promise<string> {
  const reward = await call(target, 'POST', `${target.restUrl}/reward/api/rewards`, { name_en: `Bench reward ${randomUUID()}`, description_en: 'bench', type: 'POINT', stock });
  if (reward.status !== 200) throw new Error(`creating the reward answered ${reward.status} ${JSON.stringify(reward.body)}`);
  const catalog = await call(target, 'POST', `${target.restUrl}/reward/api/reward-catalogs`, {
    name_en: `Bench catalog ${randomUUID()}`,
    rewardId: reward.body.data.id,
    redeemRule: { pointUsage: POINT_USAGE },
  });
  if (catalog.status !== 201) throw new Error(`creating the catalog answered ${catalog.status} ${JSON.stringify(catalog.body)}`);
  return catalog.body.data.id;
}

/** `count` members straight in the auth schema, each given `points` (enough for 5 redemptions unless told) through POST /point/api/earn. */
export async function createMembers(target: Target, pool: Pool, count: number, points = 5 * POINT_USAGE): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await pool.query(
    `insert into auth.member (id, name, status, created_at, updated_at) select id, 'Bench redeemer', 'ACTIVE', now(), now() from unnest($1::uuid[]) as id`,
    [ids],
  );
  const earned = await Promise.all(ids.map((memberId) => call(target, 'POST', `${target.restUrl}/point/api/earn`, { memberId, amount: points })));
  const failed = earned.filter((response) => response.status !== 200);
  if (failed.length > 0) throw new Error(`earning answered ${failed[0].status} ${JSON.stringify(failed[0].body)}`);
  return ids;
}

interface Burst {
  statuses: Record<number, number>;
  /** Every non-201 that is not a 400 OUT_OF_STOCK, the first few. */
  unexpected: string[];
  seconds: number;
  latencies: number[];
}

/** Who answers the redemptions: the platform, or the hand-written baseline in the bench target (bench/baselines/redeem.ts). */
export interface RedeemRoute {
  name: string;
  url: (target: Target, catalogId: string) => string;
}

export const REDEEM_ROUTES: RedeemRoute[] = [
  { name: 'redeem: REST -> gateway -> reward', url: (target, catalogId) => `${target.restUrl}/reward/api/reward-catalogs/${catalogId}/redeem` },
  { name: 'baseline: express + jose + pg', url: (target, catalogId) => `${target.baselineUrl}/baseline/reward-catalogs/${catalogId}/redeem` },
];

/** One POST /redeem per member, all at once (staff for the member, each with its own Idempotency-Key). */
async function burst(target: Target, redeemer: RedeemRoute, catalogId: string, memberIds: string[]): Promise<Burst> {
  const started = performance.now();
  const results = await Promise.all(
    memberIds.map(async (memberId) => {
      const sent = performance.now();
      const response = await call(target, 'POST', redeemer.url(target, catalogId), { memberId }, { 'idempotency-key': randomUUID() });
      return { ...response, ms: performance.now() - sent };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const statuses: Record<number, number> = {};
  const unexpected: string[] = [];
  for (const { status, body } of results) {
    statuses[status] = (statuses[status] ?? 0) + 1;
    const outOfStock = status === 400 && body.data?.data?.reasons?.[0]?.code === 'OUT_OF_STOCK';
    if (status !== 201 && !outOfStock && unexpected.length < 3) unexpected.push(`${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return { statuses, unexpected, seconds, latencies: results.map((result) => result.ms).sort((a, b) => a - b) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * What the three stores hold for the catalog: codes, stock and the counts of the reward and the catalog
 * here, points spent in the point domain, redemptions COMPLETED and left PENDING.
 */
async function stores(pool: Pool, catalogId: string, memberIds: string[]) {
  const { rows } = await pool.query(
    `select (select count(*)::int from reward.reward_code where reward_catalog_id = $1) as codes,
            (select r.stock from reward.reward r join reward.reward_catalog c on c.reward_id = r.id where c.id = $1) as stock,
            (select r.redeemed_count from reward.reward r join reward.reward_catalog c on c.reward_id = r.id where c.id = $1) as "rewardCount",
            (select redeemed_count from reward.reward_catalog where id = $1) as "catalogCount",
            (select count(*)::int from reward.redemption where reward_catalog_id = $1 and state = 'COMPLETED') as completed,
            (select count(*)::int from reward.redemption where reward_catalog_id = $1 and state = 'PENDING') as pending,
            (select coalesce(sum(amount), 0)::text from point.point_transaction
              where member_id = any($2::uuid[]) and action_type = 'SPEND' and note like '%' || $1::text) as spent`,
    [catalogId, memberIds],
  );
  return rows[0] as { codes: number; stock: number; rewardCount: number; catalogCount: number; completed: number; pending: number; spent: string };
}

/**
 * A warm-up burst on a catalog of its own, then the measured one on a fresh catalog of STOCK with fresh
 * members, and what the stores hold after it: exactly STOCK codes, STOCK × pointUsage points spent,
 * stock 0, nothing PENDING; every refusal a 400 OUT_OF_STOCK.
 */
async function measure(target: Target, pool: Pool, redeemer: RedeemRoute) {
  await burst(target, redeemer, await createCatalog(target, WARM_UP_REDEEMERS / 2), await createMembers(target, pool, WARM_UP_REDEEMERS));
  const catalogId = await createCatalog(target, STOCK);
  const memberIds = await createMembers(target, pool, REDEEMERS);
  if (!(await drained(target.databaseUrl))) console.log(`${redeemer.name}: the burst sent with the event consumers' backlog of the work before it not drained`);
  const result = await burst(target, redeemer, catalogId, memberIds);
  const found = await stores(pool, catalogId, memberIds);
  const problems: string[] = [];
  if (result.statuses[201] !== STOCK) problems.push(`${result.statuses[201] ?? 0} redemptions succeeded, expected ${STOCK}`);
  if (result.unexpected.length > 0) problems.push(`unexpected answers: ${result.unexpected.join('; ')}`);
  if (found.codes !== STOCK) problems.push(`${found.codes} codes, expected ${STOCK}`);
  if (found.stock !== 0) problems.push(`stock ${found.stock}, expected 0`);
  if (Number(found.spent) !== STOCK * POINT_USAGE) problems.push(`${found.spent} points spent, expected ${STOCK * POINT_USAGE}`);
  if (found.pending !== 0) problems.push(`${found.pending} redemptions left PENDING`);
  return { result, found, problems: problems.map((problem) => `${redeemer.name}: ${problem}`) };
}

/**
 * REDEEMERS distinct members (each with enough points) redeem a catalog with a stock of STOCK at once,
 * through REST as staff for each member, and the same on a fresh catalog through the hand-written
 * baseline; each checked as `measure` says. Prints both request rates and latencies, and their ratios.
 */
export async function redeemBurst(target: Target, pool: Pool): Promise<boolean> {
  const measured = [];
  for (const redeemer of REDEEM_ROUTES) measured.push({ redeemer, ...(await measure(target, pool, redeemer)) });

  console.log(`\nPOST /reward/api/reward-catalogs/:id/redeem, ${REDEEMERS} distinct members at once, stock ${STOCK}, ${POINT_USAGE} points each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   max ms   statuses');
  for (const { redeemer, result, found } of measured) {
    console.log(
      `${redeemer.name.padEnd(36)} ${(REDEEMERS / result.seconds).toFixed(0).padStart(7)} ${percentile(result.latencies, 50).toFixed(0).padStart(9)} ${percentile(result.latencies, 99).toFixed(0).padStart(8)} ${result.latencies[result.latencies.length - 1].toFixed(0).padStart(8)}   ${JSON.stringify(result.statuses)}`,
    );
    console.log(`${''.padEnd(36)} the burst took ${result.seconds.toFixed(2)} s; stores after it: ${found.codes} codes, stock ${found.stock}, ${found.spent} points spent, ${found.pending} PENDING`);
  }
  const [platform, baseline] = measured.map(({ result }) => result);
  console.log(`\nredeem platform / baseline: request rate ${ratio(REDEEMERS / platform.seconds, REDEEMERS / baseline.seconds)}, p99 latency ${(percentile(platform.latencies, 99) / percentile(baseline.latencies, 99)).toFixed(2)}x`);
  const problems = measured.flatMap((side) => side.problems);
  console.log(problems.length === 0 ? 'redeem: PASS' : `redeem: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}

/** The steady scenario's stock: it does not run out. */
const STEADY_STOCK = 1_000_000;
/** Members the steady scenario redeems for at random (concurrent redemptions keep meeting on their balance rows), each with points for every request. */
const STEADY_MEMBERS = Number(process.env.BENCH_HOT_MEMBERS ?? 20);
const STEADY_POINTS = 1_000_000;

/**
 * On each side, a fresh catalog of 1 unit: a redemption, its repeat with the same key (the same code),
 * another key (400 OUT_OF_STOCK); and a member without points on a catalog in stock (400). The answers,
 * ids, times and codes left out, which both sides must give alike; a problem when a repeat answered
 * another body or issued a second code.
 */
async function redemptionAnswers(target: Target, pool: Pool, redeemer: RedeemRoute): Promise<{ answers: string; problems: string[] }> {
  const catalogId = await createCatalog(target, 1);
  const [memberId] = await createMembers(target, pool, 1);
  const [poor] = await createMembers(target, pool, 1, 0);
  const redeem = (catalog: string, member: string, key: string) => call(target, 'POST', redeemer.url(target, catalog), { memberId: member }, { 'idempotency-key': key });
  const key = randomUUID();
  const answers = [
    await redeem(catalogId, memberId, key),
    await redeem(catalogId, memberId, key),
    await redeem(catalogId, memberId, randomUUID()),
    await redeem(await createCatalog(target, 10), poor, randomUUID()),
  ];
  const problems: string[] = [];
  if (JSON.stringify(answers[1]) !== JSON.stringify(answers[0])) problems.push(`a repeat of the key answered ${JSON.stringify(answers[1])}, first ${JSON.stringify(answers[0])}`);
  const found = await stores(pool, catalogId, [memberId]);
  if (found.codes !== 1 || Number(found.spent) !== POINT_USAGE) problems.push(`${found.codes} codes and ${found.spent} points spent for one redemption repeated`);
  return { answers: JSON.stringify(anonymized(answers, ['code'])), problems };
}

/**
 * One side of the steady redemption: a warm-up and the measured run on a catalog whose stock does not
 * run out (a fresh one, unless given one), STEADY_MEMBERS fresh members with points for every request,
 * each request its own Idempotency-Key, once the platform has consumed the events of what ran before; then the check of what the run added: as many codes as 201
 * answers (and at most the requests dropped in flight more), the codes' points spent, the stock and
 * both counts moved by the codes, every redemption COMPLETED, nothing PENDING, and the ledger and
 * outbox checks over the members.
 */
export async function steadyRedemptions(target: Target, pool: Pool, redeemer: RedeemRoute, catalog?: string, watcher?: LoadWatcher): Promise<{ run: WriteRun; answered: number; problems: string[] }> {
  const catalogId = catalog ?? (await createCatalog(target, STEADY_STOCK));
  const members = await createMembers(target, pool, STEADY_MEMBERS, STEADY_POINTS);
  const before = await stores(pool, catalogId, members);
  const url = new URL(redeemer.url(target, catalogId));
  const next = () => ({ path: url.pathname, body: JSON.stringify({ memberId: members[randomInt(members.length)] }), headers: { 'idempotency-key': randomUUID() } });
  if (!(await drained(target.databaseUrl))) console.log(`${redeemer.name}: measured with the event consumers' backlog of the work before it not drained`);
  await watcher?.started();
  const warmUp = await loadWrite(url.origin, target.token, next, (status) => status === 201, WARM_UP_SECONDS);
  const run = await loadWrite(url.origin, target.token, next, (status) => status === 201, DURATION_SECONDS);
  await settled(async () => (await pool.query(`select count(*)::int as n from reward.reward_code where reward_catalog_id = $1`, [catalogId])).rows[0].n);
  await watcher?.landed();
  const after = await stores(pool, catalogId, members);
  const codes = after.codes - before.codes;
  const answered = (warmUp.statuses.get(201) ?? 0) + (run.statuses.get(201) ?? 0);
  const inFlight = 2 * CONNECTIONS;
  const problems: string[] = [];
  if (codes < answered || codes > answered + inFlight) problems.push(`${codes} codes for ${answered} answers 201 (+ at most ${inFlight} dropped in flight)`);
  if (Number(after.spent) !== codes * POINT_USAGE) problems.push(`${after.spent} points spent for ${codes} codes of ${POINT_USAGE}`);
  if (before.stock - after.stock !== codes) problems.push(`stock ${before.stock} -> ${after.stock} for ${codes} codes`);
  if (after.rewardCount - before.rewardCount !== codes || after.catalogCount - before.catalogCount !== codes) {
    problems.push(`redeemed counts ${before.rewardCount} -> ${after.rewardCount} (reward), ${before.catalogCount} -> ${after.catalogCount} (catalog) for ${codes} codes`);
  }
  if (after.completed - before.completed !== codes || after.pending !== 0) problems.push(`${after.completed - before.completed} redemptions COMPLETED and ${after.pending} PENDING for ${codes} codes`);
  const ledger = await checkLedger(pool, members);
  problems.push(...ledger.problems, ...(await checkOutbox(pool, members)));
  for (const side of [warmUp, run]) problems.push(...side.unexpected.map((answer) => `unexpected answer ${answer}`));
  if (warmUp.result.errors + run.result.errors > 0) problems.push(`${warmUp.result.errors + run.result.errors} connection errors or timeouts`);
  console.log(`${redeemer.name}: ${answered} answers 201 (warm-up included); the stores after: ${codes} codes more, ${after.spent} points spent, stock ${after.stock}, ${after.pending} PENDING`);
  return { run, answered, problems: problems.map((problem) => `${redeemer.name}: ${problem}`) };
}

/**
 * Steady redemptions: CONNECTIONS connections for BENCH_DURATION redeem a catalog whose stock does not
 * run out for STEADY_MEMBERS members, through REST and beside it through the hand-written baseline
 * (bench/baselines/redeem.ts), each on its own catalog and members, checked as `steadyRedemptions` says.
 * Before, both answer a redemption, its repeat and two refusals alike. Prints the rates, latencies and ratios.
 */
export async function redeemSteady(target: Target, pool: Pool): Promise<boolean> {
  const [platformRoute, baselineRoute] = REDEEM_ROUTES;
  console.log('');
  const problems: string[] = [];
  const answers = [await redemptionAnswers(target, pool, baselineRoute), await redemptionAnswers(target, pool, platformRoute)];
  problems.push(...answers[0].problems.map((problem) => `${baselineRoute.name}: ${problem}`), ...answers[1].problems.map((problem) => `${platformRoute.name}: ${problem}`));
  if (answers[0].answers !== answers[1].answers) problems.push(`the answers differ: baseline ${answers[0].answers}, platform ${answers[1].answers}`);
  // The platform first: its event consumers then never work through the backlog of the baseline's faster run while measured.
  const platform = await steadyRedemptions(target, pool, platformRoute);
  const baseline = await steadyRedemptions(target, pool, baselineRoute);
  problems.push(...baseline.problems, ...platform.problems);
  printSides(`POST /reward/api/reward-catalogs/:id/redeem, steady, stock that does not run out, ${STEADY_MEMBERS} members, ${POINT_USAGE} points each`, [
    [baselineRoute.name, baseline.run.result],
    [platformRoute.name, platform.run.result],
  ]);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length === 0 ? 'redeem steady: PASS (same answers; codes, points, stock and counts agree; ledger and outbox checks after both)' : `redeem steady: FAIL (${problems.length} problems)`);
  return problems.length === 0;
}
