import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../core/config';
import { listen, RunningServer } from '../core/http';
import { createLogger } from '../core/logger';
import { CallerRateLimiter } from '../core/rate-limit';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from '../rest-adapter/app';
import { platformSurface } from '../subgraphs/registry';
import { openTestRateLimiter, startTestPlatform, unique, PLATFORM_START_TIMEOUT_MS } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const ENTITIES = 'query Entities($representations: [_Any!]!) { _entities(representations: $representations) { ... on Member { id name } } }';

/** Connects to a port on an address: resolves the status of GET /healthz, or the connection error's code. */
function probe(address: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request({ host: address, port, path: '/healthz', method: 'GET', agent: false }, (incoming) => {
      incoming.resume();
      resolve(incoming.statusCode ?? 0);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    outgoing.end();
  });
}

const portOf = (url: string) => Number(new URL(url).port);

const { platform, admin } = usePlatform({ staff: ['admin'] });

describe('internal parts', () => {

  it('binds every part to loopback by default; HOST and GATEWAY_HOST open the adapter and the gateway, never the subgraphs', async () => {
    // A socket bound to 127.0.0.1 refuses connections to another loopback address; one bound to 0.0.0.0 accepts them.
    for (const url of [...Object.values(platform.subgraphUrls), platform.gatewayUrl, platform.restUrl]) {
      expect(await probe('127.0.0.1', portOf(url))).toBe(200);
      expect(await probe('127.0.0.2', portOf(url))).toBe('ECONNREFUSED');
    }
    const opened = await startTestPlatform({ HOST: '0.0.0.0', GATEWAY_HOST: '0.0.0.0' });
    try {
      for (const url of Object.values(opened.subgraphUrls)) expect(await probe('127.0.0.2', portOf(url))).toBe('ECONNREFUSED');
      expect(await probe('127.0.0.2', portOf(opened.gatewayUrl))).toBe(200);
      expect(await probe('127.0.0.2', portOf(opened.restUrl))).toBe(200);
    } finally {
      await opened.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);

  it('refuses a subgraph request without the gateway credential, so _entities cannot read members or balances', async () => {
    const member = await platform.loginMember();
    const representations = [{ __typename: 'Member', id: member.id }];
    for (const [name, url] of Object.entries(platform.subgraphUrls)) {
      for (const credential of [undefined, 'wrong-credential', platform.config.jwtSecret]) {
        const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` };
        if (credential) headers['x-internal-credential'] = credential;
        const query = name === 'point' ? ENTITIES.replace('id name', 'id pointBalance') : name === 'cluster' ? ENTITIES.replace('id name', 'id') : ENTITIES;
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables: { representations } }) });
        expect({ name, status: response.status }).toEqual({ name, status: 403 });
        const body = (await response.json()) as { data?: unknown; errors: Array<{ extensions: { code: string } }> };
        expect(body.data).toBeUndefined();
        expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
      }
    }
    // The gateway's own credential is what opens them.
    const response = await fetch(platform.subgraphUrls.auth, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-credential': platform.config.internalSecret },
      body: JSON.stringify({ query: ENTITIES, variables: { representations } }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).data._entities).toEqual([{ id: member.id, name: null }]);
  });

  it('refuses a graphql-ws connection to a subgraph without the gateway credential', async () => {
    const client = createClient({
      url: platform.subgraphUrls.auth.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${admin.token}` },
    });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: '{ health }' }, { next: () => resolve('data'), error: resolve, complete: () => resolve('complete') });
    });
    await client.dispose();
    expect(outcome).toMatchObject({ code: 4403 });
  });
});

