import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { checkLedger } from './ledger-check';

export interface SeededMember {
  memberId: string;
  transactions: number;
  /** The balance written to point.point_balance, equal to the ledger sum. */
  balance: number;
}

export interface SeededLedger {
  heavy: SeededMember;
  light: SeededMember;
  transactionRows: number;
  lotRows: number;
  seconds: number;
}

export const EARN_POINTS = 10;
export const SPEND_POINTS = 5;

/** Transactions 1..n alternate EARN 10 (odd) and SPEND 5 (even): the balance after n of them. */
export function balanceAfter(n: number): number {
  return EARN_POINTS * Math.ceil(n / 2) - SPEND_POINTS * Math.floor(n / 2);
}

/**
 * Writes one member's history straight into the ledger with set-based SQL: `transactions` entries
 * alternating EARN 10 / SPEND 5, thirty seconds apart and ending now; one lot per EARN, consumed
 * oldest first by the spends exactly as LedgerService.spend does (so the older half of the lots is
 * empty and the newer half is full); and the balance row equal to the ledger sum, counting the
 * entries. Transaction ids are md5(member:i) so that the lots can name their EARN without a join.
 * Lots never expire (the default POINT_EXPIRY=never).
 */
async function seedMember(client: Client, memberId: string, transactions: number): Promise<SeededMember> {
  const spent = SPEND_POINTS * Math.floor(transactions / 2);
  await client.query(
    `insert into point.point_transaction
       (id, member_id, action_type, amount, purchase_amount, source_by, balance_after, created_at, updated_at)
     select md5($1::text || ':' || i)::uuid, $1::uuid,
            case when i % 2 = 1 then 'EARN' else 'SPEND' end,
            case when i % 2 = 1 then $3::numeric else $4::numeric end,
            0, 'Manual',
            $3::numeric * ((i + 1) / 2) - $4::numeric * (i / 2),
            now() - ($2::int - i) * interval '30 seconds', now() - ($2::int - i) * interval '30 seconds'
       from generate_series(1, $2::int) as i`,
    [memberId, transactions, EARN_POINTS, SPEND_POINTS],
  );
  await client.query(
    `insert into point.point_lot (id, member_id, transaction_id, amount, remaining, earned_at, expires_at)
     select gen_random_uuid(), $1::uuid, md5($1::text || ':' || (2 * k - 1))::uuid, $3::numeric,
            greatest(0, least($3::numeric, $3::numeric * k - $4::numeric)),
            now() - ($2::int - (2 * k - 1)) * interval '30 seconds', null
       from generate_series(1, ($2::int + 1) / 2) as k`,
    [memberId, transactions, EARN_POINTS, spent],
  );
  const balance = balanceAfter(transactions);
  await client.query(
    `insert into point.point_balance (member_id, point_amount, purchase_amount, entry_count, updated_at) values ($1, $2, 0, $3, now())`,
    [memberId, balance, transactions],
  );
  return { memberId, transactions, balance };
}

/**
 * Seeds a heavy member (1,000,000 transactions by default) and a light one (10) with fresh member
 * ids, in one database transaction, then vacuums and analyzes the tables as autovacuum would (so that
 * it does not run during the measurement instead).
 */
export async function seedLedger(databaseUrl: string, heavyTransactions = 1_000_000, lightTransactions = 10): Promise<SeededLedger> {
  const started = process.hrtime.bigint();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('set local synchronous_commit = off');
    const heavy = await seedMember(client, randomUUID(), heavyTransactions);
    const light = await seedMember(client, randomUUID(), lightTransactions);
    await client.query('commit');
    await client.query('vacuum (analyze) point.point_transaction, point.point_lot, point.point_balance');
    return {
      heavy,
      light,
      transactionRows: heavyTransactions + lightTransactions,
      lotRows: Math.ceil(heavyTransactions / 2) + Math.ceil(lightTransactions / 2),
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * `node -r @swc-node/register bench/seed-ledger.ts [DATABASE_URL] [HEAVY_TRANSACTIONS]`: seeds into
 * the given database (DATABASE_URL from the environment when omitted), which must carry the point
 * schema; without any, starts a throwaway platform on an embedded PostgreSQL to seed into.
 */
async function main(): Promise<void> {
  const heavyTransactions = Number(process.argv[3] ?? process.env.BENCH_SEED_ROWS ?? 1_000_000);
  let databaseUrl = process.argv[2] ?? process.env.DATABASE_URL;
  let close = async () => {};
  if (!databaseUrl) {
    const [{ startPlatform }, { everyDomainPort, loadPlatformConfig }] = await Promise.all([import('../bin/platform'), import('../subgraphs/registry')]);
    const config = loadPlatformConfig({
      ...process.env,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'loyalty-seed-')),
      PORT: '0',
      GATEWAY_PORT: '0',
      ...everyDomainPort('0'),
      LOG_LEVEL: 'warn',
    });
    const platform = await startPlatform(config);
    databaseUrl = platform.databaseUrl;
    close = platform.close;
  }
  try {
    const seeded = await seedLedger(databaseUrl, heavyTransactions);
    const pool = new Pool({ connectionString: databaseUrl, max: 1 });
    const check = await checkLedger(pool, [seeded.heavy.memberId, seeded.light.memberId]).finally(() => pool.end());
    console.log(JSON.stringify({ ...seeded, check: check.problems.length === 0 ? 'PASS' : check.problems }, null, 2));
    if (check.problems.length > 0) process.exitCode = 1;
  } finally {
    await close();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
