import { randomUUID } from 'node:crypto';
import { announceTiers } from './support/tier-catalog';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const BASE = '/api/v1/customers';
const V1_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const SNAKE_KEY = /^[a-z0-9]+(_[a-z0-9]+)*$/;

// A database of its own: the list's totals and orders are exactly these three customers.
const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 3 });
const [alice, bob, carol] = [0, 1, 2].map((index) => ({ get id() { return members[index].id; }, get token() { return members[index].token; } }));
const tier = { id: randomUUID(), name_en: unique('Gold '), level: 7 };
let adminRoleId: string;

beforeAll(async () => {
  adminRoleId = await platform.roleId('admin');
  const direct = (id: string, body: Record<string, unknown>) => platform.api('PUT', `/auth/api/members/${id}/direct`, { token: admin.token, body });
  const updates = await Promise.all([
    direct(alice.id, {
      name: 'Alice Anders',
      phoneNumber: '0811111111',
      birthDate: '1990-04-05',
      gender: 'Female',
      address: { address: '1 Silom Road', district: 'Bang Rak', province: 'Bangkok', postCode: '10500' },
    }),
    direct(bob.id, { name: 'Bob Brown' }),
    direct(carol.id, { name: 'Carol Chen', status: 'INACTIVE' }),
  ]);
  for (const update of updates) if (update.status !== 200) throw new Error(`member update failed: ${JSON.stringify(update.body)}`);
  const created: Array<[string, string]> = [
    [alice.id, '2026-01-10T08:00:00.123Z'],
    [bob.id, '2026-02-10T23:30:00.456Z'],
    [carol.id, '2026-03-10T08:00:00.789Z'],
  ];
  for (const [id, at] of created) await platform.sql.query('update auth.member set created_at = $2 where id = $1', [id, at]);
  const earned = await platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId: alice.id, amount: 150.5 } });
  if (earned.status !== 200) throw new Error(`earn failed: ${JSON.stringify(earned.body)}`);
  const spent = await platform.api('POST', '/point/api/spend', { token: admin.token, body: { memberId: alice.id, amount: 30 } });
  if (spent.status !== 200) throw new Error(`spend failed: ${JSON.stringify(spent.body)}`);
  await platform.sql.query(
    `insert into cluster.tier (id, name_en, name_th, description_en, level, requirement, is_active, is_special, created_at, updated_at)
     values ($1, $2, 'ทอง', 'fixture', $3, '{}', true, false, now(), now())`,
    [tier.id, tier.name_en, tier.level],
  );
  await announceTiers(platform.sql, [tier.id]);
  const assigned = await platform.api('POST', '/cluster/api/tiers/assign', { token: marketing.token, body: { memberId: alice.id, tierId: tier.id } });
  if (assigned.status >= 300) throw new Error(`tier assignment failed: ${JSON.stringify(assigned.body)}`);
});

/** A GET as a partner sends it: the admin's token unless another (or none: null) is given. */
const get = (path: string, token: string | null = admin.token, headers: Record<string, string> = {}) => platform.api('GET', path, { token: token ?? undefined, headers });
const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((customer) => customer.id);
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => (body.error.details ?? []).map((detail) => detail.field).sort();

