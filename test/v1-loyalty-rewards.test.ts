import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { redemptionTestHooks } from '../subgraphs/reward/services/redemption-test-hooks';
import { usePlatform } from './support/use-platform';

/** Tiers of this file: special (automatic tiering leaves them alone), at levels far from other files', deleted at the end. */
const fixtureTiers: string[] = [];
const { platform, admin, marketing, tenant, members } = usePlatform({
  staff: ['admin', 'marketing', 'tenant'],
  members: 2,
  beforeClose: async (running) => {
    await running.sql.query('update cluster.tier set deleted_at = now() where id = any($1) and deleted_at is null', [fixtureTiers]);
  },
});
const [alice, bob] = [0, 1].map((index) => ({ get id() { return members[index].id; }, get token() { return members[index].token; } }));

const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const get = (path: string, token: string = admin.token) => platform.api('GET', path, { token });
const post = (path: string, body: unknown, token: string = admin.token, headers: Record<string, string> = {}) => platform.api('POST', path, { token, body, headers });
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => (body.error.details ?? []).map((detail) => detail.field).sort();

let nextLevel = 700_000_001 + Math.floor(Math.random() * 10_000_000) * 2;
async function createTier(name: string, purchaseAmountHit: number, benefits: string[] = []): Promise<{ id: string; level: number }> {
  const id = randomUUID();
  const level = (nextLevel += 2);
  await platform.sql.query(
    `insert into cluster.tier (id, name_en, description_en, level, requirement, benefit, is_active, is_special, created_at, updated_at)
     values ($1, $2, 'fixture', $3, $4, $5, true, true, now(), now())`,
    [id, name, level, JSON.stringify({ purchaseAmountHit }), JSON.stringify(benefits.map((benefit) => ({ name_en: benefit }))), ],
  );
  fixtureTiers.push(id);
  return { id, level };
}

async function createReward(type: string, stock: number, stockType = 'LIMITED'): Promise<string> {
  const input = { name_en: unique('Reward '), description_en: 'd', type, benefitValue: 10, stock, stockType, imageUrl: 'https://cdn.example.com/reward.png', ...(type === 'VOUCHER' || type === 'PRODUCT' ? { discountType: 'AMOUNT', condition: { minimumSpend: 0, timeUseWithIn: 30, window: { start: at(-1), end: at(60) } } } : {}) };
  const created = await platform.graphql(`mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`, { input }, marketing.token);
  if (created.body.errors) throw new Error(JSON.stringify(created.body.errors));
  return created.body.data.createReward.id;
}

async function createCatalog(overrides: Record<string, unknown> = {}, reward: { type?: string; stock?: number; stockType?: string } = {}): Promise<{ id: string; rewardId: string; name: string }> {
  const rewardId = await createReward(reward.type ?? 'POINT', reward.stock ?? 10, reward.stockType);
  const name = unique('Catalog ');
  const response = await platform.api('POST', '/reward/api/reward-catalogs', {
    token: marketing.token,
    body: { name_en: name, description_en: 'What it is', rewardId, redeemRule: { pointUsage: 100 }, ...overrides },
  });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return { id: response.body.data.id, rewardId, name };
}

describe('GET /api/v1/tiers', () => {
  it('lists tiers as v1 tiers and reads one (404 TIER_NOT_FOUND otherwise); customers may read them', async () => {
    const gold = await createTier(unique('Gold '), 5000, ['Free coffee', 'Priority line']);
    const list = await get('/api/v1/tiers?limit=100', alice.token);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 100, total: expect.any(Number) });
    const listed = list.body.data.find((tier: { id: string }) => tier.id === gold.id);
    const expected = { id: gold.id, name: expect.stringMatching(/^Gold /), level: gold.level, points_threshold: 5000, benefits: ['Free coffee', 'Priority line'] };
    expect(listed).toEqual(expected);
    const one = await get(`/api/v1/tiers/${gold.id}`, alice.token);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: expected });
    for (const id of [randomUUID(), 'no-such-tier']) {
      const missing = await get(`/api/v1/tiers/${id}`);
      expect([id, missing.status, missing.body.error.code]).toEqual([id, 404, 'TIER_NOT_FOUND']);
    }
  });
});