describe('the gateway protects itself', () => {

  const errorsOf = (body: any): string[] => (body.errors ?? []).map((error: { message: string }) => error.message);

  it('runs a mail-sending mutation at most once per request, whatever its aliases', async () => {
    const email = admin.email;
    const before = platform.smtp.mails.length;
    const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: requestStaffPasswordResetByEmail(input: {email: "${email}"})`).join(' ');
    const flood = await platform.graphql(`mutation { ${aliases} }`);
    expect(flood.status).toBe(400);
    expect(flood.body.data).toBeUndefined();
    const twice = await platform.graphql(
      `mutation { a: requestStaffPasswordResetByEmail(input: {email: "${email}"}) b: requestStaffPasswordResetByEmail(input: {email: "${email}"}) }`,
    );
    expect(twice.status).toBe(400);
    expect(errorsOf(twice.body)).toContain('requestStaffPasswordResetByEmail may run at most once per request, found 2.');
    const viaFragments = await platform.graphql(
      `mutation { ...A ...B } fragment A on Mutation { staffLogin(input: {email: "x@example.com", password: "x"}) { accessToken } }
       fragment B on Mutation { again: staffLogin(input: {email: "y@example.com", password: "y"}) { accessToken } }`,
    );
    expect(errorsOf(viaFragments.body)).toContain('staffLogin may run at most once per request, found 2.');
    expect(platform.smtp.mails.length).toBe(before);
  });

  it('refuses operations past the depth, alias, root-field, token and cost limits with 400', async () => {
    const deep = await platform.graphql('{ roles { permissions } currentStaff { id } staffs { data { id } meta { page } } }', {}, admin.token);
    expect(deep.status).toBe(200);
    // The supergraph has no cycle that deep yet; the depth rule runs whether or not the fields exist.
    const tooDeep = await platform.graphql(`{ members { data { ${'deeper { '.repeat(10)}id${' }'.repeat(10)} } } }`, {}, admin.token);
    expect(tooDeep.status).toBe(400);
    expect(errorsOf(tooDeep.body).join()).toMatch(/depth limit of 10 exceeded/);
    const manyAliases = Array.from({ length: 16 }, (_, i) => `r${i}: roles { id }`).join(' ');
    const aliased = await platform.graphql(`{ ${manyAliases} }`, {}, admin.token);
    expect(aliased.status).toBe(400);
    expect(errorsOf(aliased.body).join()).toMatch(/Aliases limit of 15 exceeded/);
    const manyRoots = await platform.graphql(`{ ${'roles { id } '.repeat(21)} }`, {}, admin.token);
    expect(manyRoots.status).toBe(400);
    expect(errorsOf(manyRoots.body)).toContain('Too many root fields: 21, at most 20 per operation.');
    const manyTokens = await platform.graphql(`{ roles { ${'id '.repeat(2100)} } }`, {}, admin.token);
    expect(manyTokens.status).toBe(400);
    expect(errorsOf(manyTokens.body).join()).toMatch(/Document contains more tha[nt] 2000 tokens/);
    const member = `members(limit: 100) { meta { page limit total totalPages } data { id openId name nickName avatarUrl phoneNumber gender birthDate status
      createdAt updatedAt tier { id name_en name_th name_cn level } address { address subDistrict district province postCode country latitude longitude } } }`;
    const costly = await platform.graphql(`{ ${Array.from({ length: 15 }, (_, i) => `m${i}: ${member}`).join(' ')} }`, {}, admin.token);
    expect(costly.status).toBe(400);
    expect(errorsOf(costly.body).join()).toMatch(/Cost limit of 1000 exceeded/);
  });

  it('refuses a WebSocket message larger than the limit', async () => {
    const socket = new WebSocket(platform.gatewayUrl.replace(/^http/, 'ws'), 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(70 * 1024) } }));
    expect(await closed).toBe(1009);
  });
});

describe('introspection and the explorer', () => {
  const INTROSPECT = '{ __schema { queryType { name } } }';
  const explorerPage = (gatewayUrl: string) => fetch(gatewayUrl, { headers: { accept: 'text/html' } });

  it('are off when NODE_ENV=production, unless GRAPHQL_INTROSPECTION=true and GRAPHQL_EXPLORER=true', async () => {
    const production = await startTestPlatform({ NODE_ENV: 'production' });
    try {
      const refused = await production.graphql(INTROSPECT);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].message).toMatch(/introspection/i);
      // Neither GraphiQL nor Apollo's landing page (which loads its explorer from a CDN).
      const page = await explorerPage(production.gatewayUrl);
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      await production.close();
    }
    const enabled = await startTestPlatform({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true', GRAPHQL_EXPLORER: 'true' });
    try {
      const answered = await enabled.graphql(INTROSPECT);
      expect(answered.status).toBe(200);
      expect(answered.body.data.__schema.queryType.name).toBe('Query');
      expect((await explorerPage(enabled.gatewayUrl)).status).toBe(200);
    } finally {
      await enabled.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);

  it('serves the explorer to browsers under a policy of its own origin, its files by name only, and operations to every other GET', async () => {
    const page = await explorerPage(platform.gatewayUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';.*connect-src 'self'; frame-ancestors 'none'/);
    const html = await page.text();
    expect(html).toContain('<script src="/explorer/graphiql.js"></script>');
    expect(html).not.toMatch(/<script>|https?:\/\//);
    const origin = new URL(platform.gatewayUrl).origin;
    const script = await fetch(`${origin}/explorer/explorer.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    for (const name of ['__proto__', 'constructor', '..%2Fpackage.json', 'explorer.ts']) expect((await fetch(`${origin}/explorer/${name}`)).status).toBe(404);
    // A GET with an operation, or asking for JSON, is GraphQL's.
    const query = await fetch(`${platform.gatewayUrl}?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'apollo-require-preflight': 'true' } });
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('rate limits shared by every adapter and gateway', () => {
  const adapters: RunningServer[] = [];
  const limiters: CallerRateLimiter[] = [];
  const { platform: limited } = usePlatform({
    env: { RATE_LIMIT_STANDARD_PER_HOUR: '4' },
    beforeClose: async () => {
      for (const running of adapters) await running.close();
      for (const limiter of limiters) await limiter.close();
    },
  });
  const namespace = unique('shared');
  const limits = { standardPerHour: 4, premiumPerHour: 100 };

  /** One more REST adapter in front of the platform's gateway, counting in the shared namespace. */
  async function adapter(env: Record<string, string> = {}): Promise<string> {
    const limiter = await openTestRateLimiter(limits, namespace);
    limiters.push(limiter);
    const config = loadConfig({ DATA_DIR: limited.dataDir, JWT_SECRET: limited.config.jwtSecret, GATEWAY_URL: limited.gatewayUrl, ...env });
    const running = await listen(createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger: createLogger('rest', 'silent'), rateLimiter: limiter, surface: platformSurface() }), 0);
    adapters.push(running);
    return `http://127.0.0.1:${running.port}`;
  }
  // Two adapters counting together, and one behind a trusted proxy (built once: each reads the supergraph).
  let [first, second, behindProxy] = ['', '', ''];
  beforeAll(async () => {
    [first, second, behindProxy] = [await adapter(), await adapter(), await adapter({ TRUST_PROXY: '1' })];
  }, PLATFORM_START_TIMEOUT_MS);

  it('counts a caller across two adapters as one budget', async () => {
    const member = await limited.loginMember();
    const me = (base: string) => fetch(`${base}/auth/api/members/me`, { headers: { authorization: `Bearer ${member.token}` } });
    const statuses: number[] = [];
    const remaining: Array<string | null> = [];
    for (const base of [first, second, first, second, first]) {
      const response = await me(base);
      statuses.push(response.status);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(remaining).toEqual(['3', '2', '1', '0', '0']);
  });

  it('limits GraphQL callers at the gateway with the same headers, and 429 past the limit', async () => {
    const member = await limited.loginMember(); // one REST call as the member: GET /members/me
    const again = await limited.api('GET', '/auth/api/members/me', { token: member.token });
    // Counted once at the adapter; the adapter's own call to the gateway is not counted again.
    expect(again.headers.get('x-ratelimit-remaining')).toBe('2');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await limited.graphql('{ currentMember { id } }', {}, member.token);
      statuses.push(response.status);
      expect(response.headers.get('x-ratelimit-limit')).toBe('4');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(response.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
      }
    }
    expect(statuses).toEqual([200, 200, 429]);
    // The same member through REST shares the budget it used at the gateway.
    expect((await limited.api('GET', '/auth/api/members/me', { token: member.token })).status).toBe(429);
  });

  it('keys anonymous callers by the address TRUST_PROXY allows, never by a forged X-Forwarded-For', async () => {
    const direct = first;
    const consents = (base: string, forwardedFor: string) =>
      fetch(`${base}/auth/api/consents/current`, { headers: { 'x-forwarded-for': forwardedFor } }).then((response) => response.status);
    // Without a trusted proxy, every forged address is the same caller (127.0.0.1).
    const forged = [];
    for (let i = 0; i < 5; i += 1) forged.push(await consents(direct, `203.0.113.${i}`));
    expect(forged).toEqual([200, 200, 200, 200, 429]);
    // Behind one trusted proxy, the address it forwards is the caller.
    const proxied = [];
    for (let i = 0; i < 5; i += 1) proxied.push(await consents(behindProxy, `198.51.100.${i}`));
    expect(proxied).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('TRUST_PROXY', () => {
  const config = (value: string) => loadConfig({ DATA_DIR: '/tmp', JWT_SECRET: randomBytes(32).toString('hex'), TRUST_PROXY: value });

  it('takes a hop count or a list of addresses, and refuses true', () => {
    expect(config('2').trustProxy).toBe(2);
    expect(config('10.0.0.1, 10.1.0.0/16,loopback').trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16', 'loopback']);
    expect(config('false').trustProxy).toBe(false);
    expect(() => config('true')).toThrow(ConfigError);
    expect(() => config('10.0.0.1,not-an-address')).toThrow(/TRUST_PROXY must be/);
    expect(() => config('10.0.0.0/33')).toThrow(/TRUST_PROXY must be/);
  });
});
