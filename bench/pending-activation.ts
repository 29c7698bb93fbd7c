import 'reflect-metadata';
import { EntityManager } from '@mikro-orm/postgresql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { TIME_ORDERED_ID_SQL } from '../core/ids';
import { openModuleOrm } from '../core/module';
import { POINT } from '../subgraphs/point/contract';
import { pointModule } from '../subgraphs/point/module';
import { ACTIVATION_BATCH, activateDuePending } from '../subgraphs/point/services/pending-points.service';
import { LedgerService } from '../subgraphs/point/services/ledger.service';

/**
 * `npm run bench:pending` (issue 29): the pending-points activation job on ROWS due holds of MEMBERS
 * members, beside a hand-written baseline in the same process.
 *
 * Each side gets a database of its own on one server (the embedded PostgreSQL under a fresh temporary
 * DATA_DIR, removed afterwards; or the server of DATABASE_URL, on which the databases
 * `<name>_bench_pending_job` and `<name>_bench_pending_baseline` are made anew: CREATEDB needed), migrated
 * with the point domain's migrations (`openModuleOrm`), then seeded with the same holds (`seedHolds`,
 * set-based, what `LedgerService.hold` writes for v1 purchases and their rules' points: about 35 s for
 * 1,000,000 holds on the 2-core machine, vacuumed and analyzed after), then:
 *
 * - the job: `activateDuePending(orm.em, new LedgerService({kind: 'days', days: 365}))` until nothing is
 *   due; each of its transactions (a batch of ACTIVATION_BATCH holds) timed;
 * - the baseline: the same outcome written by hand, one statement per batch (`BASELINE_BATCH`): the
 *   holds taken `for update skip locked`, the balances locked in member order, the EARN entries with
 *   their running balance, the lots (365 days), the balances (points, purchases, entries, pending), the
 *   holds activated with their entry, and the `points.earned` then `points.activated` events, in order.
 *
 * Each side seeds, runs, is checked and its database dropped before the other seeds (the first side's
 * data never crowds the second's cache). Checked after each side (exit 1 otherwise): nothing pending; the balances', the
 * holds' and the EARN entries' sums equal the seeded total; no pending amount left; each member's
 * balance, purchases and entry count equal to its entries, each entry's balance_after its running sum;
 * a lot per entry with points (its amount, earned_at = created_at, expires_at 365 days later); each
 * hold's entry its own (member, amount, purchase amount, reference, note, metadata); two events per
 * hold, `points.earned` of its entry before its `points.activated`. And the two sides alike: digests
 * of the holds, the entries, the lots and both kinds of events (ids and times left out) are the same.
 *
 * BENCH_PENDING_ROWS (1,000,000), BENCH_PENDING_MEMBERS (100,000) size it.
 */
const ROWS = Number(process.env.BENCH_PENDING_ROWS ?? 1_000_000);
const MEMBERS = Math.min(ROWS, Number(process.env.BENCH_PENDING_MEMBERS ?? 100_000));
const BATCH = ACTIVATION_BATCH;
/** Holds written per seeding statement (progress between them). */
const SEED_CHUNK = 250_000;
const POLICY = { kind: 'days', days: 365 } as const;
const LOT_LIFETIME = `interval '${POLICY.days * 24} hours'`;
/** One hold in ten is an earning rule's points (metadata, no purchase amount), one in a thousand holds 0 points. */
const RULE_ID = '00000000-0000-4000-8000-000000000029';

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** SQL of a version 4 UUID derived from `text` (as bench/seed-large.ts makes member ids). */
const uuidSql = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;
/** SQL of a version 7 UUID at `at` whose other bits derive from `text`: ordered by time as `timeOrderedId` makes them. */
const timeOrderedIdSql = (at: string, text: string) =>
  `(lpad(to_hex((extract(epoch from ${at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${text}), 1, 3) || '8' || substr(md5(${text}), 4, 15))::uuid`;

