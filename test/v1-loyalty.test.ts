import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const BASE = '/api/v1/customers';
const SNAKE_KEY = /^[a-z0-9]+(_[a-z0-9]+)*$/;

const { platform, admin, tenant, members } = usePlatform({ staff: ['admin', 'tenant'], members: 3 });
const [alice, bob, carol] = [0, 1, 2].map((index) => ({ get id() { return members[index].id; }, get token() { return members[index].token; } }));
const entries: Record<'welcome' | 'purchase' | 'redemption', string> = { welcome: '', purchase: '', redemption: '' };
const expiresSoon = new Date(Date.now() + 10 * 24 * 3600 * 1000);
const expiresLater = new Date(Date.now() + 20 * 24 * 3600 * 1000);

beforeAll(async () => {
  const move = async (kind: 'earn' | 'spend', amount: number, note: string, memberId = alice.id) => {
    const response = await platform.api('POST', `/point/api/${kind}`, { token: admin.token, body: { memberId, amount, note } });
    if (response.status !== 200) throw new Error(`${kind} failed: ${JSON.stringify(response.body)}`);
    const { rows } = await platform.sql.query('select id from point.point_transaction where member_id = $1 and note = $2', [memberId, note]);
    return rows[0].id as string;
  };
  entries.welcome = await move('earn', 100, 'Welcome bonus');
  entries.purchase = await move('earn', 50.5, 'Purchase');
  entries.redemption = await move('spend', 30, 'Coffee voucher');
  // The ledger's dates and the lots' expiries, as months of use and an expiry policy would leave them.
  const dated: Array<[string, string]> = [
    [entries.welcome, '2026-01-10T08:00:00.123Z'],
    [entries.purchase, '2026-02-10T23:30:00.456Z'],
    [entries.redemption, '2026-03-10T08:00:00.789Z'],
  ];
  for (const [id, at] of dated) await platform.sql.query('update point.point_transaction set created_at = $2 where id = $1', [id, at]);
  await platform.sql.query('update point.point_lot set expires_at = $2 where transaction_id = $1', [entries.welcome, expiresSoon]);
  await platform.sql.query('update point.point_lot set expires_at = $2 where transaction_id = $1', [entries.purchase, expiresLater]);
  // Carol: a lot already due (whether or not the expiry job has run yet) and one expiring later.
  const due = await move('earn', 40, 'Old points', carol.id);
  const later = await move('earn', 25, 'New points', carol.id);
  await platform.sql.query('update point.point_lot set expires_at = $2 where transaction_id = $1', [due, new Date(Date.now() - 1000)]);
  await platform.sql.query('update point.point_lot set expires_at = $2 where transaction_id = $1', [later, expiresLater]);
});

const get = (path: string, token: string | null = admin.token, headers: Record<string, string> = {}) => platform.api('GET', path, { token: token ?? undefined, headers });
const v1Time = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');
const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((entry) => entry.id);
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => (body.error.details ?? []).map((detail) => detail.field).sort();

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
  return [];
}

describe('GET /api/v1/customers/{id}/points/balance', () => {
  it('answers the balance, the lifetime sums in whole points and the next points to expire', async () => {
    const response = await get(`${BASE}/${alice.id}/points/balance`);
    expect(response.status).toBe(200);
    // The redemption spent the oldest lot first: 70 of the welcome lot's 100 points expire first.
    expect(response.body).toEqual({
      data: { customer_id: alice.id, balance: 120, pending: 0, lifetime_earned: 150, lifetime_redeemed: 30, pending_expiration: { points: 70, expires_at: v1Time(expiresSoon) } },
    });
  });

  it('skips points already due to expire, and answers null when nothing will expire', async () => {
    const carols = await get(`${BASE}/${carol.id}/points/balance`);
    expect(carols.body).toEqual({
      data: { customer_id: carol.id, balance: 25, pending: 0, lifetime_earned: 65, lifetime_redeemed: 0, pending_expiration: { points: 25, expires_at: v1Time(expiresLater) } },
    });
    const bobs = await get(`${BASE}/${bob.id}/points/balance`);
    expect(bobs.body).toEqual({ data: { customer_id: bob.id, balance: 0, pending: 0, lifetime_earned: 0, lifetime_redeemed: 0, pending_expiration: null } });
  });

  it('lets a customer read its own balance and refuses it another customer (403 insufficient_scope)', async () => {
    const own = await get(`${BASE}/${alice.id}/points/balance`, alice.token);
    expect(own.status).toBe(200);
    expect(own.body.data.balance).toBe(120);
    const other = await get(`${BASE}/${alice.id}/points/balance`, bob.token);
    expect(other.status).toBe(403);
    expect(other.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="read"');
    expect(other.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown customer and for what is no id', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await get(`${BASE}/${id}/points/balance`);
      expect([id, response.status]).toEqual([id, 404]);
      expect(response.body).toEqual({ error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } });
    }
  });
});

