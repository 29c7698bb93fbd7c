import { Result } from 'autocannon';
import { randomInt, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { checkLedger } from './ledger-check';
import { CONNECTIONS, drained, DURATION_SECONDS, LoadWatcher, loadWrite, p99Ratio, ratio, settled, startTarget, stopTarget, Target, WARM_UP_SECONDS, warmThenLoad, WriteRun } from './load';
import { LoggedPlan, PlanLog, scansOf } from './plans';
import { createCatalog, createMembers, REDEEM_ROUTES, steadyRedemptions } from './redeem';
import { COMMON_SEARCH, LargeScale, memberId, RARE_SEARCH, SeededCodes, seedCodes, SeededLarge, seedLarge } from './seed-large';
import { EARN_POINTS } from './seed-ledger';

const LARGE: LargeScale = { members: Number(process.env.BENCH_LARGE_MEMBERS ?? 1_000_000), transactions: Number(process.env.BENCH_LARGE_ROWS ?? 10_000_000) };
const SMALL: LargeScale = { members: Number(process.env.BENCH_SMALL_MEMBERS ?? 1_000), transactions: Number(process.env.BENCH_SMALL_ROWS ?? 10_000) };
/** Seeded once and reused by later runs. */
const LARGE_DATA_DIR = process.env.DATA_DIR ?? join(__dirname, '..', '.data', 'bench-large');
/** The large database the writes run on, seeded as the reads' one but apart: what the writes add never changes what the reads check. */
const LARGE_WRITES_DATA_DIR = `${LARGE_DATA_DIR}-writes`;
/** The writes' large database as its seed left it (stopped, never run on): each run starts from a copy of it. */
const LARGE_WRITES_SEED_DIR = `${LARGE_WRITES_DATA_DIR}-seed`;
/** A read of the large database whose request rate falls below this share of the small one's grows with the data. */
const FLAT_RATIO = 0.5;
/** The writes' goal (issue 27): the large side's rate, p50 and p99 within this factor of the small side's. */
const WRITE_GOAL = 1.2;
/** Codes issued of the catalog the large database's redemption row redeems (seeded once, reused). */
const ISSUED_CODES = Number(process.env.BENCH_LARGE_CODES ?? 100_000);
/** Seeded members the earn row earns for at random, the same numbers on both databases. */
const EARNERS = 20;
/** The earn loads run this many times on each side, small and large in turn; the row compares their medians. */
const EARN_ROUNDS = Number(process.env.BENCH_LARGE_EARN_ROUNDS ?? 3);

const PAGE = 10;
const lastPage = (rows: number) => Math.ceil(rows / PAGE);
const tierLevelOf = (k: number) => (k % 20 < 12 ? 1 : k % 20 < 17 ? 2 : k % 20 < 19 ? 3 : 4);

interface Read {
  name: string;
  path: (seed: SeededLarge) => string;
  /** What the answer must hold for this seed: a problem, or undefined. */
  check: (body: any, seed: SeededLarge) => string | undefined;
  /** The read's cost grows with the data by its nature (said in the table, not a failure). */
  grows?: string;
}

const expectEqual = (what: string, actual: unknown, expected: unknown) =>
  JSON.stringify(actual) === JSON.stringify(expected) ? undefined : `${what} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;

/** The reads, each as the admin UI or the mini-program asks them, with what their answers must be. */
const READS: Read[] = [
  {
    name: 'balance of the heavy member',
    path: (seed) => `/point/api/balance/${seed.heavyMemberId}`,
    check: (body, seed) => expectEqual('pointAmount', body.data.pointAmount, seed.heavyBalance),
  },
  {
    name: 'history of the heavy member, page 1',
    path: (seed) => `/point/api/history?memberIds=${seed.heavyMemberId}&page=1&limit=${PAGE}`,
    check: (body, seed) => expectEqual('total, newest balance', [body.data.meta.total, body.data.data[0].balanceAfter], [seed.heavyTransactions, seed.heavyBalance]),
  },
  {
    name: 'history of the heavy member, last page',
    path: (seed) => `/point/api/history?memberIds=${seed.heavyMemberId}&page=${lastPage(seed.heavyTransactions)}&limit=${PAGE}`,
    check: (body) => expectEqual('oldest entry', [body.data.data.at(-1).actionType, body.data.data.at(-1).balanceAfter], ['EARN', 10]),
  },
  {
    name: 'history of all members, page 1',
    path: () => `/point/api/history?page=1&limit=${PAGE}`,
    check: (body, seed) => expectEqual('total', body.data.meta.total, seed.transactions),
  },
  {
    name: 'history of all members, last page',
    path: (seed) => `/point/api/history?page=${lastPage(seed.transactions)}&limit=${PAGE}`,
    check: (body) => expectEqual('oldest entry', [body.data.data.at(-1).memberId, body.data.data.at(-1).balanceAfter], [memberId(2), 10]),
  },
  {
    name: 'members, page 1',
    path: () => `/auth/api/members?page=1&limit=${PAGE}`,
    check: (body, seed) => expectEqual('total, newest', [body.data.data.meta.total, body.data.data.data[0].id], [seed.members, memberId(seed.members)]),
  },
  {
    name: 'members, last page',
    path: (seed) => `/auth/api/members?page=${lastPage(seed.members)}&limit=${PAGE}`,
    check: (body) => expectEqual('oldest', body.data.data.data.at(-1).id, memberId(1)),
  },
  {
    name: `members, search a phone number (1 match)`,
    path: () => `/auth/api/members?search=${RARE_SEARCH}&page=1&limit=${PAGE}`,
    check: (body) => expectEqual('found', body.data.data.data.map((member: { id: string }) => member.id), [memberId(10)]),
  },
  {
    name: `members, search "${COMMON_SEARCH}" (1 in 40)`,
    path: () => `/auth/api/members?search=${COMMON_SEARCH}&page=1&limit=${PAGE}`,
    check: (body, seed) => expectEqual('total', body.data.data.meta.total, Math.floor(seed.members / 40)),
    grows: 'the total counts every match',
  },
  {
    name: "heavy member's tier",
    path: (seed) => `/cluster/api/tier-projections/${seed.heavyMemberId}`,
    check: (body) => expectEqual('tier level', body.data.tier.level, tierLevelOf(1)),
  },
  {
    name: "heavy member's tier history",
    path: (seed) => `/cluster/api/tier-projections/history/${seed.heavyMemberId}`,
    check: (body) => expectEqual('total', body.data.data.meta.total, 1),
  },
  {
    name: 'member counts of every tier',
    path: () => '/cluster/api/tiers/members/counts',
    check: (body, seed) => expectEqual('members in tiers', body.data.data.reduce((sum: number, tier: { count: number }) => sum + tier.count, 0), seed.members),
  },
  {
    name: 'tier projections, page 1',
    path: () => `/cluster/api/tier-projections?page=1&limit=${PAGE}`,
    check: (body, seed) => expectEqual('total', body.data.meta.total, seed.members),
  },
];

interface Side {
  label: string;
  target: Target;
  seed: SeededLarge;
}

async function getJson(target: Target, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${target.restUrl}${path}`, { headers: { authorization: `Bearer ${target.token}` } });
  return { status: response.status, body: await response.json() };
}

