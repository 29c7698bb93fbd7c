import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Query, Resolver } from 'type-graphql';
import { InternalCredential } from '../core/auth/internal-credential';
import { AccessTokens } from '../core/auth/jwt';
import { openDomainOrm } from '../core/db/orm';
import { buildSubgraph } from '../core/subgraph';
import { startSubgraphServer } from '../core/subgraph-server';
import { startPlatform } from '../bin/platform';
import { loadConfig } from '../core/config';
import { listen, RunningServer } from '../core/http';
import { createLogger } from '../core/logger';
import { CallerRateLimiter } from '../core/rate-limit';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from '../rest-adapter/app';
import { everyDomainPort, loadPlatformConfig, platformSurface } from '../subgraphs/registry';
import { png } from './support/images';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { openTestRateLimiter, startTestPlatform, PLATFORM_START_TIMEOUT_MS } from './support/test-platform';
import { useTempDirs } from './support/temp-dirs';
import { usePlatform } from './support/use-platform';

const tempDir = useTempDirs('loyalty-foundation');

describe('the running chain', () => {
  const { platform } = usePlatform();

  it('answers /healthz with 200 when the gateway and the database answer', async () => {
    const response = await platform.api('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { status: 'ok' } });
  });

  it('answers 401 before reading the body when a route needs a token and none is valid', async () => {
    const response = await platform.api('POST', '/auth/api/staffs', { body: '{not json' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, data: { message: 'Unauthorized: missing token (Authorization: Bearer <access token>)' } });
    const form = new FormData();
    form.append('image', png(), 'r.png');
    const upload = await fetch(`${platform.restUrl}/point/api/receipt/verify/me`, { method: 'POST', body: form, headers: { authorization: 'Bearer forged' } });
    expect(upload.status).toBe(401);
    expect(await upload.json()).toEqual({ statusCode: 401, data: { message: 'Unauthorized: invalid or expired token' } });
  });

  it('answers unknown paths with the error envelope and 404', async () => {
    const response = await platform.api('GET', '/auth/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, data: { message: 'Not found' } });
  });

  it('echoes a given request id and makes one up otherwise', async () => {
    const given = await platform.api('GET', '/auth/api/consents', { headers: { 'x-request-id': 'req-abc.123' } });
    expect(given.headers.get('x-request-id')).toBe('req-abc.123');
    const made = await platform.api('GET', '/auth/api/consents', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('finishes a request in flight when the adapter shuts down, then refuses new connections', async () => {
    const staff = await platform.createStaff();
    const config = loadConfig({ DATA_DIR: tempDir(), GATEWAY_URL: platform.gatewayUrl, RATE_LIMIT_STANDARD_PER_HOUR: '1000' });
    const adapter = await listen(
      createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger: createLogger('rest', 'silent'), rateLimiter: platform.rateLimiter, surface: platformSurface() }),
      0,
      '127.0.0.1',
    );
    let closing: Promise<void> | undefined;
    adapter.server.once('request', () => {
      closing = adapter.close();
    });
    const response = await fetch(`http://127.0.0.1:${adapter.port}/auth/api/staffs/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: staff.email, password: staff.password }),
    });
    expect(response.status).toBe(200);
    expect(closing).toBeDefined();
    await closing;
    await expect(fetch(`http://127.0.0.1:${adapter.port}/healthz`)).rejects.toThrow();
  });
});

describe('request ids in the logs', () => {
  it('carries the caller request id from the REST adapter through the gateway to the subgraph', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const platform = await startTestPlatform({ LOG_LEVEL: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    try {
      const response = await platform.api('GET', '/auth/api/consents/current', { headers: { 'x-request-id': 'trace-me-42' } });
      expect(response.status).toBe(200);
      const traced = lines.filter((line) => line.reqId === 'trace-me-42');
      expect(new Set(traced.map((line) => line.service))).toEqual(new Set(['rest', 'gateway', 'auth']));
      expect(traced.find((line) => line.service === 'auth')).toMatchObject({ operation: expect.stringMatching(/^CurrentConsentVersions/), errors: 0 });
    } finally {
      await platform.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);
});

describe('unexpected errors', () => {
  @Resolver()
  class FailingResolver {
    @Query(() => String)
    failing(): string {
      throw new Error('relation "secret_table" does not exist');
    }
  }

  it('are masked for the client and logged with the request id that carried them', async () => {
    const lines: Array<Record<string, any>> = [];
    const logger = createLogger('failing', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const url = process.env.TEST_DATABASE_URL!;
    const orm = await openDomainOrm({ url, schema: 'failing_test', entities: [], migrations: {} });
    const internal = new InternalCredential(randomBytes(32).toString('hex'));
    const subgraph = await buildSubgraph({ name: 'failing', resolvers: [FailingResolver] });
    const server = await startSubgraphServer({ subgraph, orm, tokens: new AccessTokens(internal.secret), logger, port: 0, host: '127.0.0.1', internal });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'failing-7', ...internal.headers() },
        body: JSON.stringify({ query: '{ failing }' }),
      });
      const body = (await response.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
      expect(body.errors).toEqual([{ message: 'Internal server error', path: ['failing'], extensions: { code: 'INTERNAL' } }]);
      expect(JSON.stringify(body)).not.toContain('secret_table');
      const logged = lines.filter((line) => line.msg === 'unexpected error');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ reqId: 'failing-7', err: { message: 'relation "secret_table" does not exist' } });
    } finally {
      await server.close();
      await orm.close();
    }
  });
});

describe('rate limits', () => {
  const { platform } = usePlatform({ env: { RATE_LIMIT_STANDARD_PER_HOUR: '3' } });

  const memberToken = async () =>
    (await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code: `rate-${randomBytes(4).toString('hex')}` } })).body.data.data
      .accessToken as string;

  it('limits each caller to its tier, with the rate headers on every response and 429 past the limit', async () => {
    const token = await memberToken();
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await platform.api('GET', '/auth/api/members/me', { token });
      statuses.push(response.status);
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? '');
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(response.body).toEqual({ statusCode: 429, data: { message: expect.stringContaining('rate limit') } });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0']);
    const other = await memberToken();
    expect((await platform.api('GET', '/auth/api/members/me', { token: other })).status).toBe(200);
  });
});