describe('GET /api/v1/rewards', () => {
  it('answers a reward catalog as a v1 reward, by id, to staff and customers', async () => {
    const silver = await createTier(unique('Silver '), 1000);
    const platinum = await createTier(unique('Platinum '), 9000);
    const catalog = await createCatalog({ tierCondition: 'INCLUDE', tierRequirement: [platinum.id, silver.id], redeemRule: { pointUsage: 250 } }, { type: 'VOUCHER', stock: 7 });
    const expected = {
      id: catalog.id,
      name: catalog.name,
      description: 'What it is',
      category: 'voucher',
      points_required: 250,
      tier_required: expect.stringMatching(/^Silver /),
      image: 'https://cdn.example.com/reward.png',
      available: true,
      stock: 7,
    };
    for (const token of [admin.token, tenant.token, alice.token]) {
      const response = await get(`/api/v1/rewards/${catalog.id}`, token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: expected });
    }
    for (const id of [randomUUID(), 'nothing']) {
      const missing = await get(`/api/v1/rewards/${id}`);
      expect([id, missing.status, missing.body.error.code]).toEqual([id, 404, 'REWARD_NOT_FOUND']);
    }
  });

  it('filters on category, tier, points and availability, and pages', async () => {
    const bronze = await createTier(unique('Bronze '), 10);
    const tag = unique('f');
    const cheap = await createCatalog({ name_en: `${tag} cheap`, redeemRule: { pointUsage: 50 } }, { type: 'PRODUCT' });
    const dear = await createCatalog({ name_en: `${tag} dear`, redeemRule: { pointUsage: 900 }, tierCondition: 'INCLUDE', tierRequirement: [bronze.id] }, { type: 'PRODUCT' });
    const excluded = await createCatalog({ name_en: `${tag} excluded`, redeemRule: { pointUsage: 60 }, tierCondition: 'EXCLUDE', tierRequirement: [bronze.id] }, { type: 'PRODUCT' });
    const empty = await createCatalog({ name_en: `${tag} empty`, redeemRule: { pointUsage: 70 } }, { type: 'PRODUCT', stock: 0 });
    const later = await createCatalog({ name_en: `${tag} later`, redeemRule: { pointUsage: 80 }, window: { start: at(5), end: at(10) } }, { type: 'PRODUCT', stockType: 'INFINITE' });
    const ids = async (query: string) => {
      const response = await get(`/api/v1/rewards?category=product&limit=100&${query}`);
      expect([query, response.status]).toEqual([query, 200]);
      const mine = new Set([cheap.id, dear.id, excluded.id, empty.id, later.id]);
      return response.body.data.filter((reward: { id: string }) => mine.has(reward.id)).map((reward: { id: string }) => reward.id).sort();
    };
    expect(await ids('')).toEqual([cheap.id, dear.id, excluded.id, empty.id, later.id].sort());
    expect(await ids(`tier=${bronze.id}`)).toEqual([cheap.id, dear.id, empty.id, later.id].sort());
    expect(await ids('points_min=60&points_max=80')).toEqual([excluded.id, empty.id, later.id].sort());
    expect(await ids('available=true')).toEqual([cheap.id, dear.id, excluded.id].sort());
    expect(await ids('available=false')).toEqual([empty.id, later.id].sort());
    expect((await get(`/api/v1/rewards?category=voucher&limit=100`)).body.data.map((reward: { id: string }) => reward.id)).not.toContain(cheap.id);
    const laterOne = (await get(`/api/v1/rewards/${later.id}`)).body.data;
    expect([laterOne.available, laterOne.stock]).toEqual([false, null]);
    const page = await get('/api/v1/rewards?category=product&limit=2&page=2');
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: expect.any(Number) });
    expect(page.body.data).toHaveLength(2);
  });

  it('reports every bad parameter at once', async () => {
    const response = await get('/api/v1/rewards?category=food&points_min=1.5&points_max=x&available=yes&limit=500');
    expect(response.status).toBe(400);
    expect(detailFields(response.body)).toEqual(['available', 'category', 'points_max', 'points_min']);
    expect(detailFields((await get('/api/v1/rewards?points_min=10&points_max=5')).body)).toEqual(['points_max']);
    expect(detailFields((await get('/api/v1/rewards?limit=500')).body)).toEqual(['limit']);
  });
});