describe('GET /api/v1/customers/{id}/points/history', () => {
  it('answers v1 points transactions, newest first, with the v1 pagination', async () => {
    const response = await get(`${BASE}/${alice.id}/points/history`);
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(response.body.data).toEqual([
      { id: entries.redemption, customer_id: alice.id, points: -30, type: 'redeemed', reason: 'Coffee voucher', balance_after: 120, created_at: '2026-03-10T08:00:00Z' },
      { id: entries.purchase, customer_id: alice.id, points: 50, type: 'earned', reason: 'Purchase', balance_after: 150, created_at: '2026-02-10T23:30:00Z' },
      { id: entries.welcome, customer_id: alice.id, points: 100, type: 'earned', reason: 'Welcome bonus', balance_after: 100, created_at: '2026-01-10T08:00:00Z' },
    ]);
    for (const key of keysOf(response.body)) expect(key).toMatch(SNAKE_KEY);
  });

  it('filters on type and on a date window (a bare date_to covers its whole day), and pages', async () => {
    const redeemed = await get(`${BASE}/${alice.id}/points/history?type=redeemed`);
    expect(idsOf(redeemed.body)).toEqual([entries.redemption]);
    expect(redeemed.body.pagination.total).toBe(1);
    expect(idsOf((await get(`${BASE}/${alice.id}/points/history?type=earned`)).body)).toEqual([entries.purchase, entries.welcome]);
    expect((await get(`${BASE}/${alice.id}/points/history?type=expired`)).body.data).toEqual([]);
    expect(idsOf((await get(`${BASE}/${alice.id}/points/history?date_from=2026-02-01&date_to=2026-02-10`)).body)).toEqual([entries.purchase]);
    expect(idsOf((await get(`${BASE}/${alice.id}/points/history?date_from=2026-01-10T08:00:01Z`)).body)).toEqual([entries.redemption, entries.purchase]);
    const second = await get(`${BASE}/${alice.id}/points/history?limit=1&page=2`);
    expect(idsOf(second.body)).toEqual([entries.purchase]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 3 });
  });

  it('reports every bad parameter at once, named as the caller spelled it', async () => {
    const response = await get(`${BASE}/${alice.id}/points/history?type=spent&date_from=yesterday&date_to=soon`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(response.body)).toEqual(['date_from', 'date_to', 'type']);
    for (const query of ['limit=101', 'page=0']) {
      const bad = await get(`${BASE}/${alice.id}/points/history?${query}`);
      expect([query, bad.status]).toEqual([query, 400]);
      expect(detailFields(bad.body)).toEqual([query.split('=')[0]]);
    }
  });

  it('confines a customer to its own history and answers 404 for an unknown customer', async () => {
    const own = await get(`${BASE}/${alice.id}/points/history`, alice.token);
    expect(own.status).toBe(200);
    expect(own.body.pagination.total).toBe(3);
    const other = await get(`${BASE}/${alice.id}/points/history`, bob.token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('insufficient_scope');
    expect((await get(`${BASE}/${bob.id}/points/history`, bob.token)).body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
    const unknown = await get(`${BASE}/${randomUUID()}/points/history`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
  });
});

describe('credentials on the loyalty routes', () => {
  it('answers 401 in the OAuth form without a token or with a bad one', async () => {
    for (const path of ['balance', 'history']) {
      for (const token of [null, 'not-a-token']) {
        const response = await get(`${BASE}/${alice.id}/points/${path}`, token);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
        expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
      }
    }
  });

  it('lets a read-only staff role and a read API key in, and refuses a key without read (403 insufficient_scope)', async () => {
    expect((await get(`${BASE}/${alice.id}/points/balance`, tenant.token)).status).toBe(200);
    const generate = async (scopes: string[]) => {
      const created = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId: await platform.roleId('admin'), scopes } });
      if (created.status !== 201) throw new Error(`key not created: ${JSON.stringify(created.body)}`);
      return created.body.data.apiKey as string;
    };
    const readKey = await generate(['read']);
    const byKey = await get(`${BASE}/${alice.id}/points/history?type=earned`, null, { 'x-api-key': readKey });
    expect(byKey.status).toBe(200);
    expect(byKey.body.pagination.total).toBe(2);
    const analyticsKey = await generate(['analytics']);
    for (const path of ['balance', 'history']) {
      const refused = await get(`${BASE}/${alice.id}/points/${path}`, analyticsKey);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="read"');
      expect(refused.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
    }
  });
});