/**
 * ROWS holds as `LedgerService.hold` writes them, hold i (1..ROWS) for member (i - 1) % MEMBERS + 1:
 * made between 40 and 15 days before `now`, in order, and due 14 days after (so all due, in the order of
 * i; a batch of 5,000 touches 5,000 members). Nine in ten are a purchase's base points (a tenth of the
 * purchase amount, 2 decimals; its store, category, note `Purchase <id>`, the purchase as reference and
 * source), one in ten a rule's (10 to 70 points, no purchase amount, its rule in metadata); one in a
 * thousand holds 0 points. Then each member's balance row: nothing spendable, `pending_amount` the sum
 * of its holds (the purchase rows themselves are not needed by the activation and not written).
 */
async function seedHolds(pool: Pool, now: Date): Promise<{ total: string; holds: number; members: number; ms: number }> {
  const started = performance.now();
  for (let from = 1; from <= ROWS; from += SEED_CHUNK) {
    const to = Math.min(ROWS, from + SEED_CHUNK - 1);
    await pool.query(
      `insert into point.pending_points (id, member_id, amount, original_amount, purchase_amount, shop_id, category_id, note, source_by,
                                         reference_id, metadata, source_type, source_id, activates_at, created_at)
       select ${timeOrderedIdSql('at', `'bench-pending:' || i`)}, ${uuidSql(`'bench-member:' || ((i - 1) % $4::int + 1)`)}, amount, amount,
              case when rule then 0 else purchase end, 'S' || (i % 20), (array['food', 'drinks', 'retail', 'services'])[i % 4 + 1],
              case when rule then 'Earning rule "Bench double points" (version 1)' else 'Purchase ' || purchase_id end, 'Purchase',
              purchase_id, case when rule then jsonb_build_object('earningRuleId', '${RULE_ID}', 'earningRuleVersion', 1) end,
              'purchase', purchase_id, at + interval '14 days', at
         from (select i, at, rule, purchase, ${timeOrderedIdSql('at', `'bench-purchase:' || i`)}::text as purchase_id,
                      case when i % 1000 = 500 then 0 when rule then (i % 7 + 1) * 10 else round(purchase / 10, 2) end::numeric(20, 2) as amount
                 from (select i, i % 10 = 0 as rule, ((i::bigint * 7919) % 100000 + 100) / 100.0 as purchase,
                              $1::timestamptz - interval '40 days' + i * (interval '25 days' / $5::int) as at
                         from generate_series($2::int, $3::int) as i) numbered) holds
        order by i`,
      [now, from, to, MEMBERS, ROWS],
    );
    log(`  holds ${from}..${to} seeded (${seconds(performance.now() - started)}s)`);
  }
  await pool.query(
    `insert into point.point_balance (member_id, pending_amount, updated_at)
     select member_id, sum(amount), $1 from point.pending_points group by member_id order by member_id`,
    [now],
  );
  await pool.query('vacuum (analyze) point.pending_points, point.point_balance');
  // A checkpoint now, not during the run (needs the right to: the embedded server's superuser has it).
  await pool.query('checkpoint').catch(() => undefined);
  const {
    rows: [seeded],
  } = await pool.query(`select count(*)::int as holds, count(distinct member_id)::int as members, sum(amount)::text as total from point.pending_points where status = 'pending'`);
  return { ...seeded, ms: performance.now() - started };
}

interface Batch {
  rows: number;
  ms: number;
}

interface SideRun {
  name: string;
  activated: number;
  ms: number;
  batches: Batch[];
}

/**
 * The job, as the platform runs it (`activateDuePending` on the ORM's root entity manager, the ledger
 * with a 365-day lot lifetime), until nothing is due; each of its transactions (a batch) timed.
 */
async function runJob(url: string): Promise<SideRun> {
  const orm = await openModuleOrm(pointModule, url);
  try {
    const batches: Batch[] = [];
    const root = {
      fork: () => {
        const em = orm.em.fork();
        const transactional = em.transactional.bind(em);
        em.transactional = (async (callback: never, options?: never) => {
          const started = performance.now();
          const rows = await transactional(callback, options);
          batches.push({ rows: Number(rows), ms: performance.now() - started });
          return rows;
        }) as unknown as typeof em.transactional;
        return em;
      },
    } as unknown as EntityManager;
    const ledger = new LedgerService(POLICY);
    const started = performance.now();
    let [activated, count] = [0, 0];
    do {
      count = await activateDuePending(root, ledger);
      activated += count;
    } while (count > 0);
    return { name: 'job: activateDuePending', activated, ms: performance.now() - started, batches };
  } finally {
    await orm.close();
  }
}