/** A customer straight in the auth schema holding `points` (awarded through v1). */
async function customerWith(points: number): Promise<string> {
  const id = randomUUID();
  await platform.sql.query(`insert into auth.member (id, name, status, created_at, updated_at) values ($1, 'Claimer', 'ACTIVE', now(), now())`, [id]);
  if (points > 0) {
    const awarded = await post(`/api/v1/customers/${id}/points/award`, { points, reason: 'Start' });
    if (awarded.status !== 200) throw new Error(JSON.stringify(awarded.body));
  }
  return id;
}
const balanceOf = async (customerId: string) => (await get(`/api/v1/customers/${customerId}/points/balance`)).body.data.balance as number;
const stockOf = async (rewardId: string) => (await platform.sql.query('select stock from reward.reward where id = $1', [rewardId])).rows[0].stock as number;
const claim = (customerId: string, body: Record<string, unknown>, token: string = admin.token, headers: Record<string, string> = {}) => post(`/api/v1/customers/${customerId}/rewards/claim`, body, token, headers);
const CLAIM = {
  id: expect.any(String),
  voucher_code: expect.stringMatching(/^[2-9A-Z]{6}$/),
  qr_code: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
  status: 'available',
  expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
  created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
};

describe('POST /api/v1/customers/{id}/rewards/claim and /points/redeem', () => {
  it('lets a customer claim for itself: the claim, its points spent and its unit of stock taken', async () => {
    const catalog = await createCatalog({ redeemRule: { pointUsage: 100 } }, { stock: 5 });
    await post(`/api/v1/customers/${alice.id}/points/award`, { points: 250 });
    const before = await balanceOf(alice.id);
    const response = await claim(alice.id, { reward_id: catalog.id }, alice.token);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ data: { ...CLAIM, customer_id: alice.id, reward_id: catalog.id } });
    expect(await balanceOf(alice.id)).toBe(before - 100);
    expect(await stockOf(catalog.rewardId)).toBe(4);
    const other = await claim(alice.id, { reward_id: catalog.id }, bob.token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('insufficient_scope');
    expect((await claim(alice.id, { reward_id: catalog.id }, tenant.token)).status).toBe(403);
  });

  it('claims a quantity at once: that many claims, quantity × the price in one ledger entry', async () => {
    const catalog = await createCatalog({ redeemRule: { pointUsage: 40 } }, { stock: 10 });
    const customer = await customerWith(200);
    const response = await claim(customer, { reward_id: catalog.id, quantity: 3 });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual([0, 1, 2].map(() => ({ ...CLAIM, customer_id: customer, reward_id: catalog.id })));
    expect(new Set(response.body.data.map((item: { voucher_code: string }) => item.voucher_code)).size).toBe(3);
    expect(await balanceOf(customer)).toBe(80);
    expect(await stockOf(catalog.rewardId)).toBe(7);
    const history = (await get(`/api/v1/customers/${customer}/points/history?type=redeemed`)).body;
    expect(history.data.map((entry: { points: number }) => entry.points)).toEqual([-120]);
    const claimedEvents = await platform.sql.query(`select count(*)::int as n from reward.outbox_event where type = 'reward.claimed' and aggregate_id = $1`, [customer]);
    expect(claimedEvents.rows[0].n).toBe(3);
  });

  it('redeems through /points/redeem, answering what was spent and the claims', async () => {
    const catalog = await createCatalog({ redeemRule: { pointUsage: 30 } }, { stock: 10 });
    const customer = await customerWith(100);
    const response = await post(`/api/v1/customers/${customer}/points/redeem`, { reward_id: catalog.id, quantity: 2 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        customer_id: customer,
        reward_id: catalog.id,
        quantity: 2,
        points_redeemed: 60,
        transaction_id: expect.any(String),
        claims: [0, 1].map(() => ({ ...CLAIM, customer_id: customer, reward_id: catalog.id })),
      },
    });
    const history = (await get(`/api/v1/customers/${customer}/points/history?type=redeemed`)).body;
    expect(history.data[0]).toEqual(expect.objectContaining({ id: response.body.data.transaction_id, points: -60, balance_after: 40 }));
  });

  it('answers the business rules as 422: all or none', async () => {
    const few = await createCatalog({ redeemRule: { pointUsage: 10 } }, { stock: 2 });
    const customer = await customerWith(100);
    const outOfStock = await claim(customer, { reward_id: few.id, quantity: 3 });
    expect(outOfStock.status).toBe(422);
    expect(outOfStock.body).toEqual({ error: { code: 'OUT_OF_STOCK', message: expect.any(String) } });
    expect(await stockOf(few.rewardId)).toBe(2);
    const dear = await createCatalog({ redeemRule: { pointUsage: 60 } }, { stock: 10 });
    const poor = await claim(customer, { reward_id: dear.id, quantity: 2 });
    expect(poor.status).toBe(422);
    expect(poor.body.error.code).toBe('INSUFFICIENT_POINTS');
    expect(await balanceOf(customer)).toBe(100);
    expect(await stockOf(dear.rewardId)).toBe(10);
    const gold = await createTier(unique('Gold '), 99999);
    const exclusive = await createCatalog({ redeemRule: { pointUsage: 1 }, tierCondition: 'INCLUDE', tierRequirement: [gold.id] });
    expect((await claim(customer, { reward_id: exclusive.id })).body.error.code).toBe('NOT_ELIGIBLE');
    const limited = await createCatalog({ redeemRule: { pointUsage: 1, limitPerUser: 2 } });
    const overLimit = await claim(customer, { reward_id: limited.id, quantity: 3 });
    expect([overLimit.status, overLimit.body.error.code]).toEqual([422, 'NOT_ELIGIBLE']);
    expect((await claim(customer, { reward_id: limited.id, quantity: 2 })).status).toBe(201);
  });

  it('answers 404 for an unknown reward or customer, and 400 for a bad body', async () => {
    const catalog = await createCatalog();
    const customer = await customerWith(0);
    const noReward = await claim(customer, { reward_id: randomUUID() });
    expect([noReward.status, noReward.body.error.code]).toEqual([404, 'REWARD_NOT_FOUND']);
    for (const id of [randomUUID(), 'nobody']) {
      const noCustomer = await claim(id, { reward_id: catalog.id });
      expect([id, noCustomer.status, noCustomer.body.error.code]).toEqual([id, 404, 'CUSTOMER_NOT_FOUND']);
    }
    const bad = await claim(customer, { quantity: 1.5 });
    expect([bad.status, detailFields(bad.body)]).toEqual([400, ['quantity', 'reward_id']]);
    for (const quantity of [0, 101]) {
      const wrong = await claim(customer, { reward_id: catalog.id, quantity });
      expect([quantity, wrong.status, detailFields(wrong.body)]).toEqual([quantity, 400, ['quantity']]);
    }
  });

  it('answers a repeated Idempotency-Key with the same claims, once, and 409 for another body', async () => {
    const catalog = await createCatalog({ redeemRule: { pointUsage: 10 } }, { stock: 20 });
    const customer = await customerWith(100);
    const key = unique('claim');
    const [first, twin] = await Promise.all([0, 1].map(() => claim(customer, { reward_id: catalog.id, quantity: 2 }, admin.token, { 'Idempotency-Key': key })));
    const again = await claim(customer, { reward_id: catalog.id, quantity: 2 }, admin.token, { 'Idempotency-Key': key });
    expect([first.status, twin.status, again.status]).toEqual([201, 201, 201]);
    expect(twin.body).toEqual(first.body);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(customer)).toBe(80);
    expect(await stockOf(catalog.rewardId)).toBe(18);
    const other = await claim(customer, { reward_id: catalog.id, quantity: 3 }, admin.token, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
  });
});

