import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { REVOCATION_LISTENER } from '../core/auth/revocations';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { authorizationCode, basic, postForm, registerClient, RegisteredClient } from './support/oauth';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS, TestStaff, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// Issue 24 item 2: a revocation on one process takes effect on every other within a second. The
// platform of this file (process A, in jest) revokes; a second platform process (B, `bin/start.ts` on
// the same database and secret) is called, each credential warmed on B first (its caches hold it).
const tempDir = useTempDirs('loyalty-revocation-');
const { platform, admin } = usePlatform({ staff: ['admin'] });
const other = new PlatformProcess(() =>
  platformProcessEnv(
    { databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: tempDir(), admin: { email: 'unused@example.com', password: 'unused-password' }, chatappUrl: platform.chatapp.url },
    { JWT_SECRET: platform.config.jwtSecret, RATE_LIMIT_STANDARD_PER_HOUR: '1000000', RATE_LIMIT_PREMIUM_PER_HOUR: '1000000' },
  ),
);
let restB: string;
let gatewayB: string;

beforeAll(async () => {
  restB = await other.start();
  gatewayB = await waitFor(async () => (await callRest(restB, 'GET', '/healthz')).status === 200 && other.gatewayUrl, 'the second platform');
}, PLATFORM_START_TIMEOUT_MS);
afterAll(() => other.kill('SIGTERM'));

/** Within a second of the revocation, B refuses the credential (probed at most every 50 ms). */
const WITHIN_A_SECOND = 1000;
const refusedOnB = (call: () => Promise<number>, what: string) => waitFor(async () => (await call()) === 401, `${what} refused on the other process`, WITHIN_A_SECOND);

const v1 = (path: string, headers: Record<string, string>) => fetch(`${restB}${path}`, { headers }).then((response) => response.status);
const rest = (path: string, token: string) => fetch(`${restB}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.status);
/** A query at B's gateway: 401 when the token is refused (the subgraph answers UNAUTHENTICATED). */
const graphql = async (token: string) => {
  const response = await fetch(`${gatewayB}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ members(limit: 1) { meta { total } } }' }) });
  const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
  return body.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED' ? 401 : response.status;
};

async function apiKey(): Promise<{ id: string; apiKey: string; token: string }> {
  const created = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId: await platform.roleId('admin'), scopes: ['read'] } });
  const { id, apiKey: key } = created.body.data;
  const exchanged = await platform.api('POST', '/auth/api/services/get-access-token', { body: { apiKey: key } });
  return { id, apiKey: key, token: exchanged.body.data.accessToken };
}

async function oauthToken(client: RegisteredClient, staff: TestStaff = admin): Promise<{ access: string; code: string; verifier: string }> {
  const { code, verifier } = await authorizationCode(platform, staff, client, { scope: 'read' });
  const granted = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uris[0], code_verifier: verifier }, { authorization: basic(client.client_id, client.client_secret!) });
  expect(granted.status).toBe(200);
  return { access: granted.body.access_token, code, verifier };
}