/** Each read answered 200 with what the seed implies, on both databases. */
async function checkAnswers(sides: Side[]): Promise<string[]> {
  const problems: string[] = [];
  for (const read of READS) {
    for (const side of sides) {
      const { status, body } = await getJson(side.target, read.path(side.seed));
      const problem = status === 200 ? read.check(body, side.seed) : `answered ${status}`;
      if (problem) problems.push(`${read.name} (${side.label}): ${problem}`);
    }
  }
  return problems;
}

/** The ledger invariants (bench/ledger-check.ts) for the heavy member, the first light one and the newest. */
async function checkSeededLedger(side: Side): Promise<string[]> {
  const pool = new Pool({ connectionString: side.target.databaseUrl, max: 1 });
  try {
    const check = await checkLedger(pool, [side.seed.heavyMemberId, memberId(2), memberId(side.seed.members)]);
    return check.problems.map((problem) => `ledger (${side.label}): ${problem}`);
  } finally {
    await pool.end();
  }
}

function describeSeed(label: string, seed: SeededLarge): string {
  const when = seed.seededNow ? 'seeded now' : `reused, seeded ${seed.seededAt}`;
  return `${label}: ${seed.members.toLocaleString('en')} members, ${seed.transactions.toLocaleString('en')} ledger rows (heavy member: ${seed.heavyTransactions.toLocaleString('en')}); ${when} in ${seed.seconds.toFixed(0)}s`;
}

