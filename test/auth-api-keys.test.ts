import { randomUUID } from 'node:crypto';
import { TestStaff, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const SERVICES = '/auth/api/services';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const { platform, admin } = usePlatform({ staff: ['admin'] });
let tenantRoleId: string;
beforeAll(async () => {
  tenantRoleId = await platform.roleId('tenant');
});

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

  it('refuses the token of a revoked key at once (401), the session check included', async () => {
    const key = await generate();
    const token = (await exchange(key.apiKey)).body.data.accessToken;
    const before = await platform.api('GET', '/auth/api/check-access-token-session', { token });
    expect(before.body.data.data).toEqual({ valid: true });
    expect((await platform.api('DELETE', `${SERVICES}/revoke/${key.id}`, { token: admin.token })).status).toBe(204);
    const after = await platform.api('GET', '/auth/api/check-access-token-session', { token });
    expect(after.status).toBe(401);
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

/** A role with exactly these permissions (roles are seeded; tests add their own through the database). */
async function customRole(permissions: string[]): Promise<string> {
  const id = randomUUID();
  await platform.sql.query(
    `insert into auth.role (id, key, name_en, permissions, created_at, updated_at) values ($1, $2, 'Custom', $3, now(), now())`,
    [id, unique('role'), permissions],
  );
  return id;
}

/** A logged-in staff member with a role of exactly these permissions. */
async function staffWithPermissions(permissions: string[]): Promise<TestStaff> {
  const roleId = await customRole(permissions);
  const staff = await platform.createStaff('customer');
  await platform.sql.query('update auth.staff set role_id = $2 where id = $1', [staff.id, roleId]);
  const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
  return { ...staff, token: login.body.data.data.accessToken };
}

const allKeys = (token: string, query = '') => platform.api('GET', `${SERVICES}${query}`, { token });

describe('GET /services (every key, for admins)', () => {
  it('lists the keys of every creator with creator, role, expiry, revocation and last use, paginated in data', async () => {
    const creator = await platform.createStaff();
    const used = await generate({ name: unique('used'), expiredIn: 3600000 }, creator.token);
    const unused = await generate({ name: unique('unused') }, admin.token);
    const revoked = await generate({ name: unique('revoked') }, creator.token);
    expect((await platform.api('DELETE', `${SERVICES}/revoke/${revoked.id}`, { token: creator.token })).status).toBe(204);
    expect((await exchange(used.apiKey)).status).toBe(200);

    const response = await allKeys(admin.token, '?limit=100');
    expect(response.status).toBe(200);
    expect(response.body.statusCode).toBe(200);
    expect(response.body.data.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    const items: Array<Record<string, any>> = response.body.data.data;
    const find = (id: string) => items.find((item) => item.id === id);
    expect(find(used.id)).toEqual({
      id: used.id,
      name: used.name,
      prefix: expect.any(String),
      roleId: tenantRoleId,
      role: { id: tenantRoleId, key: 'tenant' },
      createdById: creator.id,
      createdBy: { id: creator.id, email: creator.email, firstname: 'Test', lastname: 'Staff', deletedAt: null },
      expiresAt: used.expiresAt,
      revokedAt: null,
      lastUsedAt: expect.stringMatching(ISO_MS),
      createdAt: used.createdAt,
    });
    expect(find(unused.id)).toMatchObject({ createdById: admin.id, createdBy: { id: admin.id, email: admin.email }, lastUsedAt: null, expiresAt: null });
    expect(find(revoked.id)!.revokedAt).toMatch(ISO_MS);
    for (const item of items) expect(JSON.stringify(item)).not.toContain(used.apiKey);

    const byCreator = await allKeys(admin.token, `?createdById=${creator.id}`);
    expect(byCreator.body.data.meta).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });
    expect(byCreator.body.data.data.map((item: { id: string }) => item.id).sort()).toEqual([used.id, revoked.id].sort());
  });

  it('pages with page and limit, and rejects a limit out of 1..100 or a malformed createdById naming the field', async () => {
    const creator = await platform.createStaff();
    const created = [await generate({}, creator.token), await generate({}, creator.token), await generate({}, creator.token)];
    const first = await allKeys(admin.token, `?createdById=${creator.id}&page=1&limit=2`);
    const second = await allKeys(admin.token, `?createdById=${creator.id}&page=2&limit=2`);
    expect(first.body.data.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const seen = [...first.body.data.data, ...second.body.data.data].map((item: { id: string }) => item.id).sort();
    expect(seen).toEqual(created.map((key) => key.id).sort());
    expect(fieldsOf((await allKeys(admin.token, '?limit=101')).body)).toEqual(['limit']);
    const malformed = await allKeys(admin.token, '?createdById=nope');
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['createdById']);
  });

  it('needs service-key:manage: 401 without a token, 403 for marketing staff, members and key tokens', async () => {
    expect((await platform.api('GET', SERVICES)).status).toBe(401);
    const marketing = await platform.createStaff('marketing');
    expect((await allKeys(marketing.token)).status).toBe(403);
    const member = await platform.loginMember();
    expect((await allKeys(member.token)).status).toBe(403);
    const keyToken = (await exchange((await generate()).apiKey)).body.data.accessToken;
    expect((await allKeys(keyToken)).status).toBe(403);
  });

  it('answers the same list through GraphQL, and FORBIDDEN without the permission', async () => {
    const key = await generate();
    const query = 'query($createdById: ID) { apiKeys(createdById: $createdById, limit: 100) { meta { total } data { id createdBy { id } role { key } lastUsedAt } } }';
    const answer = await platform.graphql(query, { createdById: admin.id }, admin.token);
    expect(answer.body.data.apiKeys.data).toContainEqual({ id: key.id, createdBy: { id: admin.id }, role: { key: 'tenant' }, lastUsedAt: null });
    const marketing = await platform.createStaff('marketing');
    const refused = await platform.graphql(query, {}, marketing.token);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('records the last use when the key is exchanged, and shows it to the creator too', async () => {
    const owner = await platform.createStaff();
    const key = await generate({}, owner.token);
    const lastUsed = async () => (await myKeys(owner.token)).body.data.data.find((item: { id: string }) => item.id === key.id).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    expect((await exchange(key.apiKey)).status).toBe(200);
    const first = await lastUsed();
    expect(first).toMatch(ISO_MS);
    const row = await platform.sql.query('select last_used_at from auth.service_api_key where id = $1', [key.id]);
    expect(row.rows[0].last_used_at.toISOString()).toBe(first);
    // Within the minute a second exchange writes nothing; an older last use is moved forward.
    expect((await exchange(key.apiKey)).status).toBe(200);
    expect(await lastUsed()).toBe(first);
    await platform.sql.query(`update auth.service_api_key set last_used_at = last_used_at - interval '2 minutes' where id = $1`, [key.id]);
    expect((await exchange(key.apiKey)).status).toBe(200);
    expect(new Date(await lastUsed()).getTime()).toBeGreaterThanOrEqual(new Date(first).getTime());
  });
});

describe('API keys do not outlive their creator', () => {
  it('revokes every key a staff member created when the staff member is deleted; other keys keep working', async () => {
    const creator = await platform.createStaff();
    const keys = [await generate({}, creator.token), await generate({ expiredIn: 3600000 }, creator.token)];
    const othersKey = await generate();
    const keyToken = (await exchange(keys[0].apiKey)).body.data.accessToken;
    expect((await platform.api('DELETE', `/auth/api/staffs/${creator.id}`, { token: admin.token })).status).toBe(200);

    for (const key of keys) expect((await exchange(key.apiKey)).status).toBe(401);
    expect((await platform.api('GET', '/auth/api/check-access-token-session', { token: keyToken })).status).toBe(401);
    expect((await exchange(othersKey.apiKey)).status).toBe(200);
    const listed = await allKeys(admin.token, `?createdById=${creator.id}`);
    expect(listed.body.data.data).toHaveLength(2);
    for (const item of listed.body.data.data) {
      expect(item.revokedAt).toMatch(ISO_MS);
      expect(item.createdBy).toMatchObject({ id: creator.id, deletedAt: expect.stringMatching(ISO_MS) });
    }
  });

  it('refuses a key from the token of a deleted staff member: the token is revoked (401)', async () => {
    const creator = await platform.createStaff();
    expect((await platform.api('DELETE', `/auth/api/staffs/${creator.id}`, { token: admin.token })).status).toBe(200);
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: creator.token, body: { name: 'late', roleId: tenantRoleId } });
    expect(response.status).toBe(401);
    expect(await keysCreatedBy(creator.id)).toBe(0);
  });
});

describe('a key role no stronger than its creator', () => {
  it('refuses with 403 a role holding a permission the creator lacks, or * to a creator without *, and stores nothing', async () => {
    const manager = await staffWithPermissions(['service-key:manage', 'member:read', 'role:read']);
    const stronger: Array<[string, string]> = [
      ['admin', await platform.roleId('admin')],
      ['marketing', await platform.roleId('marketing')],
      ['tenant', tenantRoleId],
      ['member:manage', await customRole(['member:read', 'member:manage'])],
    ];
    for (const [_name, roleId] of stronger) {
      const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: manager.token, body: { name: 'svc', roleId } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ statusCode: 403, data: { message: expect.any(String) } });
    }
    expect(await keysCreatedBy(manager.id)).toBe(0);
  });

  it('accepts a role whose permissions the creator all holds', async () => {
    const manager = await staffWithPermissions(['service-key:manage', 'member:read', 'role:read']);
    for (const roleId of [await customRole(['member:read', 'role:read']), await customRole(['member:read']), await platform.roleId('customer')]) {
      const key = await generate({ roleId }, manager.token);
      expect(key.roleId).toBe(roleId);
    }
    expect(await keysCreatedBy(manager.id)).toBe(3);
  });

  it('judges by the creator role now stored, not by an older token', async () => {
    const creator = await platform.createStaff();
    await platform.sql.query('update auth.staff set role_id = $2 where id = $1', [creator.id, await customRole(['service-key:manage'])]);
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: creator.token, body: { name: 'svc', roleId: tenantRoleId } });
    expect(response.status).toBe(403);
    expect(await keysCreatedBy(creator.id)).toBe(0);
  });

  it('does not let a service key create keys', async () => {
    const adminKey = await generate({ roleId: await platform.roleId('admin') });
    const keyToken = (await exchange(adminKey.apiKey)).body.data.accessToken;
    const response = await platform.api('POST', `${SERVICES}/generate-api-key`, { token: keyToken, body: { name: 'child', roleId: tenantRoleId } });
    expect(response.status).toBe(403);
    expect(await keysCreatedBy(adminKey.id)).toBe(0);
  });

  it('revokes the keys a new, weaker role of their creator no longer covers', async () => {
    const creator = await platform.createStaff();
    const adminKey = await generate({ roleId: await platform.roleId('admin') }, creator.token);
    const tenantKey = await generate({ roleId: tenantRoleId }, creator.token);
    const customerKey = await generate({ roleId: await platform.roleId('customer') }, creator.token);
    const body = { email: creator.email, firstname: 'Test', lastname: 'Staff', roleId: tenantRoleId };
    expect((await platform.api('PUT', `/auth/api/staffs/${creator.id}`, { token: admin.token, body })).status).toBe(200);
    expect((await exchange(adminKey.apiKey)).status).toBe(401);
    expect((await exchange(tenantKey.apiKey)).status).toBe(200);
    expect((await exchange(customerKey.apiKey)).status).toBe(200);
  });
});