describe('a claim of several units that dies on the way', () => {
  afterEach(() => redemptionTestHooks.clear());

  for (const step of ['reserved', 'spent'] as const) {
    it(`is finished by a repeat of its Idempotency-Key after dying once ${step}: the units, points and codes once`, async () => {
      const catalog = await createCatalog({ redeemRule: { pointUsage: 25 } }, { stock: 6 });
      const customer = await customerWith(100);
      const key = unique('crash');
      redemptionTestHooks.once(step, async () => {
        throw new Error(`simulated crash after step ${step}`);
      });
      const died = await claim(customer, { reward_id: catalog.id, quantity: 3 }, admin.token, { 'Idempotency-Key': key });
      expect(died.status).toBe(500);
      expect(died.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
      const repeated = await claim(customer, { reward_id: catalog.id, quantity: 3 }, admin.token, { 'Idempotency-Key': key });
      expect(repeated.status).toBe(201);
      expect(repeated.body.data).toHaveLength(3);
      expect(await balanceOf(customer)).toBe(25);
      expect(await stockOf(catalog.rewardId)).toBe(3);
      const codes = await platform.sql.query('select count(*)::int as n from reward.reward_code where member_id = $1', [customer]);
      expect(codes.rows[0].n).toBe(3);
      expect((await claim(customer, { reward_id: catalog.id, quantity: 3 }, admin.token, { 'Idempotency-Key': key })).body).toEqual(repeated.body);
    });
  }
});

describe('GET /api/v1/customers/{id}/rewards', () => {
  it("lists a customer's claims, filtered by status, to staff and to the customer", async () => {
    const catalog = await createCatalog({ redeemRule: { pointUsage: 5 } });
    await post(`/api/v1/customers/${bob.id}/points/award`, { points: 50 });
    const claimed = (await claim(bob.id, { reward_id: catalog.id, quantity: 3 })).body.data as Array<{ id: string }>;
    await platform.sql.query(`update reward.reward_code set used_at = now(), staff_id = 'staff' where id = $1`, [claimed[0].id]);
    await platform.sql.query(`update reward.reward_code set expired_at = now() - interval '1 day' where id = $1`, [claimed[1].id]);
    const all = await get(`/api/v1/customers/${bob.id}/rewards`, bob.token);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(all.body.data.map((item: { id: string }) => item.id).sort()).toEqual(claimed.map((item) => item.id).sort());
    const statusOf = async (status: string) => (await get(`/api/v1/customers/${bob.id}/rewards?status=${status}`)).body.data.map((item: { id: string; status: string }) => [item.id, item.status]);
    expect(await statusOf('used')).toEqual([[claimed[0].id, 'used']]);
    expect(await statusOf('expired')).toEqual([[claimed[1].id, 'expired']]);
    expect(await statusOf('available')).toEqual([[claimed[2].id, 'available']]);
    expect((await get(`/api/v1/customers/${bob.id}/rewards`, alice.token)).status).toBe(403);
    // Tenant staff hold `read` and reward:read (contract section 2).
    const byTenant = await get(`/api/v1/customers/${bob.id}/rewards`, tenant.token);
    expect(byTenant.status).toBe(200);
    expect(byTenant.body.data).toEqual(all.body.data);
    const bad = await get(`/api/v1/customers/${bob.id}/rewards?status=lost`);
    expect([bad.status, detailFields(bad.body)]).toEqual([400, ['status']]);
    const unknown = await get(`/api/v1/customers/${randomUUID()}/rewards`);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'CUSTOMER_NOT_FOUND']);
  });
});
