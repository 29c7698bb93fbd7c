import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
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
