import { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Pool } from 'pg';
import { openModuleOrm } from '../core/module';
import { analyticsModule } from '../subgraphs/analytics/module';
import { rebuildReadModel } from '../subgraphs/analytics/services/rebuild';
import { CONNECTIONS, DURATION_SECONDS, p99Ratio, ratio, Target, warmThenLoad } from './load';

/** Purchases (`transaction.completed`) seeded into the point domain's outbox: the read model's events and the report's rows. */
const EVENTS = Number(process.env.BENCH_ANALYTICS_EVENTS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_ANALYTICS_CUSTOMERS ?? 10_000);
/** Customers per seeding statement: each takes one advisory lock per customer (the outbox trigger). */
const CHUNK = 1_000;
const CATEGORIES = `array['food', 'drinks', 'retail', 'services']`;

/**
 * The history of CUSTOMERS customers (`customer.created`) and EVENTS purchases spread evenly over the last 30 UTC days (each inside its day, so the dashboard's 30 days hold them all),
 * written straight into the auth and point outboxes as already published (the relay leaves them alone):
 * what the rebuild replays into the read model.
 */
async function seedHistory(pool: Pool): Promise<void> {
  const customerId = (expression: string) => `md5('bench-customer-' || (${expression}))::uuid`;
  await pool.query(
    `insert into auth.outbox_event (id, type, payload, aggregate_id, occurred_at, published_at)
     select gen_random_uuid(), 'customer.created',
            jsonb_build_object('customer', jsonb_build_object('id', ${customerId('c')}, 'name', 'Bench ' || c, 'email', 'bench' || c || '@example.com', 'phone', null,
              'tier', null, 'points_balance', 0, 'created_at', to_char((now() - (c % 60) * interval '1 day') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))),
            null, now(), now()
       from generate_series(0, $1::int - 1) as c`,
    [CUSTOMERS],
  );
  const perCustomer = Math.ceil(EVENTS / CUSTOMERS);
  for (let first = 0; first < CUSTOMERS; first += CHUNK) {
    await pool.query(
      `insert into point.outbox_event (id, type, payload, aggregate_id, occurred_at, published_at)
       select gen_random_uuid(), 'transaction.completed',
              jsonb_build_object('transactionId', gen_random_uuid()::text, 'customerId', ${customerId('c')}, 'amount', ((n % 500) + 1 + (n % 100) / 100.0)::numeric(14,2)::text,
                'storeId', 'S' || (n % 20), 'category', (${CATEGORIES})[n % 4 + 1], 'externalId', null, 'status', 'completed', 'pointsEarned', ((n % 500) + 1)::text || '.00',
                'occurredAt', to_char(date_trunc('day', now() at time zone 'UTC') - ((c * $4::int + n) % 30) * interval '1 day' + (n % 1440) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                'createdAt', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
              ${customerId('c')}::text, now(), now()
         from generate_series($1::int, least($1::int + $2::int, $3::int) - 1) as c, generate_series(1, $4::int) as n
        where c * $4::int + n <= $5::int`,
      [first, CHUNK, CUSTOMERS, perCustomer, EVENTS],
    );
  }
}