/** POST `path` with `body` as the target's admin (and `headers`). */
async function postJson(target: Target, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${target.restUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The plans of each read on the large database, through a fresh target whose sessions log them (auto_explain); by heading. */
async function explainReads(planLog: PlanLog, seed: SeededLarge): Promise<Map<string, LoggedPlan[]>> {
  await planLog.enable();
  const plans = new Map<string, LoggedPlan[]>();
  const { child, target } = await startTarget({ DATA_DIR: LARGE_DATA_DIR });
  try {
    for (const read of READS) plans.set(`${read.name}: GET ${read.path(seed)}`, await planLog.during(() => getJson(target, read.path(seed))));
  } finally {
    await stopTarget(child);
    await planLog.disable();
  }
  return plans;
}

/**
 * The plans of an earn for a seeded member and of a redemption of the catalog with ISSUED_CODES codes
 * on the writes' large database, through a fresh target whose sessions log them; by heading.
 */
async function explainWrites(planLog: PlanLog, codes: SeededCodes): Promise<Map<string, LoggedPlan[]>> {
  await planLog.enable();
  const plans = new Map<string, LoggedPlan[]>();
  const { child, target } = await startTarget({ DATA_DIR: LARGE_WRITES_DATA_DIR });
  const pool = new Pool({ connectionString: target.databaseUrl, max: 1 });
  try {
    plans.set(`earn: POST /point/api/earn for ${memberId(2)}`, await planLog.during(() => postJson(target, '/point/api/earn', { memberId: memberId(2), amount: EARN_POINTS })));
    const [redeemer] = await createMembers(target, pool, 1);
    const path = `/reward/api/reward-catalogs/${codes.catalogId}/redeem`;
    plans.set(`redemption: POST ${path} (${codes.codes.toLocaleString('en')} codes issued)`, await planLog.during(() => postJson(target, path, { memberId: redeemer }, { 'idempotency-key': randomUUID() })));
  } finally {
    await pool.end();
    await stopTarget(child);
    await planLog.disable();
  }
  return plans;
}

/** What a load cost the database server: WAL written (and its full-page images) and blocks read from outside its shared buffers. */
interface ServerCost {
  walBytes: number;
  fullPageImages: number;
  blocksRead: number;
}

/** A write load's measured run, its answers 2xx (warm-up included), its check's problems and what it cost the server. */
interface WriteLoad {
  run: WriteRun;
  answered: number;
  problems: string[];
  cost: ServerCost;
}

/** The server's WAL and read counters now (pg_stat_wal, pg_stat_database of the current database). */
async function serverCounters(databaseUrl: string): Promise<ServerCost> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query(
      `select wal_bytes::float8 as "walBytes", wal_fpi::float8 as "fullPageImages", (select blks_read::float8 from pg_stat_database where datname = current_database()) as "blocksRead"
         from pg_stat_wal`,
    );
    return rows[0];
  } finally {
    await pool.end();
  }
}

/** A checkpoint of the server now (the bench connects as its superuser). */
async function checkpoint(databaseUrl: string): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query('checkpoint');
  } finally {
    await pool.end();
  }
}

