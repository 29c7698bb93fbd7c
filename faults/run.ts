import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../core/http';
import { platformProcessEnv } from '../test/support/platform-process';
import { waitFor } from '../test/support/wait-for';
import { awaitDeliveries, eventsOf, ledgerProblems, ledgerSums } from './checks';
import { DeliveryCounter } from './delivery-counter';
import { EarnLoad } from './earn-load';
import { Fault, faultsToRun, FaultTargets } from './faults';
import { PlatformCluster } from './platform-cluster';
import { startPostgresCluster } from './postgres-cluster';
import { failedChecks, FaultOutcome, formatTable } from './report';

/**
 * `npm run faults`: the platform (`npm start`, two workers) on a PostgreSQL of the suite's own, under
 * steady earns and with a webhook receiver, meets each fault in turn; after each, the ledger, the
 * idempotency keys and the deliveries are checked. Prints the table and exits 1 when a check failed.
 * `FAULTS=short` runs a PostgreSQL restart and a worker kill with shorter load (CI).
 */
const SHORT = process.env.FAULTS === 'short';
/** Steady load before each fault and after it is over. */
const BEFORE_MS = SHORT ? 3_000 : 5_000;
const AFTER_MS = SHORT ? 5_000 : 10_000;
/** How long the earns of a stretch may take to all answer 2xx once it ends. */
const DRAIN_MS = 120_000;
const MEMBERS = 20;
const ADMIN = { email: 'faults-admin@example.com', password: 'faults-admin-password' };
/** Attempts a second apart at first, then every 10 s: a receiver down a minute is reached again within 10 s. */
const WEBHOOK_RETRY_SCHEDULE = [1, 2, 4, 8, ...Array(16).fill(10)].join(',');

const say = (text: string) => process.stderr.write(`[faults] ${text}\n`);

async function main(): Promise<number> {
  const logDir = mkdtempSync(join(tmpdir(), 'loyalty-faults-'));
  const [pgPort, restPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const postgres = await startPostgresCluster(pgPort);
  const receiver = new DeliveryCounter();
  await receiver.start();
  const env = platformProcessEnv(
    { databaseUrl: postgres.url, dataDir: join(logDir, 'data'), admin: ADMIN, chatappUrl: 'http://127.0.0.1:9' },
    {
      WORKERS: '2',
      PORT: String(restPort),
      GATEWAY_PORT: String(gatewayPort),
      RATE_LIMIT_STANDARD_PER_HOUR: '100000000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE,
    },
  );
  const platform = new PlatformCluster(env, join(logDir, 'platform.log'));
  const cleanUp = async () => {
    await platform.stop('SIGKILL');
    platform.close();
    await receiver.stop();
    await postgres.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
  try {
    say(`PostgreSQL on ${pgPort}; the platform's log: ${join(logDir, 'platform.log')}`);
    await platform.start();
    const rest = `http://127.0.0.1:${restPort}`;
    const token = await adminToken(rest);
    const webhook = await call(rest, 'POST', '/api/v1/webhooks', token, { url: receiver.url, events: ['points.earned'] });
    receiver.verifyWith(webhook.secret);
    const load = new EarnLoad(rest, () => token);
    const targets: FaultTargets = { postgres, platform, receiver };
    const outcomes: FaultOutcome[] = [];
    for (const [index, fault] of faultsToRun(SHORT).entries()) {
      // Members of its own: events an earlier fault left held do not hold this one's (per-member order).
      const members = await createMembers(rest, token, `f${index}`);
      const outcome = await meet(fault, targets, load, members);
      outcomes.push(outcome);
      say(`${fault.name}: ${failedChecks(outcome).join('; ') || 'pass'}`);
      for (const problem of outcome.ledgerProblems.slice(0, 5)) say(`  ${problem}`);
      if (!outcome.drained) break;
      await waitFor(async () => platform.workers().length === 2, 'two workers again', DRAIN_MS);
    }
    console.log(formatTable(outcomes));
    const failed = outcomes.some((outcome) => failedChecks(outcome).length > 0);
    // The platform's log is kept for a failed run, to read why.
    if (!failed) rmSync(logDir, { recursive: true, force: true });
    return failed ? 1 : 0;
  } finally {
    await cleanUp();
  }
}

/** One fault under steady load: load, the fault, load again, then the checks. */
async function meet(fault: Fault, targets: FaultTargets, load: EarnLoad, members: string[]): Promise<FaultOutcome> {
  const before = await ledgerSums(targets.postgres);
  const badBefore = targets.receiver.badSignatures;
  load.start(members);
  await new Promise((resolve) => setTimeout(resolve, BEFORE_MS));
  say(`${fault.name}: injecting`);
  const recoveredAt = (await fault.inject(targets)) || Date.now();
  say(`${fault.name}: over`);
  await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
  const drained = await load.stop(DRAIN_MS);
  const { stats, confirmed } = load;
  const problems = drained ? await ledgerProblems(targets.postgres, confirmed, before) : [];
  const events = await eventsOf(targets.postgres, confirmed.entryIds);
  const deliveries = await awaitDeliveries(targets.receiver, events, recoveredAt);
  return { fault: fault.name, refusalsAllowed: fault.refusalsAllowed, stats, recoveredAt, drained, ledgerProblems: problems, deliveries, badSignatures: targets.receiver.badSignatures - badBefore };
}

/** A JSON call to the REST adapter that must succeed; resolves its `data`. */
async function call(rest: string, method: string, path: string, token: string | undefined, body: unknown): Promise<any> {
  const response = await fetch(`${rest}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as any;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

const adminToken = async (rest: string): Promise<string> => (await call(rest, 'POST', '/auth/api/staffs/login', undefined, ADMIN)).data.accessToken;

async function createMembers(rest: string, token: string, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < MEMBERS; i += 1) ids.push((await call(rest, 'POST', '/api/v1/customers', token, { name: `Fault Member ${i}`, email: `${prefix}-member-${i}@example.com` })).id);
  return ids;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
