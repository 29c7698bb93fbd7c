import { randomInt, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { checkLedger, checkOutbox } from './ledger-check';
import { anonymized, CONNECTIONS, drained, DURATION_SECONDS, loadWrite, printSides, settled, Target, WARM_UP_SECONDS, WriteRun } from './load';
import { insertMembers } from './v1';

/** Customers the purchases go to at random: concurrent imports keep meeting on their balance rows. */
const CUSTOMERS = Number(process.env.BENCH_HOT_MEMBERS ?? 20);
/** No shop rule of its own: the default rule (1 point per currency unit) prices its purchases. */
const STORE = 'bench-store';

/** Where one side records transactions: the platform's v1 route or the baseline's. */
interface Side {
  name: string;
  url: (target: Target) => string;
  path: string;
}

const SIDES: Side[] = [
  { name: 'baseline: express + jose + pg', url: (target) => target.baselineUrl, path: '/baseline/v1/transactions' },
  { name: 'platform: REST -> gateway -> point', url: (target) => target.restUrl, path: '/api/v1/transactions' },
];

async function post(target: Target, side: Side, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${side.url(target)}${side.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A purchase of 1.00 to 500.00 as a till reports it: its store and its own external id. */
const purchaseOf = (customerId: string) => ({ customer_id: customerId, amount: (100 + randomInt(49_901)) / 100, store_id: STORE, category: 'bench', external_id: randomUUID() });

/**
 * On each side, for a fresh customer: a purchase with an Idempotency-Key, its repeat with the key, the
 * same external id again without a key (both answer the first), the external id with another amount
 * (409) and a purchase of an unknown customer (404). The answers, ids and times left out, which both
 * sides must give alike; a problem when a repeat answered another body or wrote a second entry.
 */
async function transactionAnswers(target: Target, pool: Pool, side: Side): Promise<{ answers: string; problems: string[] }> {
  const [customer] = await insertMembers(pool, 1);
  const purchase = { ...purchaseOf(customer), amount: 123.45 };
  const key = { 'idempotency-key': randomUUID() };
  const answers = [
    await post(target, side, purchase, key),
    await post(target, side, purchase, key),
    await post(target, side, purchase),
    await post(target, side, { ...purchase, amount: 99 }),
    await post(target, side, { ...purchase, customer_id: randomUUID(), external_id: randomUUID() }),
  ];
  const problems: string[] = [];
  const first = JSON.stringify(answers[0]);
  if (JSON.stringify(answers[1]) !== first || JSON.stringify(answers[2]) !== first) problems.push(`repeats answered ${JSON.stringify(answers[1])} and ${JSON.stringify(answers[2])}, first ${first}`);
  const { transactions } = await checkLedger(pool, [customer]);
  if (transactions !== 1) problems.push(`${transactions} ledger rows for one purchase repeated`);
  return { answers: JSON.stringify(anonymized(answers)), problems };
}

/** What the point domain holds for the customers: purchases, the entries they earned, their points, their events, and the balances. */
async function recorded(pool: Pool, customers: string[]) {
  const { rows } = await pool.query(
    `select (select count(*)::int from point.purchase where member_id = any($1::uuid[])) as purchases,
            (select count(*)::int from point.purchase p join point.point_transaction t on t.id = p.earn_entry_id and t.amount = p.points_earned
              where p.member_id = any($1::uuid[])) as earned,
            (select coalesce(sum(points_earned), 0)::text from point.purchase where member_id = any($1::uuid[])) as points,
            (select count(*)::int from point.outbox_event where aggregate_id = any($1::text[]) and type = 'transaction.completed') as completed,
            (select coalesce(sum(point_amount), 0)::text from point.point_balance where member_id = any($1::uuid[])) as balances`,
    [customers],
  );
  return rows[0] as { purchases: number; earned: number; points: string; completed: number; balances: string };
}

/**
 * One side of the transaction import: a warm-up and the measured run, each request a purchase for a
 * random one of CUSTOMERS customers with its own external id and Idempotency-Key, once the platform has
 * consumed the events of what ran before; then the check: as
 * many purchases as answers 201 (and at most the requests dropped in flight more), each with its EARN
 * entry of its points, one `transaction.completed` each, the balances the purchases' points, and the
 * ledger and outbox checks (ledger sums = balances = open lots, one `points.*` event per entry).
 */
async function importSide(target: Target, pool: Pool, side: Side): Promise<{ run: WriteRun; problems: string[] }> {
  const customers = await insertMembers(pool, CUSTOMERS);
  const next = () => ({ path: side.path, body: JSON.stringify(purchaseOf(customers[randomInt(customers.length)])), headers: { 'idempotency-key': randomUUID() } });
  if (!(await drained(target.databaseUrl))) console.log(`${side.name}: measured with the event consumers' backlog of the work before it not drained`);
  const warmUp = await loadWrite(side.url(target), target.token, next, (status) => status === 201, WARM_UP_SECONDS);
  const run = await loadWrite(side.url(target), target.token, next, (status) => status === 201, DURATION_SECONDS);
  await settled(async () => (await pool.query(`select count(*)::int as n from point.purchase where member_id = any($1::uuid[])`, [customers])).rows[0].n);
  const found = await recorded(pool, customers);
  const ledger = await checkLedger(pool, customers);
  const answered = (warmUp.statuses.get(201) ?? 0) + (run.statuses.get(201) ?? 0);
  const inFlight = 2 * CONNECTIONS;
  const problems = [...ledger.problems, ...(await checkOutbox(pool, customers))];
  if (found.purchases < answered || found.purchases > answered + inFlight) problems.push(`${found.purchases} purchases for ${answered} answers 201 (+ at most ${inFlight} dropped in flight)`);
  if (ledger.transactions !== found.purchases || found.earned !== found.purchases) problems.push(`${ledger.transactions} ledger entries, ${found.earned} of them a purchase's points, for ${found.purchases} purchases`);
  if (found.completed !== found.purchases) problems.push(`${found.completed} transaction.completed events for ${found.purchases} purchases`);
  if (Number(found.balances) !== Number(found.points)) problems.push(`balances total ${found.balances} for ${found.points} points earned`);
  for (const load of [warmUp, run]) problems.push(...load.unexpected.map((answer) => `unexpected answer ${answer}`));
  if (warmUp.result.errors + run.result.errors > 0) problems.push(`${warmUp.result.errors + run.result.errors} connection errors or timeouts`);
  console.log(`${side.name}: ${answered} answers 201 (warm-up included); ${found.purchases} purchases, ${ledger.transactions} ledger entries, ${found.completed} transaction.completed, balances total ${found.balances}`);
  return { run, problems: problems.map((problem) => `${side.name}: ${problem}`) };
}

/**
 * The transaction import: POST /api/v1/transactions (a retailer's till or import recording each
 * purchase: there is no batch path for purchases), CONNECTIONS connections for BENCH_DURATION, through
 * REST and beside it through the hand-written baseline (bench/baselines/transactions.ts), each on its
 * own customers, checked as `importSide` says. Before, both answer a purchase, its repeats and two
 * refusals alike. Prints the rates, latencies and ratios.
 */
export async function v1Transactions(target: Target, pool: Pool): Promise<boolean> {
  console.log('');
  const problems: string[] = [];
  const answers = [];
  for (const side of SIDES) {
    const found = await transactionAnswers(target, pool, side);
    answers.push(found.answers);
    problems.push(...found.problems.map((problem) => `${side.name}: ${problem}`));
  }
  if (answers[0] !== answers[1]) problems.push(`the answers differ: baseline ${answers[0]}, platform ${answers[1]}`);
  // The platform first: its event consumers then never work through the backlog of the baseline's faster run while measured.
  const runs = [];
  for (const side of [...SIDES].reverse()) {
    const { run, problems: found } = await importSide(target, pool, side);
    runs.unshift(run);
    problems.push(...found);
  }
  printSides(`POST /api/v1/transactions, a purchase of 1 to 500 with its external id, ${CUSTOMERS} customers`, [
    [SIDES[0].name, runs[0].result],
    [SIDES[1].name, runs[1].result],
  ]);
  for (const problem of problems) console.log(`  ${problem}`);
  console.log(problems.length === 0 ? 'v1 transactions: PASS (same answers, repeats record nothing; purchases, entries, events and balances agree)' : `v1 transactions: FAIL (${problems.length} problems)`);
  return problems.length === 0;
}