/** Runs a load and what it cost the server, counted from the start of its warm-up until its writes have landed (its checks left out). */
async function withCost(side: Side, load: (watcher: LoadWatcher) => Promise<Omit<WriteLoad, 'cost'>>): Promise<WriteLoad> {
  let before: ServerCost | undefined;
  let after: ServerCost | undefined;
  const written = await load({
    started: async () => void (before = await serverCounters(side.target.databaseUrl)),
    landed: async () => void (after = await serverCounters(side.target.databaseUrl)),
  });
  if (!before || !after) throw new Error('the load never said when it started and landed');
  return { ...written, cost: { walBytes: after.walBytes - before.walBytes, fullPageImages: after.fullPageImages - before.fullPageImages, blocksRead: after.blocksRead - before.blocksRead } };
}

/** A write row: the side it is compared with and the measured side, each a label and its load. */
interface WriteRow {
  name: string;
  base: [string, WriteLoad];
  measured: [string, WriteLoad];
}

/**
 * POST /point/api/earn for EARNERS seeded members (the same member numbers on both databases, each
 * about 9 entries), as the points write scenario: warm-up and measured run, then as many ledger
 * entries more as answers 200 (and at most the requests dropped in flight more) and the ledger check.
 */
async function earnLoad(side: Side, numbers: number[], watcher: LoadWatcher): Promise<Omit<WriteLoad, 'cost'>> {
  const pool = new Pool({ connectionString: side.target.databaseUrl, max: 1 });
  try {
    const members = numbers.map(memberId);
    const entries = async () => (await pool.query(`select count(*)::int as n from point.point_transaction where member_id = any($1::uuid[])`, [members])).rows[0].n as number;
    const before = await entries();
    const next = () => ({ path: '/point/api/earn', body: JSON.stringify({ memberId: members[randomInt(members.length)], amount: EARN_POINTS }) });
    await watcher.started();
    const warmUp = await loadWrite(side.target.restUrl, side.target.token, next, (status) => status === 200, WARM_UP_SECONDS);
    const run = await loadWrite(side.target.restUrl, side.target.token, next, (status) => status === 200, DURATION_SECONDS);
    const added = (await settled(entries)) - before;
    await watcher.landed();
    const answered = (warmUp.statuses.get(200) ?? 0) + (run.statuses.get(200) ?? 0);
    const problems = (await checkLedger(pool, members)).problems;
    if (added < answered || added > answered + 2 * CONNECTIONS) problems.push(`${added} ledger entries for ${answered} answers 200`);
    for (const load of [warmUp, run]) problems.push(...load.unexpected.map((answer) => `unexpected answer ${answer}`));
    if (warmUp.result.errors + run.result.errors > 0) problems.push(`${warmUp.result.errors + run.result.errors} connection errors or timeouts`);
    return { run, answered, problems: problems.map((problem) => `earn (${side.label}): ${problem}`) };
  } finally {
    await pool.end();
  }
}

/** Steady redemptions through the platform (bench/redeem.ts) on a side: on a fresh catalog, or on `catalogId`. */
async function redemptionLoad(side: Side, watcher: LoadWatcher, catalogId?: string): Promise<Omit<WriteLoad, 'cost'>> {
  const pool = new Pool({ connectionString: side.target.databaseUrl, max: 2 });
  try {
    const { run, answered, problems } = await steadyRedemptions(side.target, pool, REDEEM_ROUTES[0], catalogId, watcher);
    return { run, answered, problems: problems.map((problem) => `redemption (${side.label}${catalogId ? `, ${ISSUED_CODES} codes issued` : ''}): ${problem}`) };
  } finally {
    await pool.end();
  }
}

/**
 * The write rows: earn on the large database beside the small one; redemption of a catalog with
 * ISSUED_CODES codes issued beside a fresh catalog, both on the large database; and, to tell the two
 * causes apart, a fresh catalog on the large database beside one on the small. Each load starts once
 * both platforms have consumed the events of the loads before it, right after a checkpoint of both.
 */
