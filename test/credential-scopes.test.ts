import { decodeJwt } from 'jose';
import { AccessTokens } from '../core/auth/jwt';
import { REST_ADAPTER_PRINCIPAL } from '../core/auth/oauth';
import { authorizationCode, basic, postForm, registerClient } from './support/oauth';
import { TestStaff, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

// Issue 24 item 1: a credential's scopes are signed into every token made from it, and every entry
// point authorizes on them: Part 1-2 REST, /api/v1, the gateway (GraphQL). The same for OAuth tokens.
const { platform, admin, tenant, member } = usePlatform({ staff: ['admin', 'tenant'], members: 1 });

const SERVICES = '/auth/api/services';

/** An API key of `role` with `scopes`, and the access token Part 1's get-access-token gives for it. */
async function keyWithToken(role: string, scopes: string[]): Promise<{ id: string; apiKey: string; token: string }> {
  const created = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: admin.token, body: { name: unique('partner'), roleId: await platform.roleId(role), scopes } });
  expect(created.status).toBe(201);
  const { id, apiKey } = created.body.data;
  const exchanged = await platform.api('POST', `${SERVICES}/get-access-token`, { body: { apiKey } });
  expect(exchanged.status).toBe(200);
  return { id, apiKey, token: exchanged.body.data.accessToken };
}

const permissionsOf = (token: string) => decodeJwt(token).perms as string[];

const EARN = 'mutation($input: PointMovementInput!) { earnPoints(input: $input) { id } }';
const CREATE_STAFF = 'mutation($input: CreateStaffInput!) { createStaff(input: $input) { id } }';
const MEMBERS = 'query { members(limit: 1) { meta { total } } }';
const BATCH = 'mutation($input: PointBatchAwardInput!) { awardPointsBatch(input: $input) { __typename } }';

const staffInput = async (role: string) => ({ email: `${unique('intruder')}@example.com`, firstname: 'In', lastname: 'Truder', roleId: await platform.roleId(role) });
const balanceOf = async (memberId: string) => (await platform.sql.query('select coalesce(sum(point_amount), 0)::text as total from point.point_balance where member_id = $1', [memberId])).rows[0].total as string;
const codeOf = (answer: { body: { errors?: Array<{ extensions?: { code?: string } }> } }) => answer.body.errors?.[0]?.extensions?.code;

describe('an API key created with only read', () => {
  it('is exchanged for a token carrying its role\'s read permissions only, never "*"', async () => {
    const { token } = await keyWithToken('admin', ['read']);
    const perms = permissionsOf(token);
    expect(perms).not.toContain('*');
    expect(perms).toEqual(expect.arrayContaining(['member:read', 'point:read', 'tier:read']));
    for (const write of ['point:manage', 'staff:manage', 'member:manage', 'service-key:manage', 'webhook:manage', 'analytics:read']) expect(perms).not.toContain(write);
  });

  it('reads but earns nothing and creates no staff through the gateway', async () => {
    const { token } = await keyWithToken('admin', ['read']);
    const before = await balanceOf(member.id);
    const read = await platform.graphql(MEMBERS, {}, token);
    expect(read.body.data.members.meta.total).toBeGreaterThan(0);
    const earn = await platform.graphql(EARN, { input: { memberId: member.id, amount: 777 } }, token);
    expect(codeOf(earn)).toBe('FORBIDDEN');
    const staff = await platform.graphql(CREATE_STAFF, { input: await staffInput('admin') }, token);
    expect(codeOf(staff)).toBe('FORBIDDEN');
    expect(await balanceOf(member.id)).toBe(before);
  });

  it('earns nothing and creates no staff through Part 1-2 REST', async () => {
    const { token } = await keyWithToken('admin', ['read']);
    const before = await balanceOf(member.id);
    expect((await platform.api('POST', '/point/api/earn', { token, body: { memberId: member.id, amount: 777 } })).status).toBe(403);
    const input = await staffInput('admin');
    expect((await platform.api('POST', '/auth/api/staffs', { token, body: input })).status).toBe(403);
    expect((await platform.sql.query('select count(*)::int as n from auth.staff where email = $1', [input.email])).rows[0].n).toBe(0);
    expect((await platform.api('GET', '/auth/api/members?limit=1', { token })).status).toBe(200);
    expect(await balanceOf(member.id)).toBe(before);
  });

  it('awards nothing on /api/v1, as its token or as the key itself', async () => {
    const { apiKey, token } = await keyWithToken('admin', ['read']);
    const award = (headers: Record<string, string>) => platform.api('POST', `/api/v1/customers/${member.id}/points/award`, { headers, body: { points: 777, reason: 'attack' } });
    for (const headers of [{ authorization: `Bearer ${token}` }, { 'x-api-key': apiKey }] as Array<Record<string, string>>) {
      const refused = await award(headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
    }
    expect((await platform.api('GET', `/api/v1/customers/${member.id}`, { headers: { 'x-api-key': apiKey } })).status).toBe(200);
  });
});

describe('an API key with read and write, without admin', () => {
  it('writes, but neither manages staff nor batch-awards nor deletes customers, at the gateway as on /api/v1', async () => {
    const { apiKey, token } = await keyWithToken('admin', ['read', 'write']);
    const perms = permissionsOf(token);
    expect(perms).toEqual(expect.arrayContaining(['point:manage', 'member:manage']));
    for (const adminOnly of ['staff:manage', 'point:batch-award', 'member:delete', 'webhook:manage', 'oauth-client:manage']) expect(perms).not.toContain(adminOnly);
    expect((await platform.graphql(EARN, { input: { memberId: member.id, amount: 1 } }, token)).body.data.earnPoints.id).toEqual(expect.any(String));
    expect(codeOf(await platform.graphql(CREATE_STAFF, { input: await staffInput('tenant') }, token))).toBe('FORBIDDEN');
    expect(codeOf(await platform.graphql(BATCH, { input: { awards: [{ memberId: member.id, points: 5 }] } }, token))).toBe('FORBIDDEN');
    expect(codeOf(await platform.graphql('mutation($id: ID!) { deleteCustomer(id: $id) { id } }', { id: member.id }, token))).toBe('FORBIDDEN');
    expect((await platform.api('POST', '/api/v1/points/batch-award', { headers: { 'x-api-key': apiKey }, body: { awards: [{ customer_id: member.id, points: 5 }] } })).status).toBe(403);
    expect((await platform.api('DELETE', `/api/v1/customers/${member.id}`, { headers: { 'x-api-key': apiKey } })).status).toBe(403);
  });

  it('of a tenant role holds no write permission: its role reads only (scopes narrowed to the role)', async () => {
    const { token } = await keyWithToken('tenant', ['read', 'write']);
    expect(permissionsOf(token)).not.toContain('point:request');
    expect(permissionsOf(token)).toContain('point:read');
  });

  it('with every scope keeps its role whole', async () => {
    const { token } = await keyWithToken('admin', ['read', 'write', 'admin', 'analytics']);
    expect(permissionsOf(token)).toEqual(['*']);
  });
});

describe('an OAuth access token', () => {
  it('is exchanged for a platform token narrowed to its granted scopes', async () => {
    const client = await registerClient(platform, admin);
    const { code, verifier } = await authorizationCode(platform, admin, client, { scope: 'read' });
    const granted = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uris[0], code_verifier: verifier }, { authorization: basic(client.client_id, client.client_secret!) });
    expect(granted.body.scope).toBe('read');
    // What the REST adapter gets for it, asked as the adapter asks.
    const adapter = await new AccessTokens(platform.config.jwtSecret).sign(REST_ADAPTER_PRINCIPAL);
    const exchange = await platform.graphql('mutation($t: String!) { exchangeOAuthAccessToken(accessToken: $t) { accessToken } }', { t: granted.body.access_token }, adapter);
    const perms = permissionsOf(exchange.body.data.exchangeOAuthAccessToken.accessToken);
    expect(perms).not.toContain('*');
    expect(perms).toContain('member:read');
    expect(perms).not.toContain('point:manage');
    // And on /api/v1, where partners present it: reads, never writes.
    const bearer = { authorization: `Bearer ${granted.body.access_token}` };
    expect((await platform.api('GET', `/api/v1/customers/${member.id}`, { headers: bearer })).status).toBe(200);
    expect((await platform.api('POST', `/api/v1/customers/${member.id}/points/award`, { headers: bearer, body: { points: 5, reason: 'x' } })).status).toBe(403);
  });
});

