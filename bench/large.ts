import { Result } from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { checkLedger } from './ledger-check';
import { CONNECTIONS, DURATION_SECONDS, p99Ratio, ratio, startTarget, stopTarget, Target, warmThenLoad } from './load';
import { LoggedPlan, PlanLog, scansOf } from './plans';
import { COMMON_SEARCH, LargeScale, memberId, RARE_SEARCH, SeededLarge, seedLarge } from './seed-large';

const LARGE: LargeScale = { members: Number(process.env.BENCH_LARGE_MEMBERS ?? 1_000_000), transactions: Number(process.env.BENCH_LARGE_ROWS ?? 10_000_000) };
const SMALL: LargeScale = { members: Number(process.env.BENCH_SMALL_MEMBERS ?? 1_000), transactions: Number(process.env.BENCH_SMALL_ROWS ?? 10_000) };
/** Seeded once and reused by later runs. */
const LARGE_DATA_DIR = process.env.DATA_DIR ?? join(__dirname, '..', '.data', 'bench-large');
/** A read of the large database whose request rate falls below this share of the small one's grows with the data. */
const FLAT_RATIO = 0.5;

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

/** The plans of each read on the large database, through a fresh target whose sessions log them (auto_explain). */
async function explainReads(planLog: PlanLog, seed: SeededLarge): Promise<Map<string, LoggedPlan[]>> {
  await planLog.enable();
  const plans = new Map<string, LoggedPlan[]>();
  const { child, target } = await startTarget({ DATA_DIR: LARGE_DATA_DIR });
  try {
    for (const read of READS) plans.set(read.name, await planLog.during(() => getJson(target, read.path(seed))));
  } finally {
    await stopTarget(child);
    await planLog.disable();
  }
  return plans;
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

function printPlans(plans: Map<string, LoggedPlan[]>, seed: SeededLarge): string[] {
  const problems: string[] = [];
  console.log('\nPlans on the large database (auto_explain: EXPLAIN (ANALYZE, BUFFERS) of each statement the platform ran for the read)');
  for (const read of READS) {
    const logged = plans.get(read.name) ?? [];
    console.log(`\n### ${read.name}: GET ${read.path(seed)}`);
    if (logged.length === 0) problems.push(`${read.name}: no statement of the domains' schemas was logged`);
    for (const plan of logged) {
      const { problems: scans } = scansOf(plan);
      problems.push(...scans.map((scan) => `${read.name}: ${scan}`));
      console.log(`\n${plan.query}\n${plan.plan.map((line) => `    ${line}`).join('\n')}`);
    }
  }
  return problems;
}

/**
 * The `large` scenario: each read through REST on a small database (1,000 members, 10,000 ledger rows)
 * and on a large one (1,000,000 members, 10,000,000 rows, seeded once under DATA_DIR, default
 * .data/bench-large, and reused), side by side with their ratio; then the plan of every statement of
 * each read on the large database. Fails when an answer is wrong, when a plan reads a big table whole,
 * or when a read expected flat answers at less than half the small database's rate.
 */
export async function largeData(): Promise<boolean> {
  if (process.env.DATABASE_URL) throw new Error('the large scenario runs on the embedded PostgreSQL (under DATA_DIR): unset DATABASE_URL');
  const smallDir = mkdtempSync(join(tmpdir(), 'loyalty-bench-small-'));
  const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;
  const { startEmbeddedPostgres } = await importEsm(join(__dirname, '..', 'core', 'db', 'embedded-postgres.mjs'));
  let onLog = (_chunk: string) => {};
  const database: { url: string; stop: () => Promise<void> } = await startEmbeddedPostgres({ dataDir: LARGE_DATA_DIR, onLog: (chunk: string) => onLog(chunk) });
  const planLog = new PlanLog(database.url);
  onLog = planLog.onLog;
  const started: Array<Awaited<ReturnType<typeof startTarget>>> = [];
  try {
    await planLog.disable(); // what an interrupted run may have left
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
    problems.push(...printPlans(await explainReads(planLog, large.seed), large.seed));

    for (const problem of problems) console.log(`  ${problem}`);
    console.log(problems.length === 0 ? '\nlarge data: PASS' : `\nlarge data: FAIL (${problems.length} problems above)`);
    return problems.length === 0;
  } finally {
    for (const { child } of started.reverse()) await stopTarget(child);
    await database.stop();
    rmSync(smallDir, { recursive: true, force: true });
  }
}