async function measureWrites(small: Side, large: Side, codes: SeededCodes): Promise<{ rows: WriteRow[]; problems: string[] }> {
  const numbers = Array.from({ length: EARNERS }, () => 2 + randomInt(small.seed.members - 1));
  // Both platforms share the cores: no load starts while either still consumes the events of the load before.
  // And each starts after a checkpoint: the first change of a page after one writes the whole page to the
  // WAL, so a load that a checkpoint happened to precede would pay for more of them than the others.
  const quiet = async <T>(load: () => Promise<T>): Promise<T> => {
    for (const side of [small, large]) {
      if (!(await drained(side.target.databaseUrl))) console.log(`the ${side.label} database's event backlog was not drained`);
      await checkpoint(side.target.databaseUrl);
    }
    return load();
  };
  // The earn's goal is within 1.2x on rate, p50 and p99 of two 10-second loads, and a shared machine's
  // speed moves by more than that between two loads: rounds on each side in turn, compared by medians.
  const smallEarns: WriteLoad[] = [];
  const largeEarns: WriteLoad[] = [];
  for (let round = 1; round <= EARN_ROUNDS; round++) {
    smallEarns.push(await quiet(() => withCost(small, (watcher) => earnLoad(small, numbers, watcher))));
    largeEarns.push(await quiet(() => withCost(large, (watcher) => earnLoad(large, numbers, watcher))));
    const [s, l] = [smallEarns[round - 1].run.result, largeEarns[round - 1].run.result];
    console.log(`earn round ${round}: small ${s.requests.average.toFixed(0)} req/s, p50 ${s.latency.p50} ms, p99 ${s.latency.p99} ms; large ${l.requests.average.toFixed(0)} req/s, p50 ${l.latency.p50} ms, p99 ${l.latency.p99} ms`);
  }
  const [smallEarn, largeEarn] = [medianOf(smallEarns), medianOf(largeEarns)];
  const smallFresh = await quiet(() => withCost(small, (watcher) => redemptionLoad(small, watcher)));
  const largeFresh = await quiet(() => withCost(large, (watcher) => redemptionLoad(large, watcher)));
  const largeIssued = await quiet(() => withCost(large, (watcher) => redemptionLoad(large, watcher, codes.catalogId)));
  const rows: WriteRow[] = [
    { name: 'earn: POST /point/api/earn', base: ['small', smallEarn], measured: ['large', largeEarn] },
    { name: 'redemption, large database', base: ['fresh catalog', largeFresh], measured: [`${codes.codes.toLocaleString('en')} codes issued`, largeIssued] },
    { name: 'redemption of a fresh catalog', base: ['small', smallFresh], measured: ['large', largeFresh] },
  ];
  return { rows, problems: [smallEarn, largeEarn, smallFresh, largeFresh, largeIssued].flatMap((load) => load.problems) };
}

/** Rounds of one load as one: the median of their rates, of their p50s and of their p99s; answers, costs and problems of all. */
function medianOf(loads: WriteLoad[]): WriteLoad {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const results = loads.map((load) => load.run.result);
  const [first] = loads;
  return {
    run: {
      ...first.run,
      result: {
        ...first.run.result,
        requests: { ...first.run.result.requests, average: median(results.map((result) => result.requests.average)) },
        latency: { ...first.run.result.latency, p50: median(results.map((result) => result.latency.p50)), p99: median(results.map((result) => result.latency.p99)) },
      },
    },
    answered: loads.reduce((sum, load) => sum + load.answered, 0),
    problems: loads.flatMap((load) => load.problems),
    cost: {
      walBytes: loads.reduce((sum, load) => sum + load.cost.walBytes, 0),
      fullPageImages: loads.reduce((sum, load) => sum + load.cost.fullPageImages, 0),
      blocksRead: loads.reduce((sum, load) => sum + load.cost.blocksRead, 0),
    },
  };
}