describe('staff management cannot raise anyone above the manager (item 8)', () => {
  let manager: TestStaff;

  beforeAll(async () => {
    // A custom role: a tenant's permissions and staff:manage (roles are data; there is no API to make one).
    const tenantRole = (await platform.sql.query(`select permissions from auth.role where key = 'tenant'`)).rows[0].permissions as string[];
    const key = unique('staffer');
    await platform.sql.query(`insert into auth.role (key, name_en, permissions) values ($1, $1, $2)`, [key, [...tenantRole, 'staff:manage']]);
    manager = await platform.createStaff(key);
  });

  it('creates staff of a role it covers, and is refused (403) a stronger role', async () => {
    expect((await platform.api('POST', '/auth/api/staffs', { token: manager.token, body: await staffInput('tenant') })).status).toBe(201);
    for (const role of ['admin', 'marketing']) {
      const input = await staffInput(role);
      expect((await platform.api('POST', '/auth/api/staffs', { token: manager.token, body: input })).status).toBe(403);
      expect((await platform.sql.query('select count(*)::int as n from auth.staff where email = $1', [input.email])).rows[0].n).toBe(0);
    }
  });

  it('cannot promote itself or anyone to admin, nor change or delete an admin (no account takeover)', async () => {
    const self = await platform.api('PUT', `/auth/api/staffs/${manager.id}`, { token: manager.token, body: { email: manager.email, firstname: 'Me', lastname: 'Me', roleId: await platform.roleId('admin') } });
    expect(self.status).toBe(403);
    const takeover = await platform.api('PUT', `/auth/api/staffs/${admin.id}`, { token: manager.token, body: { email: `${unique('attacker')}@example.com`, firstname: 'A', lastname: 'B', roleId: await platform.roleId('admin') } });
    expect(takeover.status).toBe(403);
    expect((await platform.api('DELETE', `/auth/api/staffs/${admin.id}`, { token: manager.token })).status).toBe(403);
    const row = (await platform.sql.query('select email, deleted_at from auth.staff where id = $1', [admin.id])).rows[0];
    expect(row).toEqual({ email: admin.email, deleted_at: null });
    expect((await platform.api('PUT', `/auth/api/staffs/${tenant.id}`, { token: manager.token, body: { email: tenant.email, firstname: 'T', lastname: 'T', roleId: await platform.roleId('tenant') } })).status).toBe(200);
  });
});