describe('health when the gateway is down', () => {
  let adapter: RunningServer;
  let rateLimiter: CallerRateLimiter;
  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), GATEWAY_URL: 'http://127.0.0.1:9/graphql', LOG_LEVEL: 'silent' });
    rateLimiter = await openTestRateLimiter();
    const app = createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger: createLogger('rest', 'silent'), rateLimiter, surface: platformSurface() });
    adapter = await listen(app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await adapter.close();
    await rateLimiter.close();
  });

  it('answers 503 on /healthz and 503 without a stack trace on a route', async () => {
    const health = await fetch(`http://127.0.0.1:${adapter.port}/healthz`);
    expect(health.status).toBe(503);
    const route = await fetch(`http://127.0.0.1:${adapter.port}/auth/api/consents/current`);
    expect(route.status).toBe(503);
    expect(await route.json()).toEqual({ statusCode: 503, data: { message: 'Service temporarily unavailable' } });
  });
});

describe('bootstrap admin and a second start', () => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await createScratchDatabase('loyalty_bootstrap');
  });
  afterAll(() => database.drop());

  it('creates the first admin once, and a restart reuses the data without creating another', async () => {
    const url = new URL(database.url);
    const dataDir = tempDir();
    const env = {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: '0',
      GATEWAY_PORT: '0',
      ...everyDomainPort('0'),
      LOG_LEVEL: 'silent',
      BOOTSTRAP_ADMIN_EMAIL: 'Founder@Example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'first-password',
    };
    const login = async (restUrl: string, password: string) =>
      fetch(`${restUrl}/auth/api/staffs/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'founder@example.com', password }),
      });

    const first = await startPlatform(loadPlatformConfig(env));
    try {
      const response = await login(first.restUrl, 'first-password');
      expect(response.status).toBe(200);
      const { accessToken } = ((await response.json()) as any).data.data;
      const me = (await (await fetch(`${first.restUrl}/auth/api/staffs/me`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as any;
      expect(me.data.data).toMatchObject({ email: 'founder@example.com', status: 'ACTIVE' });
    } finally {
      await first.close();
    }

    const second = await startPlatform(loadPlatformConfig({ ...env, BOOTSTRAP_ADMIN_PASSWORD: 'other-password' }));
    try {
      expect((await login(second.restUrl, 'first-password')).status).toBe(200);
      expect((await login(second.restUrl, 'other-password')).status).toBe(401);
      const check = new Client({ connectionString: url.toString() });
      await check.connect();
      const { rows } = await check.query('select count(*)::int as count from auth.staff');
      await check.end();
      expect(rows[0].count).toBe(1);
    } finally {
      await second.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);
});

describe('password reset mail without SMTP', () => {
  it('writes the mail to the outbox file under DATA_DIR', async () => {
    const platform = await startTestPlatform({ SMTP_URL: '' });
    try {
      const staff = await platform.createStaff();
      const response = await platform.api('POST', '/auth/api/staffs/request-reset-password-by-email', { body: { email: staff.email } });
      expect(response.status).toBe(200);
      const outbox = join(platform.dataDir, 'outbox', 'mail.jsonl');
      expect(existsSync(outbox)).toBe(true);
      const mail = JSON.parse(readFileSync(outbox, 'utf8').trim().split('\n').pop()!);
      expect(mail.to).toBe(staff.email);
      expect(mail.text).toMatch(/\b\d{6}\b/);
      expect(platform.smtp.mails).toHaveLength(0);
    } finally {
      await platform.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);
});
