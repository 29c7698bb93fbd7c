import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { RunningPlatform, startPlatform } from '../../bin/platform';
import { PasswordHasher } from '../../core/auth/secrets';
import { Config } from '../../core/config';
import { DestinationStream } from '../../core/logger';
import { CallerRateLimiter } from '../../core/rate-limit';
import { everyDomainPort, loadPlatformConfig } from '../../subgraphs/registry';
import { CHATAPP_APP_ID, CHATAPP_APP_SECRET, FakeChatapp, startFakeChatapp } from './fake-chatapp';
import { FakeSmtp, startFakeSmtp } from './fake-smtp';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface ApiOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestStaff {
  id: string;
  email: string;
  password: string;
  token: string;
}

export interface TestMember {
  id: string;
  token: string;
  refreshToken: string;
}

export interface TestPlatform extends RunningPlatform {
  config: Config;
  dataDir: string;
  chatapp: FakeChatapp;
  smtp: FakeSmtp;
  /** Direct access to the test database, for fixtures and for checking what a request changed. */
  sql: Pool;
  api: <T = any>(method: string, path: string, options?: ApiOptions) => Promise<ApiResponse<T>>;
  graphql: <T = any>(query: string, variables?: Record<string, unknown>, token?: string) => Promise<ApiResponse<T>>;
  /** An ACTIVE staff member with the given role, logged in through REST. */
  createStaff: (roleKey?: string) => Promise<TestStaff>;
  /** A member logged in through the chat-app flow (created on first login). */
  loginMember: (code?: string) => Promise<TestMember>;
  roleId: (roleKey: string) => Promise<string>;
}

/**
 * The time a test that starts platforms of its own may take: a start runs every domain's migrations on a
 * fresh database, which takes several seconds alone and far longer on a machine busy with other suites.
 */
export const PLATFORM_START_TIMEOUT_MS = 120_000;

export const unique = (prefix = 't') => `${prefix}${randomBytes(5).toString('hex')}`;

/** Rate limits of their own on the test database, for an adapter or gateway a test builds by hand; close it after. */
export function openTestRateLimiter(limits = { standardPerHour: 1_000_000, premiumPerHour: 1_000_000 }, namespace = unique('rl')): Promise<CallerRateLimiter> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with npm test');
  return CallerRateLimiter.open(databaseUrl, limits, namespace);
}

/**
 * The whole chain (every subgraph, gateway, REST adapter) on random ports against the test database
 * (or the one `env.DATABASE_URL` names), with a fake chat-app provider and a fake SMTP server.
 */
export async function startTestPlatform(env: Record<string, string> = {}, logDestination?: DestinationStream): Promise<TestPlatform> {
  const databaseUrl = env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with npm test');
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-platform-'));
  const [chatapp, smtp] = await Promise.all([startFakeChatapp(), startFakeSmtp()]);
  const config = loadPlatformConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    GATEWAY_PORT: '0',
    ...everyDomainPort('0'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    CHATAPP_API_URL: chatapp.url,
    CHATAPP_APP_ID,
    CHATAPP_APP_SECRET,
    SMTP_URL: smtp.url,
    RATE_LIMIT_STANDARD_PER_HOUR: '1000000',
    // Production hashes at the OWASP cost (2^17, about 0.4 s each); tests create hundreds of staff members.
    PASSWORD_SCRYPT_COST: '1024',
    // CI runs the end-to-end suites twice: parts calling each other in-process (the default) and over HTTP.
    COLOCATED_TRANSPORT: process.env.COLOCATED_TRANSPORT ?? 'in-process',
    ...env,
  });
  const platform = await startPlatform(config, { logDestination, rateLimitNamespace: unique('rl') });
  const passwords = new PasswordHasher(config.passwordScryptCost);
  const sql = new Pool({ connectionString: databaseUrl, max: 2 });
  // An idle connection lost (a test of a database outage): the next query connects again.
  sql.on('error', () => undefined);

  const api = async <T = any>(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(`${platform.restUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };

  const graphql = async <T = any>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(platform.gatewayUrl, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  };

  const roleId = async (roleKey: string) => (await sql.query('select id from auth.role where key = $1', [roleKey])).rows[0].id as string;

  const createStaff = async (roleKey = 'admin'): Promise<TestStaff> => {
    const id = randomUUID();
    const email = `${unique('staff')}@example.com`;
    const password = unique('pw');
    await sql.query(
      `insert into auth.staff (id, email, firstname, lastname, role_id, status, locale, password_hash, created_at, updated_at)
       values ($1, $2, 'Test', 'Staff', $3, 'ACTIVE', 'en', $4, now(), now())`,
      [id, email, await roleId(roleKey), await passwords.hash(password)],
    );
    const login = await api('POST', '/auth/api/staffs/login', { body: { email, password } });
    if (login.status !== 200) throw new Error(`staff login failed: ${JSON.stringify(login.body)}`);
    return { id, email, password, token: login.body.data.data.accessToken };
  };

  const loginMember = async (code = unique('code')): Promise<TestMember> => {
    const login = await api('POST', '/auth/api/members/chatapp/login', { body: { code } });
    if (login.status !== 200) throw new Error(`member login failed: ${JSON.stringify(login.body)}`);
    const { accessToken, refreshToken } = login.body.data.data;
    const me = await api('GET', '/auth/api/members/me', { token: accessToken });
    return { id: me.body.data.data.id, token: accessToken, refreshToken };
  };

  return {
    ...platform,
    config,
    dataDir,
    chatapp,
    smtp,
    sql,
    api,
    graphql,
    createStaff,
    loginMember,
    roleId,
    close: async () => {
      await platform.close();
      await sql.end();
      await Promise.all([chatapp.close(), smtp.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
