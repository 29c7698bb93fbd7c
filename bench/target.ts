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

/** The system under benchmark: the whole platform in this process, an admin staff token, and the baseline route. */
export interface BenchTarget {
  config: Config;
  platform: RunningPlatform;
  pool: Pool;
  /** An admin staff token: every permission, point:manage and point:read included. */
  token: string;
  staffId: string;
  /** One express route that verifies the same JWT and runs the same SELECT as GET /auth/api/staffs/me, directly. */
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
  return { config, platform, pool, token, staffId, baseline };
}