const EARNED_PAYLOAD = `jsonb_build_object(
  'transactionId', e.entry_id, 'memberId', e.member_id, 'actionType', 'EARN', 'amount', e.amount::text,
  'purchaseAmount', e.purchase_amount::text, 'shopId', e.shop_id, 'categoryId', e.category_id, 'sourceBy', e.source_by,
  'balanceAfter', e.balance_after::text, 'createdAt', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'note', e.note, 'referenceId', e.reference_id, 'metadata', e.metadata)`;
const ACTIVATED_PAYLOAD = `jsonb_build_object(
  'pendingId', e.id, 'memberId', e.member_id, 'amount', e.amount::text, 'transactionId', e.entry_id, 'sourceType', e.source_type,
  'sourceId', e.source_id, 'referenceId', e.reference_id, 'early', false,
  'activatedAt', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * The baseline's batch, one statement: what the job writes for a batch, by hand. It also reads what the
 * job reads to expire the members' due lots first (`expiring`); the seed has none, so it writes no
 * EXPIRE entries and the run fails should it find any. The rows to lock and update are found by their
 * primary keys: the balances through `= any(array(...))`, the holds joined to `unnest` of the batch's
 * ids and entries (estimated at 100 rows, as the job's `jsonb_to_recordset`, so probed by the index).
 * Joined to the batch's CTE (estimated at 5,000 rows), the planner reads the holds whole (a hash join,
 * growing with the table and its dead rows); with `= any(array(...))` beside that join it probes the
 * index for the whole array once per row of the batch (a nested loop: 7 s a batch at 1,000,000).
 */
const BASELINE_BATCH = `
  with due as (
    select id, member_id, amount, purchase_amount, shop_id, category_id, note, source_by, reference_id, metadata, source_type, source_id, activates_at
      from point.pending_points
     where status = 'pending' and activates_at <= now()
     order by activates_at, id limit $1::int for update skip locked),
  numbered as (select due.*, row_number() over (order by activates_at, id) as ord from due),
  locked as (
    select member_id, point_amount from point.point_balance
     where member_id = any(array(select member_id from due)) order by member_id for update),
  expiring as (
    select count(distinct member_id) as members from point.point_lot
     where member_id in (select member_id from due) and remaining > 0 and expires_at <= now()),
  entries as (
    select n.*, ${TIME_ORDERED_ID_SQL} as entry_id,
           l.point_amount + sum(n.amount) over (partition by n.member_id order by n.ord) as balance_after,
           now() + (n.ord - 1) * interval '1 microsecond' as created_at
      from numbered n join locked l on l.member_id = n.member_id),
  written as (
    insert into point.point_transaction (id, member_id, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after, reference_id, metadata, created_at, updated_at)
    select entry_id, member_id, 'EARN', amount, purchase_amount, shop_id, category_id, note, source_by, balance_after, reference_id, metadata, created_at, now()
      from entries order by ord),
  opened as (
    insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at)
    select ${TIME_ORDERED_ID_SQL}, member_id, entry_id, amount, amount, created_at, created_at + ${LOT_LIFETIME}
      from entries where amount > 0 order by ord),
  moved as (
    update point.point_balance b
       set point_amount = b.point_amount + s.total, purchase_amount = b.purchase_amount + s.purchases, entry_count = b.entry_count + s.n,
           pending_amount = b.pending_amount - s.total, updated_at = now()
      from (select member_id, sum(amount) as total, sum(purchase_amount) as purchases, count(*) as n from due group by member_id) s
     where b.member_id = s.member_id and b.member_id = any(array(select member_id from due))),
  settled as (
    update point.pending_points p set status = 'activated', earn_entry_id = a.entry_id, settled_at = now()
      from unnest(array(select id from entries order by ord), array(select entry_id from entries order by ord)) as a(id, entry_id)
     where p.id = a.id),
  announced as (
    insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at, trace_context)
    select gen_random_uuid(), type, payload, member_id::text, now(), null
      from (select '${POINT.events.earned}' as type, ${EARNED_PAYLOAD} as payload, e.member_id, e.ord from entries e
            union all
            select '${POINT.events.activated}', ${ACTIVATED_PAYLOAD}, e.member_id, $1::int + e.ord from entries e) events
     order by ord)
  select (select count(*) from due)::int as activated, (select members from expiring)::int as expiring`;

/** The baseline: BASELINE_BATCH on one connection until nothing is due. */
async function runBaseline(url: string): Promise<SideRun> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const batches: Batch[] = [];
    const started = performance.now();
    let activated = 0;
    for (;;) {
      const batchStarted = performance.now();
      const {
        rows: [{ activated: count, expiring }],
      } = await client.query(BASELINE_BATCH, [BATCH]);
      batches.push({ rows: count, ms: performance.now() - batchStarted });
      if (expiring > 0) throw new Error(`the baseline found ${expiring} members with lots to expire, which it does not write`);
      activated += count;
      if (count === 0) break;
    }
    return { name: 'baseline: 1 statement per batch', activated, ms: performance.now() - started, batches };
  } finally {
    await client.end();
  }
}

/** One line per broken invariant after a side's run (empty: consistent). */
async function check(pool: Pool, seeded: { total: string; holds: number }): Promise<string[]> {
  const problems: string[] = [];
  const expect = (what: string, actual: unknown, expected: unknown) => {
    if (String(actual) !== String(expected)) problems.push(`${what}: ${actual}, expected ${expected}`);
  };
  const one = async (sql: string) => (await pool.query(sql)).rows[0];
  const totals = await one(`
    select (select count(*) from point.pending_points where status = 'pending')::int as pending,
           (select count(*) from point.pending_points where status = 'activated')::int as activated,
           (select coalesce(sum(amount), 0)::text from point.pending_points where status = 'activated') as held,
           (select coalesce(sum(point_amount), 0)::text from point.point_balance) as balances,
           (select count(*) from point.point_balance where pending_amount <> 0)::int as pending_left,
           (select count(*) from point.point_transaction where action_type <> 'EARN')::int as not_earn,
           (select count(*) from point.point_transaction)::int as entries,
           (select coalesce(sum(amount), 0)::text from point.point_transaction where action_type = 'EARN') as earned,
           (select count(*) from point.point_transaction where amount > 0)::int as with_points,
           (select count(*) from point.point_lot)::int as lots,
           (select count(*) from point.outbox_event where type = '${POINT.events.earned}')::int as earned_events,
           (select count(*) from point.outbox_event where type = '${POINT.events.activated}')::int as activated_events,
           (select count(*) from point.outbox_event)::int as events`);
  expect('holds still pending', totals.pending, 0);
  expect('holds activated', totals.activated, seeded.holds);
  expect("the activated holds' sum", totals.held, seeded.total);
  expect("the balances' sum", totals.balances, seeded.total);
  expect("the EARN entries' sum", totals.earned, seeded.total);
  expect('balances with a pending amount left', totals.pending_left, 0);
  expect('entries other than EARN', totals.not_earn, 0);
  expect('entries', totals.entries, seeded.holds);
  expect('lots', totals.lots, totals.with_points);
  expect(`${POINT.events.earned} events`, totals.earned_events, seeded.holds);
  expect(`${POINT.events.activated} events`, totals.activated_events, seeded.holds);
  expect('outbox events', totals.events, 2 * seeded.holds);
  const deep = await one(`
    select (select count(*) from point.point_balance b
              left join (select member_id, sum(amount) as points, sum(purchase_amount) as purchases, count(*) as n, max(balance_after) as last
                           from point.point_transaction group by member_id) t on t.member_id = b.member_id
             where b.point_amount <> coalesce(t.points, 0) or b.purchase_amount <> coalesce(t.purchases, 0)
                or b.entry_count <> coalesce(t.n, 0) or b.point_amount <> coalesce(t.last, 0))::int as wrong_balances,
           (select count(*) from (select balance_after, sum(amount) over (partition by member_id order by created_at, id) as running
                                    from point.point_transaction) r where balance_after <> running)::int as wrong_running,
           (select count(*) from point.point_lot l join point.point_transaction t on t.id = l.transaction_id
             where l.member_id = t.member_id and l.amount = t.amount and l.remaining = t.amount and l.earned_at = t.created_at
               and l.expires_at = t.created_at + ${LOT_LIFETIME})::int as good_lots,
           (select count(distinct transaction_id) from point.point_lot)::int as lot_entries,
           (select count(*) from point.pending_points p join point.point_transaction t on t.id = p.earn_entry_id
             where t.action_type = 'EARN' and t.member_id = p.member_id and t.amount = p.amount and t.purchase_amount = p.purchase_amount
               and t.reference_id is not distinct from p.reference_id and t.note is not distinct from p.note and t.metadata is not distinct from p.metadata
               and t.shop_id is not distinct from p.shop_id and t.category_id is not distinct from p.category_id and t.source_by is not distinct from p.source_by
               and p.settled_at is not null)::int as good_holds,
           (select count(distinct earn_entry_id) from point.pending_points)::int as hold_entries,
           (select count(*) from point.outbox_event a
              join point.outbox_event e on e.type = '${POINT.events.earned}' and e.payload->>'transactionId' = a.payload->>'transactionId'
                                      and e.aggregate_id = a.aggregate_id and e.sequence < a.sequence
              join point.pending_points p on p.id::text = a.payload->>'pendingId' and p.earn_entry_id::text = a.payload->>'transactionId'
                                         and p.member_id::text = a.aggregate_id
             where a.type = '${POINT.events.activated}')::int as good_event_pairs`);
  expect('balances unlike their entries (points, purchases, count, last balance_after)', deep.wrong_balances, 0);
  expect('entries whose balance_after is not their running sum', deep.wrong_running, 0);
  expect('lots matching their entry (amount, remaining, earned_at, expires_at 365 days later)', deep.good_lots, totals.with_points);
  expect('entries with a lot', deep.lot_entries, totals.with_points);
  expect('holds whose entry is theirs (member, amount, purchase amount, reference, note, metadata, store, category)', deep.good_holds, seeded.holds);
  expect('distinct entries of the holds', deep.hold_entries, seeded.holds);
  expect(`${POINT.events.activated} events after their entry's ${POINT.events.earned}, naming the hold and its entry`, deep.good_event_pairs, seeded.holds);
  return problems;
}

