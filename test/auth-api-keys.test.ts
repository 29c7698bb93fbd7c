import { randomUUID } from 'node:crypto';
import { startTestPlatform, TestPlatform, TestStaff, unique } from './support/test-platform';

const SERVICES = '/auth/api/services';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let platform: TestPlatform;
let admin: TestStaff;
let tenantRoleId: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.createStaff();
  tenantRoleId = await platform.roleId('tenant');
});
afterAll(() => platform.close());

const fieldsOf = (body: { data: { errors?: Array<{ field: string }> } }) => (body.data.errors ?? []).map((error) => error.field).sort();

const keysCreatedBy = async (staffId: string) =>
  Number((await platform.sql.query('select count(*) from auth.service_api_key where created_by_id = $1', [staffId])).rows[0].count);

async function generate(body: Record<string, unknown> = {}, token = admin.token) {
  const response = await platform.api('POST', `${SERVICES}/generate-api-key`, {
    token,
    body: { name: unique('service'), roleId: tenantRoleId, ...body },
  });
  if (response.status !== 201) throw new Error(`key generation failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; name: string; apiKey: string; roleId: string; expiresAt: string | null; createdAt: string };
}

const exchange = (apiKey: unknown) => platform.api('POST', `${SERVICES}/get-access-token`, { body: { apiKey } });
const myKeys = (token: string, query = '') => platform.api('GET', `${SERVICES}/me${query}`, { token });

/** The claims of a JWT, read without checking it. */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe('POST /services/generate-api-key', () => {
  it('answers 201 with the key directly in data, shown once and stored only as a hash', async () => {
    const name = unique('billing');
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: admin.token, body: { name, roleId: tenantRoleId } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      statusCode: 201,
      data: {
        id: expect.stringMatching(UUID),
        name,
        apiKey: expect.any(String),
        roleId: tenantRoleId,
        expiresAt: null,
        createdAt: expect.stringMatching(ISO_MS),
      },
    });
    const { id, apiKey } = response.body.data;
    expect(apiKey.length).toBeGreaterThanOrEqual(32);
    const row = await platform.sql.query('select * from auth.service_api_key where id = $1', [id]);
    expect(row.rows).toHaveLength(1);
    expect(row.rows[0]).toMatchObject({ name, role_id: tenantRoleId, created_by_id: admin.id, revoked_at: null, expires_at: null });
    expect(JSON.stringify(row.rows[0])).not.toContain(apiKey);
    expect(apiKey.startsWith(row.rows[0].prefix)).toBe(true);
  });

  it('sets expiresAt from expiredIn in milliseconds', async () => {
    const before = Date.now();
    const key = await generate({ expiredIn: 120000 });
    const expiresAt = new Date(key.expiresAt!).getTime();
    expect(key.expiresAt).toMatch(ISO_MS);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 120000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 120000);
  });

  it('gives every key a different value', async () => {
    const [first, second] = [await generate({ name: 'same-name' }), await generate({ name: 'same-name' })];
    expect(first.id).not.toBe(second.id);
    expect(first.apiKey).not.toBe(second.apiKey);
  });

  it('accepts a name of exactly 256 characters and refuses 257 with 400 on name', async () => {
    const longest = await generate({ name: 'n'.repeat(256) });
    expect(longest.name).toHaveLength(256);
    const before = await keysCreatedBy(admin.id);
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, {
      token: admin.token,
      body: { name: 'n'.repeat(257), roleId: tenantRoleId },
    });
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(fieldsOf(response.body)).toEqual(['name']);
    expect(await keysCreatedBy(admin.id)).toBe(before);
  });

  const invalid: Array<[string, Record<string, unknown>, string[]]> = [
    ['a malformed roleId', { name: 'svc', roleId: 'not-a-uuid' }, ['roleId']],
    ['an unknown roleId', { name: 'svc', roleId: randomUUID() }, ['roleId']],
    ['an empty name', { name: '', roleId: 'ROLE' }, ['name']],
    ['a number as name', { name: 42, roleId: 'ROLE' }, ['name']],
    ['a missing name and roleId', {}, ['name', 'roleId']],
    ['an expiredIn below one second', { name: 'svc', roleId: 'ROLE', expiredIn: 999 }, ['expiredIn']],
    ['a fractional expiredIn', { name: 'svc', roleId: 'ROLE', expiredIn: 1500.5 }, ['expiredIn']],
    ['a text expiredIn', { name: 'svc', roleId: 'ROLE', expiredIn: 'soon' }, ['expiredIn']],
  ];
  it.each(invalid)('rejects %s with 400 on that field and stores nothing', async (_case, raw, fields) => {
    const body = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, value === 'ROLE' ? tenantRoleId : value]));
    const before = await keysCreatedBy(admin.id);
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: admin.token, body });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(fields);
    expect(await keysCreatedBy(admin.id)).toBe(before);
  });

  it('answers 401 without a token', async () => {
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { body: { name: 'svc', roleId: tenantRoleId } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
  });

  it('answers 403 to a marketing staff member and a member, and stores nothing', async () => {
    const marketing = await platform.createStaff('marketing');
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, {
      token: marketing.token,
      body: { name: 'svc', roleId: tenantRoleId },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ statusCode: 403, data: { message: expect.any(String) } });
    expect(await keysCreatedBy(marketing.id)).toBe(0);
    const member = await platform.loginMember();
    const byMember = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: member.token, body: { name: 'svc', roleId: tenantRoleId } });
    expect(byMember.status).toBe(403);
    expect(await keysCreatedBy(member.id)).toBe(0);
  });
});

describe('GET /services/me', () => {
  it('lists the keys the caller created, paginated directly in data, without the key itself', async () => {
    const owner = await platform.createStaff();
    const other = await platform.createStaff();
    const created = [await generate({ name: 'one' }, owner.token), await generate({ name: 'two', expiredIn: 60000 }, owner.token)];
    const foreign = await generate({ name: 'foreign' }, other.token);

    const response = await myKeys(owner.token);
    expect(response.status).toBe(200);
    expect(response.body.statusCode).toBe(200);
    expect(response.body.data.meta).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });
    const items = response.body.data.data;
    expect(items.map((item: { id: string }) => item.id).sort()).toEqual(created.map((key) => key.id).sort());
    expect(items.map((item: { id: string }) => item.id)).not.toContain(foreign.id);
    for (const item of items) {
      expect(item).not.toHaveProperty('apiKey');
      expect(JSON.stringify(item)).not.toContain(created.find((key) => key.id === item.id)!.apiKey);
      const key = created.find((candidate) => candidate.id === item.id)!;
      expect(item).toMatchObject({ name: key.name, roleId: tenantRoleId, expiresAt: key.expiresAt, createdAt: key.createdAt, revokedAt: null });
    }
    const otherList = await myKeys(other.token);
    expect(otherList.body.data.data.map((item: { id: string }) => item.id)).toEqual([foreign.id]);
  });

  it('pages with page and limit, and rejects a limit out of 1..100 naming the field', async () => {
    const owner = await platform.createStaff();
    const created = [await generate({}, owner.token), await generate({}, owner.token), await generate({}, owner.token)];
    const first = await myKeys(owner.token, '?page=1&limit=2');
    expect(first.body.data.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const second = await myKeys(owner.token, '?page=2&limit=2');
    expect(second.body.data.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const seen = [...first.body.data.data, ...second.body.data.data].map((item: { id: string }) => item.id).sort();
    expect(seen).toEqual(created.map((key) => key.id).sort());
    for (const limit of ['0', '101']) {
      const response = await myKeys(owner.token, `?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(fieldsOf(response.body)).toEqual(['limit']);
    }
  });

  it('answers an empty page to a staff member who created no key, and 401 without a token', async () => {
    const fresh = await platform.createStaff('tenant');
    const response = await myKeys(fresh.token);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ meta: { page: 1, limit: 10, total: 0, totalPages: 0 }, data: [] });
    expect((await platform.api('GET', `${SERVICES}/me`)).status).toBe(401);
  });
});

