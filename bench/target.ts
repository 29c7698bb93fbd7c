import 'reflect-metadata';
import express, { Express } from 'express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { RunningPlatform, startPlatform } from '../bin/platform';
import { AccessTokens } from '../core/auth/jwt';
import { PasswordHasher } from '../core/auth/secrets';
import { Config } from '../core/config';
import { everyDomainPort, loadPlatformConfig } from '../subgraphs/registry';
import { v1Body } from '../rest-adapter/v1/envelope';
import { dashboardOf, DashboardRows, dashboardStatements } from '../subgraphs/analytics/services/analytics.service';
import { timeRangeDays } from '../subgraphs/analytics/services/periods';
import { TIME_RANGES, TimeRange } from '../subgraphs/analytics/types/analytics.types';
import { PointSettings } from '../subgraphs/point/settings';
import { pointsBaseline } from './baselines/points';
import { redeemBaseline } from './baselines/redeem';
import { bookingsBaseline } from './baselines/bookings';
import { transactionsBaseline } from './baselines/transactions';
import { v1CustomerBaseline } from './baselines/v1-customer';

/** The system under benchmark: the whole platform in this process, an admin staff token, and the baseline route. */
export interface BenchTarget {
  config: Config;
  platform: RunningPlatform;
  pool: Pool;
  /** An admin staff token: every permission, point:manage and point:read included. */
  token: string;
  staffId: string;
  /**
   * Express routes that verify the same JWT and run the same reads as GET /auth/api/staffs/me, GET
   * /api/v1/customers/{id}?include=points,tier and GET /api/v1/analytics/dashboard, directly; and the
   * point writes', the redemption's, the booking's and the transaction import's writes by hand (bench/baselines).
   */
  baseline: Express;
}

/** What the baseline route and the platform's staffs/me read: one live staff row by id. */
export const STAFF_SELECT = `select id, email, firstname, lastname, phone_number as "phoneNumber", role_id as "roleId", store_id as "storeId",
        status, locale, created_at as "createdAt", updated_at as "updatedAt"
   from auth.staff where id = $1 and deleted_at is null`;

export async function startBenchTarget(): Promise<BenchTarget> {
  const dataDir = process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'loyalty-bench-'));
  const config = loadPlatformConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    GATEWAY_PORT: '0',
    ...everyDomainPort('0'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_STANDARD_PER_HOUR: '100000000',
  });
  const platform = await startPlatform(config);
  const pool = new Pool({ connectionString: platform.databaseUrl, max: 10 });
  pool.on('error', () => {}); // idle clients see the embedded server stop at shutdown
  const staffId = randomUUID();
  const email = `bench-${staffId}@example.com`;
  await pool.query(
    `insert into auth.staff (id, email, firstname, lastname, role_id, status, locale, password_hash, created_at, updated_at)
     select $1, $2, 'Bench', 'Staff', id, 'ACTIVE', 'en', $3, now(), now() from auth.role where key = 'admin'`,
    [staffId, email, await new PasswordHasher(config.passwordScryptCost).hash('bench-password')],
  );
  const login = await fetch(`${platform.restUrl}/auth/api/staffs/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  const token = ((await login.json()) as any).data.data.accessToken as string;

  const tokens = new AccessTokens(config.jwtSecret);
  const baseline = express();
  baseline.get('/baseline/staffs/me', async (req, res) => {
    const principal = await tokens.fromHeader(req.headers.authorization);
    if (!principal) return void res.status(401).json({ statusCode: 401, data: { message: 'Unauthorized' } });
    const { rows } = await pool.query(STAFF_SELECT, [principal.id]);
    if (rows.length === 0) return void res.status(404).json({ statusCode: 404, data: { message: 'Staff not found', data: { id: principal.id } } });
    res.json({ statusCode: 200, data: { message: 'Current staff', data: rows[0] } });
  });
  // The analytics dashboard's own statements (subgraphs/analytics), one after the other on the pool, as the subgraph runs them.
  baseline.get('/baseline/v1/analytics/dashboard', async (req, res) => {
    const principal = await tokens.fromHeader(req.headers.authorization);
    if (!principal) return void res.status(401).json({ error: 'invalid_token' });
    const timeRange = String(req.query.time_range ?? 'today') as TimeRange;
    if (!TIME_RANGES.includes(timeRange)) return void res.status(400).json({ error: { code: 'VALIDATION_ERROR', message: 'time_range' } });
    const range = timeRangeDays(timeRange);
    const rows = [];
    for (const { sql, params } of dashboardStatements(range)) {
      let index = 0;
      rows.push((await pool.query(sql.replace(/\?/g, () => `$${++index}`), params)).rows[0]);
    }
    res.json(v1Body(dashboardOf(timeRange, range, rows as DashboardRows)));
  });
  const { expiry } = config.domains.point.settings as PointSettings;
  baseline.use(v1CustomerBaseline(pool, tokens));
  baseline.use(pointsBaseline(pool, tokens, expiry));
  baseline.use(redeemBaseline(pool, tokens));
  baseline.use(bookingsBaseline(pool, tokens));
  baseline.use(transactionsBaseline(pool, tokens, expiry));
  return { config, platform, pool, token, staffId, baseline };
}