describe('revoked on one process, refused on the other within a second', () => {
  it('an API key: as X-API-Key on /api/v1, its token on Part 1 REST and at the gateway', async () => {
    const key = await apiKey();
    expect(await v1('/api/v1/tiers', { 'x-api-key': key.apiKey })).toBe(200);
    expect(await rest('/auth/api/members?limit=1', key.token)).toBe(200);
    expect(await graphql(key.token)).toBe(200);
    expect((await platform.api('DELETE', `/auth/api/services/revoke/${key.id}`, { token: admin.token })).status).toBe(204);
    await refusedOnB(() => v1('/api/v1/tiers', { 'x-api-key': key.apiKey }), 'the key');
    expect(await rest('/auth/api/members?limit=1', key.token)).toBe(401);
    expect(await graphql(key.token)).toBe(401);
  });

  it('an OAuth access token revoked by /oauth/revoke', async () => {
    const client = await registerClient(platform, admin);
    const { access } = await oauthToken(client);
    const bearer = { authorization: `Bearer ${access}` };
    expect(await v1('/api/v1/tiers', bearer)).toBe(200);
    expect((await postForm(platform, '/oauth/revoke', { token: access }, { authorization: basic(client.client_id, client.client_secret!) })).status).toBe(200);
    await refusedOnB(() => v1('/api/v1/tiers', bearer), 'the revoked OAuth token');
  });

  it('an OAuth access token issued from a code that was then used again', async () => {
    const client = await registerClient(platform, admin);
    const { access, code, verifier } = await oauthToken(client);
    const bearer = { authorization: `Bearer ${access}` };
    expect(await v1('/api/v1/tiers', bearer)).toBe(200);
    const reuse = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uris[0], code_verifier: verifier }, { authorization: basic(client.client_id, client.client_secret!) });
    expect(reuse.body.error).toBe('invalid_grant');
    await refusedOnB(() => v1('/api/v1/tiers', bearer), 'the token of the reused code');
  });

  it("a disabled OAuth client's tokens, and a rotated secret's", async () => {
    const client = await registerClient(platform, admin);
    const first = { authorization: `Bearer ${(await oauthToken(client)).access}` };
    expect(await v1('/api/v1/tiers', first)).toBe(200);
    const disabled = await platform.api('PATCH', `/api/v1/oauth/clients/${client.client_id}`, { token: admin.token, body: { active: false } });
    expect(disabled.body.data).toMatchObject({ client_id: client.client_id, active: false, disabled_at: expect.any(String) });
    await refusedOnB(() => v1('/api/v1/tiers', first), "the disabled client's token");
    const refusedClient = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(client.client_id, client.client_secret!) });
    expect(refusedClient.status).toBe(401);

    expect((await platform.api('PATCH', `/api/v1/oauth/clients/${client.client_id}`, { token: admin.token, body: { active: true } })).body.data.active).toBe(true);
    const second = { authorization: `Bearer ${(await oauthToken(client)).access}` };
    expect(await v1('/api/v1/tiers', second)).toBe(200);
    const rotated = await platform.api('POST', `/api/v1/oauth/clients/${client.client_id}/rotate-secret`, { token: admin.token, body: {} });
    expect(rotated.status).toBe(200);
    await refusedOnB(() => v1('/api/v1/tiers', second), "the token of the client whose secret was rotated");
    const oldSecret = await postForm(platform, '/oauth/revoke', { token: 'x' }, { authorization: basic(client.client_id, client.client_secret!) });
    expect(oldSecret.status).toBe(401);
    const newSecret = await postForm(platform, '/oauth/revoke', { token: 'x' }, { authorization: basic(client.client_id, rotated.body.data.client_secret) });
    expect(newSecret.status).toBe(200);
  });

  it('a deleted staff member: Part 1 REST, /api/v1 and the gateway', async () => {
    const staff = await platform.createStaff('admin');
    expect(await rest('/auth/api/staffs/me', staff.token)).toBe(200);
    expect(await graphql(staff.token)).toBe(200);
    expect((await platform.api('DELETE', `/auth/api/staffs/${staff.id}`, { token: admin.token })).status).toBe(200);
    await refusedOnB(() => rest('/auth/api/staffs/me', staff.token), "the deleted staff member's token");
    expect(await v1('/api/v1/tiers', { authorization: `Bearer ${staff.token}` })).toBe(401);
    expect(await graphql(staff.token)).toBe(401);
  });

  it("a demoted staff member's token; its refresh carries the new role", async () => {
    const staff = await platform.createStaff('admin');
    const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
    const { accessToken, refreshToken } = login.body.data.data;
    expect(await rest('/auth/api/staffs?limit=1', accessToken)).toBe(200);
    const demoted = await platform.api('PUT', `/auth/api/staffs/${staff.id}`, { token: admin.token, body: { email: staff.email, firstname: 'Now', lastname: 'Tenant', roleId: await platform.roleId('tenant') } });
    expect(demoted.status).toBe(200);
    await refusedOnB(() => rest('/auth/api/staffs?limit=1', accessToken), "the demoted staff member's token");
    const refreshed = await callRest(restB, 'POST', '/auth/api/get-new-access-token', { refreshToken });
    expect(refreshed.status).toBe(200);
    expect(await rest('/auth/api/staffs?limit=1', refreshed.body.data.accessToken)).toBe(403);
    expect(await rest('/auth/api/staffs/me', refreshed.body.data.accessToken)).toBe(200);
  });

  it('a deleted customer and a deactivated member, on /api/v1 and over the gateway WebSocket', async () => {
    const [deleted, deactivated] = [await platform.loginMember(), await platform.loginMember()];
    for (const member of [deleted, deactivated]) expect(await v1('/api/v1/customers/me', { authorization: `Bearer ${member.token}` })).toBe(200);
    expect(await subscribesOnB(deleted.token)).toBe(true);
    expect((await platform.api('DELETE', `/api/v1/customers/${deleted.id}`, { token: admin.token })).status).toBe(204);
    const inactive = await platform.api('PUT', `/auth/api/members/${deactivated.id}/direct`, { token: admin.token, body: { status: 'INACTIVE' } });
    expect(inactive.status).toBe(200);
    for (const member of [deleted, deactivated]) await refusedOnB(() => v1('/api/v1/customers/me', { authorization: `Bearer ${member.token}` }), "the member's token");
    expect(await subscribesOnB(deleted.token)).toBe(false);
  });

  it('a revocation made while the other process was not listening: it reloads them when it reconnects', async () => {
    const key = await apiKey();
    expect(await v1('/api/v1/tiers', { 'x-api-key': key.apiKey })).toBe(200);
    // Every process's listening connection is cut (as a database restart or a network fault would).
    const cut = await platform.sql.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()', [REVOCATION_LISTENER]);
    expect(cut.rowCount).toBeGreaterThanOrEqual(2);
    expect((await platform.api('DELETE', `/auth/api/services/revoke/${key.id}`, { token: admin.token })).status).toBe(204);
    await waitFor(async () => (await v1('/api/v1/tiers', { 'x-api-key': key.apiKey })) === 401, 'the key refused once the other process listens again', 5000);
  });
});

/** Whether a member's token opens its notification stream at B's gateway (graphql-ws): the first event is `connected`. */
async function subscribesOnB(token: string): Promise<boolean> {
  const client = createClient({ url: gatewayB.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { authorization: `Bearer ${token}` } });
  try {
    for await (const result of client.iterate({ query: 'subscription { myNotificationEvents { type } }' })) {
      return (result.data as { myNotificationEvents?: { type: string } } | undefined)?.myNotificationEvents?.type === 'connected';
    }
    return false;
  } catch {
    return false;
  } finally {
    await client.dispose();
  }
}