/** The write rows with their ratios and whether they are within WRITE_GOAL; problems when a rate falls below FLAT_RATIO. */
function printWrites(rows: WriteRow[]): string[] {
  const problems: string[] = [];
  console.log(`\nWrites through REST, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each, one side after the other (goal: within ${WRITE_GOAL}x)\n`);
  console.log('write                           compared: base / measured                  req/s      ratio    p50 ms   ratio     p99 ms   ratio  verdict');
  for (const { name, base, measured } of rows) {
    const [b, m] = [base[1].run.result, measured[1].run.result];
    const rate = m.requests.average / Math.max(1, b.requests.average);
    const p50 = m.latency.p50 / Math.max(1, b.latency.p50);
    const p99 = m.latency.p99 / Math.max(1, b.latency.p99);
    const verdict = rate >= 1 / WRITE_GOAL && p50 <= WRITE_GOAL && p99 <= WRITE_GOAL ? `within ${WRITE_GOAL}x` : `MISSES ${WRITE_GOAL}x`;
    if (rate < FLAT_RATIO) problems.push(`${name}: ${measured[0]} answers ${rate.toFixed(3)} of ${base[0]}'s rate`);
    console.log(
      `${name.padEnd(31)} ${`${base[0]} / ${measured[0]}`.padEnd(38)} ${`${b.requests.average.toFixed(0)} / ${m.requests.average.toFixed(0)}`.padStart(13)} ${rate.toFixed(3).padStart(8)} ${`${b.latency.p50} / ${m.latency.p50}`.padStart(11)} ${p50.toFixed(2).padStart(6)}x ${`${b.latency.p99} / ${m.latency.p99}`.padStart(11)} ${p99.toFixed(2).padStart(6)}x  ${verdict}`,
    );
  }
  console.log('\nWhat each write cost the database server, per write answered (warm-up and run until every write landed; the event consumers\' work meanwhile included)\n');
  console.log('write                           side                       WAL kB   full-page images   blocks read');
  for (const { name, base, measured } of rows) {
    for (const [label, { answered, cost }] of [base, measured]) {
      const requests = Math.max(1, answered);
      console.log(
        `${name.padEnd(31)} ${label.padEnd(24)} ${(cost.walBytes / 1024 / requests).toFixed(1).padStart(8)} ${(cost.fullPageImages / requests).toFixed(2).padStart(18)} ${(cost.blocksRead / requests).toFixed(2).padStart(13)}`,
      );
    }
  }
  return problems;
}

function printFigures(rows: Array<{ read: Read; small: Result; large: Result }>): string[] {
  const problems: string[] = [];
  console.log(`\nReads through REST, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each, small and large database in turn\n`);
  console.log('read                                          small req/s  large req/s  large/small  small p99  large p99  p99 ratio  verdict');
  for (const { read, small, large } of rows) {
    const share = large.requests.average / Math.max(1, small.requests.average);
    const verdict = read.grows ? `grows: ${read.grows}` : share >= FLAT_RATIO ? 'flat' : 'GROWS';
    if (!read.grows && share < FLAT_RATIO) problems.push(`${read.name}: the large database answers ${ratio(large.requests.average, small.requests.average)} of the small one's rate`);
    for (const [label, result] of [['small', small], ['large', large]] as const) {
      if (result.non2xx > 0 || result.errors > 0) problems.push(`${read.name} (${label}): ${result.non2xx} non-2xx, ${result.errors} errors`);
    }
    console.log(
      `${read.name.padEnd(45)} ${small.requests.average.toFixed(0).padStart(11)} ${large.requests.average.toFixed(0).padStart(12)} ${ratio(large.requests.average, small.requests.average).padStart(12)} ${String(small.latency.p99).padStart(10)} ${String(large.latency.p99).padStart(10)} ${p99Ratio(large, small).padStart(10)}  ${verdict}`,
    );
  }
  return problems;
}

function printPlans(plans: Map<string, LoggedPlan[]>): string[] {
  const problems: string[] = [];
  console.log('\nPlans on the large database (auto_explain: EXPLAIN (ANALYZE, BUFFERS) of each statement the platform ran for the request)');
  for (const [heading, logged] of plans) {
    console.log(`\n### ${heading}`);
    if (logged.length === 0) problems.push(`${heading}: no statement of the domains' schemas was logged`);
    for (const plan of logged) {
      const { problems: scans } = scansOf(plan);
      problems.push(...scans.map((scan) => `${heading}: ${scan}`));
      console.log(`\n${plan.query}\n${plan.plan.map((line) => `    ${line}`).join('\n')}`);
    }
  }
  return problems;
}