/**
 * The outcome without its ids and times: per table, the count and a sum of each row's hash (a multiset
 * digest: no join, no order) of the holds, the entries, and each kind of event's payload. Equal on both
 * sides when they wrote the same outcome (the links between the rows are checked by `check`).
 */
async function outcomeDigest(pool: Pool): Promise<string> {
  const digestOf = async (fields: string, from: string) => {
    const {
      rows: [{ digest }],
    } = await pool.query(`select count(*)::text || ':' || coalesce(sum(('x' || substr(md5(concat_ws('|', ${fields})), 1, 15))::bit(60)::bigint::numeric), 0)::text as digest from ${from}`);
    return digest as string;
  };
  const parts = [
    await digestOf(`id, member_id, status, amount, original_amount, purchase_amount, earn_entry_id is not null, settled_at is not null`, 'point.pending_points'),
    await digestOf(
      `member_id, action_type, amount, purchase_amount, shop_id, category_id, note, source_by, balance_after, reference_id, metadata::text`,
      'point.point_transaction',
    ),
    await digestOf(`member_id, amount, remaining, expires_at - earned_at`, 'point.point_lot'),
    await digestOf(`aggregate_id, (payload - 'transactionId' - 'createdAt')::text`, `point.outbox_event where type = '${POINT.events.earned}'`),
    await digestOf(`aggregate_id, (payload - 'transactionId' - 'activatedAt')::text`, `point.outbox_event where type = '${POINT.events.activated}'`),
  ];
  return parts.join(' ');
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** A side's rows per second and the times of its batches that activated any. */
function describe(run: SideRun) {
  const sorted = run.batches.filter((batch) => batch.rows > 0).map((batch) => batch.ms).sort((a, b) => a - b);
  return { rate: run.activated / (run.ms / 1000), batches: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** The server: DATABASE_URL's, or an embedded PostgreSQL under a fresh temporary directory. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void>; where: string }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {}, where: 'DATABASE_URL' };
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-bench-pending-'));
  const { startEmbeddedPostgres } = await importEsm(join(__dirname, '..', 'core', 'db', 'embedded-postgres.mjs'));
  const database: { url: string; stop: () => Promise<void> } = await startEmbeddedPostgres({ dataDir });
  return {
    url: database.url,
    where: `embedded PostgreSQL under ${dataDir}`,
    stop: async () => {
      await database.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new, empty database on the server of `serverUrl`, as a URL. */
async function freshDatabase(serverUrl: string, suffix: string): Promise<string> {
  const url = new URL(serverUrl);
  const name = `${url.pathname.slice(1) || 'postgres'}_bench_pending_${suffix}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${new URL(databaseUrl).pathname.slice(1)}" with (force)`);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<boolean> {
  const server = await startServer();
  log(`pending-points activation: ${ROWS} due holds of ${MEMBERS} members, batches of ${BATCH}, on the ${server.where}`);
  const now = new Date();
  const runs: SideRun[] = [];
  const digests: string[] = [];
  let passed = true;
  try {
    for (const side of ['job', 'baseline'] as const) {
      const url = await freshDatabase(server.url, side);
      await (await openModuleOrm(pointModule, url)).close(); // the point domain's migrations
      const pool = new Pool({ connectionString: url, max: 2 });
      try {
        log(`${side}: seeding`);
        const seeded = await seedHolds(pool, now);
        log(`${side}: seeded ${seeded.holds} holds of ${seeded.members} members, ${seeded.total} points pending, in ${seconds(seeded.ms)}s (vacuum and analyze included)`);
        const run = side === 'job' ? await runJob(url) : await runBaseline(url);
        runs.push(run);
        const figures = describe(run);
        log(`${side}: ${run.activated} holds activated in ${seconds(run.ms)}s, ${figures.rate.toFixed(0)} rows/s, batch p50 ${figures.p50.toFixed(0)} ms, p99 ${figures.p99.toFixed(0)} ms`);
        const problems = await check(pool, seeded);
        log(problems.length === 0 ? `${side}: check PASS` : `${side}: check FAIL\n  ${problems.join('\n  ')}`);
        if (problems.length > 0) passed = false;
        digests.push(await outcomeDigest(pool));
      } finally {
        await pool.end();
        await dropDatabase(server.url, url);
      }
    }
    if (digests[0] !== digests[1]) {
      passed = false;
      log(`FAIL: the two sides' outcomes differ (digests ${digests[0]} and ${digests[1]})`);
    } else log(`both sides wrote the same outcome (digests of the holds, entries, lots and both events' payloads, ids and times left out: ${digests[0]})`);

    console.log(`\nPending-points activation, ${ROWS} holds of ${MEMBERS} members, batches of ${BATCH}\n`);
    console.log('side                                holds   seconds     rows/s  batches  batch p50 ms  p99 ms  max ms');
    for (const run of runs) {
      const figures = describe(run);
      console.log(
        `${run.name.padEnd(32)} ${String(run.activated).padStart(8)} ${seconds(run.ms).padStart(9)} ${figures.rate.toFixed(0).padStart(10)} ${String(figures.batches).padStart(8)}` +
          ` ${figures.p50.toFixed(0).padStart(13)} ${figures.p99.toFixed(0).padStart(7)} ${figures.max.toFixed(0).padStart(7)}`,
      );
    }
    const [job, baseline] = runs.map(describe);
    console.log(`\njob / baseline: rate ${(job.rate / baseline.rate).toFixed(3)}, batch p50 ${(job.p50 / baseline.p50).toFixed(2)}x, p99 ${(job.p99 / baseline.p99).toFixed(2)}x`);
    console.log(passed ? '\npending activation: PASS' : '\npending activation: FAIL');
  } finally {
    await server.stop();
  }
  return passed;
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    // A driver error carries its statement with the values formatted in: megabytes of JSON for the job's.
    const text = String(error instanceof Error ? (error.stack ?? error.message) : error);
    console.error(text.length > 4000 ? `${text.slice(0, 2000)}\n[... ${text.length - 4000} characters ...]\n${text.slice(-2000)}` : text);
    process.exit(1);
  },
);