describe('DELETE /services/revoke/:id', () => {
  it('answers 204 with an empty body; the key can no longer be exchanged', async () => {
    const key = await generate();
    expect((await exchange(key.apiKey)).status).toBe(200);
    const response = await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`, { token: admin.token });
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    const after = await exchange(key.apiKey);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
    const listed = await myKeys(admin.token, '?limit=100');
    const item = listed.body.data.data.find((candidate: { id: string }) => candidate.id === key.id);
    expect(item.revokedAt).toMatch(ISO_MS);
  });

  it('reports the token of a revoked key as no longer valid', async () => {
    const key = await generate();
    const token = (await exchange(key.apiKey)).body.data.accessToken;
    const before = await platform.api('GET', '/auth/api/check-access-token-session', { token });
    expect(before.body.data.data).toEqual({ valid: true });
    expect((await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`, { token: admin.token })).status).toBe(204);
    const after = await platform.api('GET', '/auth/api/check-access-token-session', { token });
    expect(after.body.data.data).toEqual({ valid: false });
  });

  it('answers 404 for an unknown or already revoked key, and 400 naming id for a malformed one', async () => {
    const id = randomUUID();
    const unknown = await platform.api('DELETE', `${SERVICES}/revoke/${id}`, { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, data: { message: expect.any(String), data: { id } } });
    const key = await generate();
    expect((await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`, { token: admin.token })).status).toBe(204);
    expect((await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`, { token: admin.token })).status).toBe(404);
    const malformed = await platform.api('DELETE', `${SERVICES}/revoke/not-a-uuid`, { token: admin.token });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['id']);
  });

  it('answers 401 without a token and 403 to a marketing staff member, and the key keeps working', async () => {
    const key = await generate();
    expect((await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`)).status).toBe(401);
    const marketing = await platform.createStaff('marketing');
    const forbidden = await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`, { token: marketing.token });
    expect(forbidden.status).toBe(403);
    expect((await exchange(key.apiKey)).status).toBe(200);
    const row = await platform.sql.query('select revoked_at from auth.service_api_key where id = $1', [key.id]);
    expect(row.rows[0].revoked_at).toBeNull();
  });
});