/** Peak resident memory of a process since `resetPeak` (Linux: /proc/<pid>/status VmHWM, reset through clear_refs). */
const resetPeak = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
async function memoryOf(pid: number): Promise<{ peak: number; resident: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kib('VmHWM'), resident: kib('VmRSS') };
}
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function call(target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${target.restUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Lines of the downloaded file, counted as it streams (the file is never held whole). */
async function countLines(url: string): Promise<{ status: number; type: string | null; lines: number; bytes: number }> {
  const response = await fetch(url);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { status: response.status, type: response.headers.get('content-type'), lines, bytes };
}

/** Asks for a report and waits for it: its time, and the target's resident memory before and peak during. */
async function timedReport(target: Target, child: ChildProcess, body: Record<string, unknown>) {
  const before = await memoryOf(child.pid!);
  await resetPeak(child.pid!);
  const started = performance.now();
  const accepted = await call(target, 'POST', '/api/v1/analytics/reports/generate', body);
  if (accepted.status !== 202) throw new Error(`report: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  let report: any;
  for (;;) {
    report = (await call(target, 'GET', `/api/v1/analytics/reports/${accepted.body.data.report_id}`)).body.data;
    if (report.status !== 'processing') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { report, seconds: (performance.now() - started) / 1000, before, during: await memoryOf(child.pid!) };
}

/**
 * The analytics read model fed by EVENTS events: seeded into the outboxes, replayed by the rebuild
 * (events applied per second), then GET /api/v1/analytics/dashboard?time_range=30d under load (request
 * rate, p99) beside its baseline (the same statements on a pool behind express, same load, same
 * process), then a transactions report of a tenth of the purchases and one of every purchase (EVENTS
 * rows): time to completed and the target's peak resident memory while writing each (the tenth is the
 * baseline: a bounded writer peaks alike), and the downloaded CSV's line count (header + EVENTS).
 */
export async function analyticsScenario(target: Target, child: ChildProcess, pool: Pool): Promise<boolean> {
  const problems: string[] = [];
  const seedStarted = performance.now();
  await seedHistory(pool);
  console.log(`\nseeded ${CUSTOMERS} customer.created and ${EVENTS} transaction.completed events in ${((performance.now() - seedStarted) / 1000).toFixed(1)}s`);

  const orm = await openModuleOrm(analyticsModule, target.databaseUrl);
  let applied = 0;
  const rebuildStarted = performance.now();
  try {
    applied = (await rebuildReadModel(orm)).applied;
  } finally {
    await orm.close();
  }
  const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
  console.log(`rebuild: ${applied} events applied in ${rebuildSeconds.toFixed(1)}s (${(applied / rebuildSeconds).toFixed(0)} events/s)`);
  if (applied < EVENTS + CUSTOMERS) problems.push(`the rebuild applied ${applied} events, fewer than ${EVENTS + CUSTOMERS}`);

  // The platform (REST adapter, gateway, analytics subgraph) beside the baseline: express + jose + pg running
  // the dashboard's own three statements on the same read model (bench/target.ts). Both answer the same figures.
  const dashboardPath = '/api/v1/analytics/dashboard?time_range=30d';
  const dashboard = await call(target, 'GET', dashboardPath);
  const baselineUrl = `${target.baselineUrl}/baseline/v1/analytics/dashboard?time_range=30d`;
  const baselineAnswer = await fetch(baselineUrl, { headers: { authorization: `Bearer ${target.token}` } }).then((response) => response.json());
  if (dashboard.status !== 200 || dashboard.body.data.sales.transaction_count < EVENTS) {
    problems.push(`the dashboard answered ${dashboard.status} ${JSON.stringify(dashboard.body).slice(0, 300)}`);
  } else if (JSON.stringify(baselineAnswer) !== JSON.stringify(dashboard.body)) {
    problems.push(`the baseline answered ${JSON.stringify(baselineAnswer).slice(0, 300)}, the platform ${JSON.stringify(dashboard.body).slice(0, 300)}`);
  }
  const results: Array<[string, Awaited<ReturnType<typeof warmThenLoad>>]> = [
    ['baseline: express + jose + pg', await warmThenLoad(baselineUrl, target.token)],
    ['platform, one process', await warmThenLoad(`${target.restUrl}${dashboardPath}`, target.token)],
  ];
  console.log(`\nGET ${dashboardPath} over ${applied} events, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
  console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx');
  for (const [name, result] of results) {
    console.log(`${name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)}`);
    if (result.non2xx > 0 || result.errors > 0) problems.push(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const [[, baseline], [, platform]] = results;
  console.log(`\nplatform / baseline: request rate ${ratio(platform.requests.average, baseline.requests.average)}, p99 latency ${p99Ratio(platform, baseline)}`);

  // A tenth of the purchases first (3 of the 30 days), then all of them: the same peak shows the bound.
  const days = (count: number) => new Date(Date.now() - count * 86_400_000).toISOString().slice(0, 10);
  const tenth = await timedReport(target, child, { type: 'transactions', format: 'csv', date_from: days(2) });
  const whole = await timedReport(target, child, { type: 'transactions', format: 'csv' });
  for (const [name, run] of [['a tenth (last 3 days), the baseline', tenth], ['every purchase', whole]] as const) {
    console.log(`\nreport of ${name}: ${run.report.status}, ${run.report.row_count} rows in ${run.seconds.toFixed(1)}s (${(Number(run.report.row_count) / run.seconds).toFixed(0)} rows/s)`);
    console.log(`target resident memory: ${mib(run.before.resident)} before, peak ${mib(run.during.peak)} while writing (the whole platform's process)`);
  }
  if (whole.report.status !== 'completed' || Number(whole.report.row_count) < EVENTS) problems.push(`the report is ${whole.report.status} with ${whole.report.row_count} rows`);
  else {
    const { pathname, search } = new URL(whole.report.download_url);
    const file = await countLines(`${target.restUrl}${pathname}${search}`);
    console.log(`download: ${file.status} ${file.type}, ${file.lines} lines, ${mib(file.bytes)}`);
    if (file.status !== 200 || file.lines !== Number(whole.report.row_count) + 1) problems.push(`the download answered ${file.status} with ${file.lines} lines`);
  }
  console.log(`\nevery purchase / a tenth: time ${ratio(whole.seconds, tenth.seconds)}, peak resident memory ${ratio(whole.during.peak, tenth.during.peak)}`);
  console.log(problems.length === 0 ? 'analytics: PASS' : `analytics: FAIL (${problems.join('; ')})`);
  return problems.length === 0;
}
