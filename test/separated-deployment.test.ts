import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { INTERNAL_CREDENTIAL_HEADER } from '../core/auth/internal-credential';
import { loadConfig } from '../core/config';
import { freePort } from '../core/http';
import { MODULES } from '../subgraphs/registry';
import { CHATAPP_APP_ID, CHATAPP_APP_SECRET, FakeChatapp, startFakeChatapp } from './support/fake-chatapp';
import { png, pngBytes } from './support/images';
import { PartExit, PartProcess, PartProcesses } from './support/part-processes';
import { createScratchDatabase, ScratchDatabase } from './support/scratch-database';
import { ApiOptions, ApiResponse, unique } from './support/test-platform';
import { waitFor } from './support/wait-for';

/**
 * The platform as it is deployed: every domain's subgraph, one gateway and two REST adapters, each its
 * own process (`bin/part.ts`) configured only by its environment, on one PostgreSQL database of this
 * file's own. Requests go through the adapters alternately, as a load balancer would send them.
 */

/** Every caller's hourly budget at the adapters and the gateway: small enough to cross in a test. */
const LIMIT = 9;
const ADMIN = { email: 'admin@deploy.test', password: unique('pw') };
const JWT_SECRET = randomBytes(32).toString('hex');
/** Where clients reach the adapters (their load balancer): the base of uploaded files' URLs. */
const PUBLIC_URL = 'http://loyalty.test';

const parts = new PartProcesses();
let database: ScratchDatabase;
let sql: Pool;
let chatapp: FakeChatapp;
let dataRoot: string;
/** Where every part reaches the gateway (docker-compose's GATEWAY_URL): its port is chosen before the subgraphs start. */
let gatewayUrl: string;
let subgraphs: PartProcess[];
let gateway: PartProcess;
/** The REST adapters, [A, B]: what one proves through A another checks through B. */
let adapters: PartProcess[];

/**
 * What every part is given (docker-compose's shared environment), with its data directory: a service's
 * own, shared by its replicas as a compose volume is (the adapters' uploads).
 */
function partEnv(service: string): Record<string, string> {
  const dataDir = join(dataRoot, service);
  mkdirSync(dataDir, { recursive: true });
  return { DATABASE_URL: database.url, JWT_SECRET, DATA_DIR: dataDir, LOG_LEVEL: 'info', GATEWAY_URL: gatewayUrl };
}

/** A domain's environment: the shared one, its port, and only the variables its module declares (as docker-compose passes them). */
function domainEnv(module: (typeof MODULES)[number]): Record<string, string> {
  const available: Record<string, string> = {
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    CHATAPP_API_URL: chatapp.url,
    CHATAPP_APP_ID,
    CHATAPP_APP_SECRET,
    PASSWORD_SCRYPT_COST: '1024',
  };
  const own = (module.environment ?? []).filter((name) => name in available).map((name) => [name, available[name]]);
  return { ...partEnv(module.contract.name), [`${module.contract.name.toUpperCase()}_PORT`]: '0', ...Object.fromEntries(own) };
}

beforeAll(async () => {
  database = await createScratchDatabase('deploy');
  sql = new Pool({ connectionString: database.url, max: 1 });
  chatapp = await startFakeChatapp();
  dataRoot = mkdtempSync(join(tmpdir(), 'loyalty-deploy-'));
  const gatewayPort = await freePort();
  gatewayUrl = `http://127.0.0.1:${gatewayPort}/graphql`;
  // The subgraphs a core's worth at a time (those of a group race for the migrations' advisory locks),
  // then the gateway that routes to them, then the adapters in front of it. All nine at once on a 2-core
  // machine running another suite beside this one took longer than a part's deadline (45 s) each.
  subgraphs = [];
  for (let first = 0; first < MODULES.length; first += availableParallelism()) {
    const group = MODULES.slice(first, first + availableParallelism());
    subgraphs.push(...(await Promise.all(group.map((module) => parts.start(module.contract.name, domainEnv(module))))));
  }
  const subgraphUrls = Object.fromEntries(subgraphs.map((subgraph) => [`${subgraph.part.toUpperCase()}_URL`, subgraph.url]));
  const limits = { RATE_LIMIT_STANDARD_PER_HOUR: String(LIMIT) };
  gateway = await parts.start('gateway', { ...partEnv('gateway'), GATEWAY_PORT: String(gatewayPort), GATEWAY_HOST: '127.0.0.1', ...subgraphUrls, ...limits });
  adapters = await Promise.all(
    ['rest-a', 'rest-b'].map((label) =>
      parts.start('rest', { ...partEnv('rest'), PORT: '0', HOST: '127.0.0.1', PUBLIC_URL, ...limits }, { label }),
    ),
  );
}, 300_000);