describe('POST /services/get-access-token', () => {
  it('answers 200 with an access token valid for 3600 seconds, directly in data', async () => {
    const key = await generate();
    const response = await exchange(key.apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { accessToken: expect.any(String), expiresIn: 3600 } });
    const claims = claimsOf(response.body.data.accessToken);
    expect(claims.sub).toBe(key.id);
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('gives a token that works as a Bearer token within the permissions of the key role', async () => {
    const tenantKey = await generate({ roleId: tenantRoleId });
    const tenantToken = (await exchange(tenantKey.apiKey)).body.data.accessToken;
    const roles = await platform.api('GET', '/auth/api/roles', { token: tenantToken });
    expect(roles.status).toBe(200);
    expect(roles.body.data.data.map((role: { key: string }) => role.key)).toEqual(expect.arrayContaining(['admin', 'marketing', 'tenant', 'customer']));
    const staffs = await platform.api('GET', '/auth/api/staffs', { token: tenantToken });
    expect(staffs.status).toBe(403);
    const generateAgain = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: tenantToken, body: { name: 'svc', roleId: tenantRoleId } });
    expect(generateAgain.status).toBe(403);

    const customerKey = await generate({ roleId: await platform.roleId('customer') });
    const customerToken = (await exchange(customerKey.apiKey)).body.data.accessToken;
    expect((await platform.api('GET', '/auth/api/roles', { token: customerToken })).status).toBe(403);
  });

  it('answers 401 with data.message for an unknown key', async () => {
    const response = await exchange(`lpk_${unique('forged')}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
    const key = await generate();
    expect((await exchange(`${key.apiKey}x`)).status).toBe(401);
    expect((await exchange(key.apiKey.slice(0, -1))).status).toBe(401);
  });

  it('answers 401 for an expired key', async () => {
    const key = await generate({ expiredIn: 3600000 });
    expect((await exchange(key.apiKey)).status).toBe(200);
    await platform.sql.query(`update auth.service_api_key set expires_at = now() - interval '1 second' where id = $1`, [key.id]);
    const response = await exchange(key.apiKey);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
  });

  it('rejects a missing or non-string apiKey with 400 naming the field', async () => {
    const missing = await platform.api('POST', `${SERVICES}/get-access-token`, { body: {} });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['apiKey']);
    const number = await exchange(12345);
    expect(number.status).toBe(400);
    expect(fieldsOf(number.body)).toEqual(['apiKey']);
  });
});