/** Copies the stopped data directory `from` to `to` (files, owners and modes as they are) in place of what `to` held; the seconds it took. */
function copyDataDir(from: string, to: string): number {
  const started = process.hrtime.bigint();
  rmSync(to, { recursive: true, force: true });
  execFileSync('cp', ['-a', '--reflink=auto', from, to]);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * Puts the writes' large database in its seeded state before anything of the run starts, so that no run
 * measures on the pg-boss job rows and outbox rows the earlier runs' writes left: LARGE_WRITES_DATA_DIR
 * becomes a file copy of LARGE_WRITES_SEED_DIR (timed and printed). Without that pristine copy it seeds
 * LARGE_WRITES_DATA_DIR (the ledger and the issued codes) through a platform of its own, stops it and
 * copies it to LARGE_WRITES_SEED_DIR once. A writes database without its pristine copy holds earlier
 * runs' rows no one can tell from the seed's: refused.
 */
async function restoreWrites(startEmbeddedPostgres: (options: { dataDir: string }) => Promise<{ url: string; stop: () => Promise<void> }>): Promise<void> {
  if (existsSync(LARGE_WRITES_SEED_DIR)) {
    const seconds = copyDataDir(LARGE_WRITES_SEED_DIR, LARGE_WRITES_DATA_DIR);
    console.log(`\nThe writes' large database: ${LARGE_WRITES_DATA_DIR} restored from its seeded copy ${LARGE_WRITES_SEED_DIR} (cp -a) in ${seconds.toFixed(1)}s`);
    return;
  }
  if (existsSync(LARGE_WRITES_DATA_DIR)) {
    throw new Error(`${LARGE_WRITES_DATA_DIR} has no seeded copy ${LARGE_WRITES_SEED_DIR} and may hold earlier runs' writes: remove it, the next run seeds it anew`);
  }
  console.log(`\nThe writes' large database: seeding ${LARGE_WRITES_DATA_DIR} as the reads' one, then keeping a copy of it as ${LARGE_WRITES_SEED_DIR}`);
  const database = await startEmbeddedPostgres({ dataDir: LARGE_WRITES_DATA_DIR });
  try {
    const { child, target } = await startTarget({ DATA_DIR: LARGE_WRITES_DATA_DIR });
    try {
      await seedLarge(target.databaseUrl, LARGE, (line) => console.log(line));
      await seedCodes(target.databaseUrl, ISSUED_CODES, () => createCatalog(target, ISSUED_CODES + 1_000_000));
    } finally {
      await stopTarget(child);
    }
  } finally {
    await database.stop();
  }
  console.log(`  copied to ${LARGE_WRITES_SEED_DIR} in ${copyDataDir(LARGE_WRITES_DATA_DIR, LARGE_WRITES_SEED_DIR).toFixed(1)}s`);
}

/**
 * The `large` scenario: each read through REST on a small database (1,000 members, 10,000 ledger rows)
 * and on a large one (1,000,000 members, 10,000,000 rows, seeded once under DATA_DIR, default
 * .data/bench-large, and reused), side by side with their ratio; then the writes (`measureWrites`:
 * earn, and redemption of a catalog with ISSUED_CODES codes issued, seeded once too) with their ratios
 * against WRITE_GOAL on a second large database seeded alike (DATA_DIR-writes: the writes add rows the
 * reads' checks would count), restored at the start of every run from its seeded copy (`restoreWrites`); then the plan of every statement of each read and write.
 * Fails when an answer or a write's check is wrong, when a plan reads a big table whole, or when a read
 * expected flat or a write answers at less than half its base's rate.
 */
export async function largeData(): Promise<boolean> {
  if (process.env.DATABASE_URL) throw new Error('the large scenario runs on the embedded PostgreSQL (under DATA_DIR): unset DATABASE_URL');
  const smallDir = mkdtempSync(join(tmpdir(), 'loyalty-bench-small-'));
  const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;
  const { startEmbeddedPostgres } = await importEsm(join(__dirname, '..', 'core', 'db', 'embedded-postgres.mjs'));
  /** A large database's embedded server, with the log of its plans. */
  const startLarge = async (dataDir: string) => {
    let onLog = (_chunk: string) => {};
    const database: { url: string; stop: () => Promise<void> } = await startEmbeddedPostgres({ dataDir, onLog: (chunk: string) => onLog(chunk) });
    const planLog = new PlanLog(database.url);
    onLog = planLog.onLog;
    await planLog.disable(); // what an interrupted run may have left
    return { database, planLog };
  };
  await restoreWrites(startEmbeddedPostgres);
  const databases = [await startLarge(LARGE_DATA_DIR), await startLarge(LARGE_WRITES_DATA_DIR)];
  const [reads, writes] = databases;
  const started: Array<Awaited<ReturnType<typeof startTarget>>> = [];
  try {
    const smallTarget = await startTarget({ DATA_DIR: smallDir });
    started.push(smallTarget);
    const largeTarget = await startTarget({ DATA_DIR: LARGE_DATA_DIR });
    started.push(largeTarget);
    console.log(`\nLarge data: seeding (bench/seed-large.ts) the small database and, unless ${LARGE_DATA_DIR} holds it already, the large one`);
    const small: Side = { label: 'small', target: smallTarget.target, seed: await seedLarge(smallTarget.target.databaseUrl, SMALL) };
    const large: Side = { label: 'large', target: largeTarget.target, seed: await seedLarge(largeTarget.target.databaseUrl, LARGE, (line) => console.log(line)) };
    console.log(describeSeed('small', small.seed));
    console.log(describeSeed('large', large.seed));

    const problems = await checkAnswers([small, large]);
    for (const side of [small, large]) problems.push(...(await checkSeededLedger(side)));
    const rows: Array<{ read: Read; small: Result; large: Result }> = [];
    for (const read of READS) {
      rows.push({
        read,
        small: await warmThenLoad(`${small.target.restUrl}${read.path(small.seed)}`, small.target.token),
        large: await warmThenLoad(`${large.target.restUrl}${read.path(large.seed)}`, large.target.token),
      });
    }
    problems.push(...printFigures(rows));
    await stopTarget(started.pop()!.child);
    const plans = await explainReads(reads.planLog, large.seed);

    const writesTarget = await startTarget({ DATA_DIR: LARGE_WRITES_DATA_DIR });
    started.push(writesTarget);
    const largeWrites: Side = { label: 'large', target: writesTarget.target, seed: await seedLarge(writesTarget.target.databaseUrl, LARGE, (line) => console.log(line)) };
    console.log(describeSeed('large (writes)', largeWrites.seed));
    const codes = await seedCodes(largeWrites.target.databaseUrl, ISSUED_CODES, () => createCatalog(largeWrites.target, ISSUED_CODES + 1_000_000));
    console.log(`large (writes): ${codes.codes.toLocaleString('en')} codes of one catalog issued, ${codes.seededNow ? 'seeded now' : 'reused, seeded'} in ${codes.seconds.toFixed(0)}s`);
    const measured = await measureWrites(small, largeWrites, codes);
    problems.push(...measured.problems, ...printWrites(measured.rows));
    await stopTarget(started.pop()!.child);
    for (const [heading, logged] of await explainWrites(writes.planLog, codes)) plans.set(heading, logged);
    problems.push(...printPlans(plans));

    for (const problem of problems) console.log(`  ${problem}`);
    console.log(problems.length === 0 ? '\nlarge data: PASS' : `\nlarge data: FAIL (${problems.length} problems above)`);
    return problems.length === 0;
  } finally {
    for (const { child } of started.reverse()) await stopTarget(child);
    for (const { database } of databases) await database.stop();
    rmSync(smallDir, { recursive: true, force: true });
  }
}