afterAll(async () => {
  await parts.stopAll();
  await sql?.end();
  await chatapp?.close();
  await database?.drop();
  if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
}, 90_000); // stopAll waits up to 10 s for each of the six parts before it kills one

async function api<T = any>(part: PartProcess, method: string, path: string, { token, body }: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${part.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

async function staffLogin(adapter: PartProcess): Promise<string> {
  const login = await api(adapter, 'POST', '/auth/api/staffs/login', { body: ADMIN });
  expect(login.status).toBe(200);
  return login.body.data.data.accessToken;
}

async function memberLogin(adapter: PartProcess): Promise<{ id: string; token: string }> {
  const login = await api(adapter, 'POST', '/auth/api/members/chatapp/login', { body: { code: unique('code') } });
  expect(login.status).toBe(200);
  const token = login.body.data.data.accessToken;
  const me = await api(adapter, 'GET', '/auth/api/members/me', { token });
  expect(me.status).toBe(200);
  return { id: me.body.data.data.id, token };
}

describe('a separated deployment: each part its own process on one PostgreSQL', () => {
  it('answers through either adapter, each reaching the gateway and the subgraphs behind it', async () => {
    for (const part of [...subgraphs, gateway, ...adapters]) expect(new URL(part.url).port).toMatch(/^[1-9]\d*$/);
    for (const adapter of adapters) {
      expect(await api(adapter, 'GET', '/healthz')).toMatchObject({ status: 200, body: { statusCode: 200, data: { status: 'ok' } } });
    }
  });

  it('serves a subgraph only to callers presenting the internal credential', async () => {
    const { internalSecret } = loadConfig({ JWT_SECRET });
    const query = (subgraph: PartProcess, headers: Record<string, string>) =>
      fetch(subgraph.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ __typename }' }) });
    for (const subgraph of subgraphs) {
      const anonymous = await query(subgraph, {});
      expect(anonymous.status).toBe(403);
      expect(await anonymous.json()).toEqual({ errors: [{ message: expect.stringContaining('gateway only'), extensions: { code: 'FORBIDDEN' } }] });
      expect((await query(subgraph, { [INTERNAL_CREDENTIAL_HEADER]: 'not-the-credential' })).status).toBe(403);
      const internal = await query(subgraph, { [INTERNAL_CREDENTIAL_HEADER]: internalSecret });
      expect(internal.status).toBe(200);
      expect(await internal.json()).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('logs staff in on one adapter, earns on the other, and reads the balance back on the first', async () => {
    const [a, b] = adapters;
    const admin = await staffLogin(a);
    const member = await memberLogin(b);
    const earned = await api(b, 'POST', '/point/api/earn', { token: admin, body: { memberId: member.id, amount: 120.5 } });
    expect(earned).toMatchObject({ status: 200, body: { statusCode: 200, data: { message: 'Points earned' } } });
    const balance = await api(a, 'GET', `/point/api/balance/${member.id}`, { token: admin });
    expect(balance.body).toEqual({ statusCode: 200, data: { memberId: member.id, pointAmount: 120.5, purchaseAmount: 0, pendingAmount: 0 } });
    expect((await api(a, 'GET', '/point/api/balance/me', { token: member.token })).body.data).toEqual(balance.body.data);
  });

  it('moves a member to the tier its purchases reach: an event from the point process applied by the cluster process', async () => {
    const [a, b] = adapters;
    const admin = await staffLogin(b);
    const form = new FormData();
    form.append('name_en', unique('Gold '));
    form.append('description_en', 'Reached by purchases');
    form.append('level', '1');
    form.append('requirement', JSON.stringify({ purchaseAmountHit: 1000 }));
    form.append('tierLogo', png(), 'logo.png');
    const created = await fetch(`${a.url}/cluster/api/tiers`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(created.status).toBe(201);
    const tier = ((await created.json()) as any).data.data as { id: string; level: number };

    const member = await memberLogin(a);
    expect((await api(b, 'POST', '/point/api/earn', { token: admin, body: { memberId: member.id, amount: 10, purchaseAmount: 1000 } })).status).toBe(200);
    // Polled in the database: every request through the adapters counts against the caller's small budget.
    await waitFor(
      async () => (await sql.query('select tier_id from cluster.tier_projection where member_id = $1', [member.id])).rows[0]?.tier_id === tier.id,
      'the tier projection',
    );
    const projection = await api(b, 'GET', '/cluster/api/tier-projections/me', { token: member.token });
    expect(projection.status).toBe(200);
    expect(projection.body.data).toMatchObject({ memberId: member.id, tierId: tier.id, tier: { id: tier.id, level: tier.level } });
    // The logo stored by A (under PUBLIC_URL) is served by B from the adapters' shared volume.
    const { imageUrl } = (await api(b, 'GET', `/cluster/api/tiers/${tier.id}`, { token: member.token })).body.data.data as { imageUrl: string };
    expect(imageUrl.startsWith(`${PUBLIC_URL}/files/`)).toBe(true);
    const logo = await fetch(`${b.url}${new URL(imageUrl).pathname}`);
    expect(logo.status).toBe(200);
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(pngBytes());
  });

  it('redeems a catalog: the reward process reads the member and spends its points through the gateway, outside the caller budgets', async () => {
    const [a, b] = adapters;
    const admin = await staffLogin(a);
    const member = await memberLogin(b);
    const reward = await api(a, 'POST', '/reward/api/rewards', { token: admin, body: { name_en: unique('Deployed '), description_en: 'd', type: 'POINT', stock: 3 } });
    const catalog = await api(b, 'POST', '/reward/api/reward-catalogs', {
      token: admin,
      body: { name_en: unique('Deployed catalog '), rewardId: reward.body.data.id, redeemRule: { pointUsage: 40 } },
    });
    expect((await api(a, 'POST', '/point/api/earn', { token: admin, body: { memberId: member.id, amount: 100 } })).status).toBe(200);
    const redeemed = await fetch(`${b.url}/reward/api/reward-catalogs/${catalog.body.data.id}/redeem`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'idempotency-key': unique('deployed') },
    });
    expect(redeemed.status).toBe(201);
    const code = ((await redeemed.json()) as any).data;
    expect(code).toMatchObject({ memberId: member.id, rewardCatalogId: catalog.body.data.id, status: 'AVAILABLE' });
    expect((await sql.query('select point_amount::text as p from point.point_balance where member_id = $1', [member.id])).rows[0].p).toBe('60.00');
    expect((await sql.query('select stock from reward.reward where id = $1', [reward.body.data.id])).rows[0].stock).toBe(2);
  });

  it('counts a caller in one budget across both adapters and the gateway, refusing the request that crosses it', async () => {
    const [a, b] = adapters;
    const member = await memberLogin(b); // its first request counted: GET /members/me
    const call = (target: PartProcess) =>
      target === gateway
        ? fetch(gateway.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
            body: JSON.stringify({ query: '{ currentMember { id } }' }),
          })
        : fetch(`${target.url}/auth/api/members/me`, { headers: { authorization: `Bearer ${member.token}` } });
    const rotation = [a, gateway, b];
    const statuses: number[] = [];
    const remaining: Array<string | null> = [];
    for (let i = 0; i < LIMIT; i += 1) {
      const response = await call(rotation[i % rotation.length]);
      statuses.push(response.status);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(statuses).toEqual([...Array(LIMIT - 1).fill(200), 429]);
    expect(remaining).toEqual([...Array.from({ length: LIMIT - 1 }, (_, i) => String(LIMIT - 2 - i)), '0']);
    // The adapter that refused is not alone: the other one refuses too.
    const refusedBy = rotation[(LIMIT - 1) % rotation.length];
    expect(refusedBy).not.toBe(gateway);
    const other = refusedBy === a ? b : a;
    expect((await call(other)).status).toBe(429);
  });

  it('stops every part cleanly on SIGTERM, adapters first and subgraphs last', async () => {
    const exits: PartExit[] = await parts.stopAll();
    const labels = [...MODULES.map((module) => module.contract.name), 'gateway', 'rest-a', 'rest-b'];
    expect(exits).toEqual(labels.map((label) => ({ label, code: 0, signal: null })));
  });
});