/** Every key of a value, at every depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
  return [];
}

const aliceAsCustomer = () => ({
  id: alice.id,
  name: 'Alice Anders',
  email: null,
  phone: '0811111111',
  date_of_birth: '1990-04-05',
  gender: 'female',
  address: { street: '1 Silom Road', city: 'Bangkok', postal_code: '10500' },
  language: null,
  tier: tier.name_en,
  points_balance: 120,
  status: 'active',
  chatapp: { openid: expect.any(String), unionid: expect.any(String), nickname: null, avatar: null },
  created_at: '2026-01-10T08:00:00Z',
  updated_at: expect.stringMatching(V1_TIMESTAMP),
});

describe('GET /api/v1/customers', () => {
  it('answers the v1 envelope: snake_case customers, timestamps without milliseconds, and the customer pagination', async () => {
    const response = await get(BASE);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'pagination']);
    expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1, has_next: false, has_prev: false });
    expect(idsOf(response.body)).toEqual([carol.id, bob.id, alice.id]);
    expect(response.body.data[2]).toEqual(aliceAsCustomer());
    expect(response.body.data[0]).toMatchObject({ name: 'Carol Chen', status: 'inactive', tier: null, points_balance: 0, created_at: '2026-03-10T08:00:00Z' });
    for (const key of keysOf(response.body)) expect(key).toMatch(SNAKE_KEY);
    expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  });

  it('pages with page and limit, saying whether there is a next and a previous page', async () => {
    const middle = await get(`${BASE}?limit=1&page=2`);
    expect(middle.status).toBe(200);
    expect(idsOf(middle.body)).toEqual([bob.id]);
    expect(middle.body.pagination).toEqual({ page: 2, limit: 1, total: 3, total_pages: 3, has_next: true, has_prev: true });
    const past = await get(`${BASE}?limit=2&page=3`);
    expect(past.body).toEqual({ data: [], pagination: { page: 3, limit: 2, total: 3, total_pages: 2, has_next: false, has_prev: true } });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['limit=ten', 'limit'],
  ])('refuses %s with a 400 VALIDATION_ERROR naming the field', async (query, field) => {
    const response = await get(`${BASE}?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: [{ field, message: expect.any(String) }] } });
  });

  it('sorts by field:asc or field:desc, newest first without sort', async () => {
    expect(idsOf((await get(`${BASE}?sort=name:asc`)).body)).toEqual([alice.id, bob.id, carol.id]);
    expect(idsOf((await get(`${BASE}?sort=name:desc`)).body)).toEqual([carol.id, bob.id, alice.id]);
    expect(idsOf((await get(`${BASE}?sort=created_at:asc`)).body)).toEqual([alice.id, bob.id, carol.id]);
    const byUpdate = (await get(`${BASE}?sort=updated_at:desc`)).body.data.map((customer: { updated_at: string }) => customer.updated_at);
    expect([...byUpdate].sort().reverse()).toEqual(byUpdate);
  });

  it('filters on status and searches names', async () => {
    expect(idsOf((await get(`${BASE}?filter[status]=inactive`)).body)).toEqual([carol.id]);
    const active = await get(`${BASE}?filter[status]=active&sort=name:asc`);
    expect(idsOf(active.body)).toEqual([alice.id, bob.id]);
    expect(active.body.pagination.total).toBe(2);
    expect(idsOf((await get(`${BASE}?search=bROWN`)).body)).toEqual([bob.id]);
  });

  it("filters on the tier, by the tier's name (case ignored) or id, from auth's projection of tier changes", async () => {
    // The tier assignment reaches the member list through the cluster's customer.tier_changed event.
    const byName = await waitFor(async () => {
      const response = await get(`${BASE}?filter[tier]=${encodeURIComponent(tier.name_en.toUpperCase())}`);
      return response.body.data.length > 0 && response;
    }, 'the tier filter to see alice');
    expect(idsOf(byName.body)).toEqual([alice.id]);
    expect(byName.body.pagination.total).toBe(1);
    expect(idsOf((await get(`${BASE}?filter[tier]=${tier.id}&filter[status]=active`)).body)).toEqual([alice.id]);
    expect((await get(`${BASE}?filter[tier]=${randomUUID()}`)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await get(`${BASE}?filter[tier]=No%20Such%20Tier`)).body.data).toEqual([]);
  });

  it('narrows to a creation window: date_from from its start, a bare date_to through its whole day', async () => {
    expect(idsOf((await get(`${BASE}?date_from=2026-02-01&sort=created_at:asc`)).body)).toEqual([bob.id, carol.id]);
    expect(idsOf((await get(`${BASE}?date_to=2026-02-10&sort=created_at:asc`)).body)).toEqual([alice.id, bob.id]);
    expect(idsOf((await get(`${BASE}?date_from=2026-01-10T08:00:01Z&date_to=2026-03-10T07:59:59Z`)).body)).toEqual([bob.id]);
    const bad = await get(`${BASE}?date_from=yesterday`);
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['date_from']);
  });

  it('reports every bad list parameter at once', async () => {
    const response = await get(`${BASE}?sort=email:up&filter[status]=gone&filter[tier]=&include=wallet`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(response.body)).toEqual(['filter[status]', 'filter[tier]', 'include', 'sort']);
  });

  it('includes the tier as {id, name, level}; the point totals only on a single customer', async () => {
    const response = await get(`${BASE}?include=tier&search=Alice`);
    expect(response.body.data).toEqual([{ ...aliceAsCustomer(), tier: { id: tier.id, name: tier.name_en, level: tier.level } }]);
    const points = await get(`${BASE}?include=points`);
    expect(points.status).toBe(400);
    expect(detailFields(points.body)).toEqual(['include']);
  });

  it('lets every staff role and an API key read, and refuses a customer token', async () => {
    for (const token of [marketing.token, tenant.token]) expect((await get(BASE, token)).status).toBe(200);
    const refused = await get(BASE, alice.token);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="read"');
    expect(refused.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
  });
});

describe('GET /api/v1/customers/{id}', () => {
  it('answers {data: customer}, with include', async () => {
    const plain = await get(`${BASE}/${alice.id}`);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ data: aliceAsCustomer() });
    const included = await get(`${BASE}/${alice.id}?include=points,tier`);
    expect(included.body.data.tier).toEqual({ id: tier.id, name: tier.name_en, level: tier.level });
    expect(included.body.data.points).toEqual({ balance: 120, lifetime_earned: 150, lifetime_redeemed: 30 });
    expect((await get(`${BASE}/${bob.id}?include=points`)).body.data.points).toEqual({ balance: 0, lifetime_earned: 0, lifetime_redeemed: 0 });
    const claims = await get(`${BASE}/${bob.id}?include=rewards,campaigns`);
    expect(claims.status).toBe(200);
    expect(claims.body.data).toMatchObject({ rewards: [], campaigns: [] });
    expect((await get(`${BASE}/${alice.id}?include=wallet`)).status).toBe(400);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown id and for what is no id at all, with include or without', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      for (const include of ['', '?include=points,tier']) {
        const response = await get(`${BASE}/${id}${include}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } });
      }
    }
  });

  it('answers with include=points the same customer and balance as without, its points beside', async () => {
    const plain = await get(`${BASE}/${alice.id}?include=tier`);
    const { points, ...included } = (await get(`${BASE}/${alice.id}?include=points,tier`)).body.data;
    expect(included).toEqual(plain.body.data);
    expect(points.balance).toBe(plain.body.data.points_balance);
  });

  it('lets a customer read itself and refuses it another customer (403 insufficient_scope)', async () => {
    const own = await get(`${BASE}/${alice.id}`, alice.token);
    expect(own.status).toBe(200);
    expect(own.body.data.id).toBe(alice.id);
    const other = await get(`${BASE}/${bob.id}`, alice.token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('insufficient_scope');
    expect(other.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });
});

describe('GET /api/v1/customers/me', () => {
  it("answers the customer token's own customer, with include", async () => {
    const response = await get(`${BASE}/me?include=tier,points`, alice.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { ...aliceAsCustomer(), tier: { id: tier.id, name: tier.name_en, level: tier.level }, points: { balance: 120, lifetime_earned: 150, lifetime_redeemed: 30 } },
    });
    expect((await get(`${BASE}/me`, bob.token)).body.data).toMatchObject({ id: bob.id, name: 'Bob Brown', tier: null });
  });
});

describe('credentials on /api/v1', () => {
  it('answers 401 in the OAuth form with WWW-Authenticate, without a token and with a bad one', async () => {
    for (const token of [null, 'not-a-token', `${admin.token}x`]) {
      const response = await get(BASE, token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    }
  });

  it('takes an API key as X-API-Key and as Bearer, at the premium rate, and refuses an unknown or revoked key', async () => {
    const created = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId: await platform.roleId('tenant') } });
    expect(created.status).toBe(201);
    const { id, apiKey } = created.body.data;
    const byHeader = await get(`${BASE}/${alice.id}`, null, { 'x-api-key': apiKey });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.data.id).toBe(alice.id);
    expect(byHeader.headers.get('x-ratelimit-limit')).toBe(String(platform.config.rateLimit.premiumPerHour));
    expect((await get(BASE, apiKey)).status).toBe(200);
    for (const headers of [{ 'x-api-key': `lpk_${'x'.repeat(40)}` }, { 'x-api-key': 'garbage' }]) {
      const refused = await get(BASE, null, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    expect((await platform.api('DELETE', `/auth/api/services/revoke/${id}`, { token: admin.token })).status).toBe(204);
    // A revoked key's exchange is reused for at most a minute: a fresh key text shows the refusal now.
    expect((await get(BASE, `${apiKey}0`)).status).toBe(401);
  });

  it('gives a key created with rateLimitPerHour its own limit (enterprise tier)', async () => {
    const generate = (body: Record<string, unknown>) =>
      platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId: adminRoleId, ...body } });
    const created = await generate({ rateLimitPerHour: 3 });
    expect(created.status).toBe(201);
    const stored = await platform.sql.query('select rate_limit_per_hour from auth.service_api_key where id = $1', [created.body.data.id]);
    expect(stored.rows).toEqual([{ rate_limit_per_hour: 3 }]);
    const seen = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await get(BASE, created.body.data.apiKey);
      seen.push([response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(response.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
      }
    }
    expect(seen).toEqual([[200, '3', '2'], [200, '3', '1'], [200, '3', '0'], [429, '3', '0']]);
    // A limit is a positive whole number.
    for (const rateLimitPerHour of [0, -5, 1.5, 'many']) {
      const bad = await generate({ rateLimitPerHour });
      expect([rateLimitPerHour, bad.status]).toEqual([rateLimitPerHour, 400]);
      expect(bad.body.data.errors.map((error: { field: string }) => error.field)).toEqual(['rateLimitPerHour']);
    }
  });

  it('gives a key the scopes it was created with: a key without read is refused 403 insufficient_scope', async () => {
    const generate = (scopes: unknown) =>
      platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId: adminRoleId, scopes } });
    const analyticsOnly = await generate(['analytics']);
    expect(analyticsOnly.status).toBe(201);
    const refused = await get(BASE, null, { 'x-api-key': analyticsOnly.body.data.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="read"');
    expect(refused.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
    const readKey = await generate(['read', 'analytics']);
    expect((await get(BASE, readKey.body.data.apiKey)).status).toBe(200);
    const stored = await platform.sql.query('select scopes from auth.service_api_key where id = any($1) order by created_at', [[analyticsOnly.body.data.id, readKey.body.data.id]]);
    expect(stored.rows.map((row) => row.scopes)).toEqual([['analytics'], ['read', 'analytics']]);
    for (const scopes of [['root'], [], ['read', 'owner']]) {
      const bad = await generate(scopes);
      expect([scopes, bad.status]).toEqual([scopes, 400]);
      expect(bad.body.data.errors.map((error: { field: string }) => error.field)).toEqual(['scopes']);
    }
  });

  it('answers an unknown v1 path in the v1 error body', async () => {
    const response = await get('/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });
});
