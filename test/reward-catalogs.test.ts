import { randomUUID } from 'node:crypto';
import { IMAGES, png } from './support/images';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant, member } = usePlatform({ staff: ['marketing', 'tenant'], members: 1 });

const BASE = '/reward/api/reward-catalogs';
const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const PAST = { start: at(-30), end: at(-1) };
const CURRENT = { start: at(-1), end: at(30) };
const FUTURE = { start: at(10), end: at(40) };
const errorFields = (body: any) => [...new Set<string>((body.data.errors ?? []).map((error: { field: string }) => error.field))].sort();

/** A POINT reward (no condition needed) with the given stock and stores. */
async function createReward(fields: Record<string, unknown>): Promise<string> {
  const input = { name_en: unique('Catalog reward '), description_en: 'd', type: 'POINT', benefitValue: 10, ...fields };
  const created = await platform.graphql(`mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`, { input }, marketing.token);
  expect(created.body.errors).toBeUndefined();
  return created.body.data.createReward.id;
}
const catalogBody = (rewardId: string, overrides: Record<string, unknown> = {}) => ({
  name_en: unique('Catalog '),
  description_en: 'Swap points for a reward',
  rewardId,
  redeemRule: { pointUsage: 100, limitPerUser: 2 },
  ...overrides,
});
async function createCatalog(body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await platform.api('POST', BASE, { token: marketing.token, body });
  expect(response.status).toBe(201);
  return response.body.data;
}
const ids = (response: { body: any }) => response.body.data.data.map((catalog: { id: string }) => catalog.id);

describe('reward catalogs through REST (/reward/api/reward-catalogs)', () => {
  let stocked: string;
  beforeAll(async () => {
    stocked = await createReward({ stock: 5 });
  });

  it('POST (JSON) answers 201 with the catalog and a message; GET reads it without a token, with its status and stats', async () => {
    const body = catalogBody(stocked, {
      name_th: 'แคตตาล็อก',
      redeemRule: { pointUsage: 100.5, limitPerUser: 1 },
      quota: { type: 'month', numberInPeriod: 1, limitPerPeriod: 50 },
      window: CURRENT,
      tierCondition: 'INCLUDE',
      tierRequirement: ['gold', 'platinum'],
    });
    const response = await platform.api('POST', BASE, { token: marketing.token, body });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      statusCode: 201,
      message: 'Reward catalog created',
      data: {
        id: expect.any(String),
        name_en: body.name_en,
        name_th: 'แคตตาล็อก',
        name_cn: null,
        description_en: 'Swap points for a reward',
        description_th: null,
        description_cn: null,
        imageUrl: null,
        rewardId: stocked,
        redeemRule: { pointUsage: 100.5, limitPerUser: 1 },
        quota: { type: 'month', numberInPeriod: 1, limitPerPeriod: 50 },
        window: CURRENT,
        tierCondition: 'INCLUDE',
        tierRequirement: ['gold', 'platinum'],
        status: 'ACTIVE',
        isActive: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        deletedAt: null,
      },
    });
    const { id } = response.body.data;
    expect((await platform.sql.query('select point_usage::text from reward.reward_catalog where id = $1', [id])).rows[0]).toEqual({ point_usage: '100.50' });
    const read = await platform.api('GET', `${BASE}/${id}?includeStats=true`);
    expect(read.body).toEqual({ statusCode: 200, data: { ...response.body.data, stats: { redeemed: 0, used: 0, total: 5, remaining: 5 } } });
    const thai = await platform.api('GET', `${BASE}/${id}?locale=th`);
    expect(thai.body.data).toMatchObject({ name_en: null, name_th: 'แคตตาล็อก', description_en: null, description_th: 'Swap points for a reward' });
    expect(thai.body.data.stats).toBeUndefined();
  });

  it('POST takes multipart with objects and lists as JSON strings and an image', async () => {
    const form = new FormData();
    const fields = {
      name_en: unique('Form catalog '),
      rewardId: stocked,
      redeemRule: JSON.stringify({ pointUsage: '250', limitPerUser: '3' }),
      window: JSON.stringify(FUTURE),
      tierCondition: 'EXCLUDE',
      tierRequirement: JSON.stringify(['silver']),
      isActive: 'false',
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('image', png(), 'catalog.png');
    const response = await fetch(`${platform.restUrl}${BASE}`, { method: 'POST', headers: { authorization: `Bearer ${marketing.token}` }, body: form });
    const body = (await response.json()) as any;
    expect(response.status).toBe(201);
    expect(body.data).toMatchObject({
      name_en: fields.name_en,
      redeemRule: { pointUsage: 250, limitPerUser: 3 },
      quota: null,
      window: FUTURE,
      tierCondition: 'EXCLUDE',
      tierRequirement: ['silver'],
      status: 'UPCOMING',
      isActive: false,
      imageUrl: expect.stringMatching(/\/files\//),
    });
    const image = await fetch(`${platform.restUrl}${new URL(body.data.imageUrl).pathname}`);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(IMAGES.png);
  });

  it('answers 400 with the fields of every broken rule, and creates nothing', async () => {
    const name = unique('Refused catalog ');
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ rewardId: undefined, redeemRule: undefined, name_en: undefined }, ['name_en', 'redeemRule', 'rewardId']],
      [{ rewardId: 'not-a-uuid' }, ['rewardId']],
      [{ rewardId: randomUUID() }, ['rewardId']],
      [{ redeemRule: { pointUsage: -1, limitPerUser: 0 } }, ['redeemRule.limitPerUser', 'redeemRule.pointUsage']],
      [{ redeemRule: { pointUsage: 1.234 } }, ['redeemRule.pointUsage']],
      [{ quota: { type: 'fortnight', numberInPeriod: 0, limitPerPeriod: 1 } }, ['quota.numberInPeriod', 'quota.type']],
      [{ window: { start: CURRENT.end, end: CURRENT.start } }, ['window.end']],
      [{ window: { start: 'yesterday', end: CURRENT.end } }, ['window.start']],
      [{ tierCondition: 'INCLUDE' }, ['tierRequirement']],
      [{ tierRequirement: ['gold'] }, ['tierCondition']],
      [{ tierCondition: 'SOMETIMES', tierRequirement: ['gold'] }, ['tierCondition']],
    ];
    for (const [overrides, fields] of cases) {
      const response = await platform.api('POST', BASE, { token: marketing.token, body: catalogBody(stocked, { name_en: name, ...overrides }) });
      expect({ overrides, status: response.status, message: typeof response.body.data.message, fields: errorFields(response.body) }).toEqual({ overrides, status: 400, message: 'string', fields });
    }
    expect(Number((await platform.sql.query('select count(*) from reward.reward_catalog where name_en = $1', [name])).rows[0].count)).toBe(0);
  });

  it('refuses writes without reward:manage: 401 without a token, 403 for tenant staff and members', async () => {
    const catalog = await createCatalog(catalogBody(stocked));
    const writes: Array<['POST' | 'PUT' | 'PATCH' | 'DELETE', string, Record<string, unknown>]> = [
      ['POST', BASE, catalogBody(stocked)],
      ['PUT', `${BASE}/${catalog.id}`, { name_th: 'x' }],
      ['PATCH', `${BASE}/${catalog.id}/set-active`, { isActive: false }],
      ['DELETE', `${BASE}/${catalog.id}`, {}],
    ];
    for (const [method, path, body] of writes) {
      expect({ method, status: (await platform.api(method, path, { body })).status }).toEqual({ method, status: 401 });
      for (const token of [tenant.token, member.token]) {
        expect({ method, status: (await platform.api(method, path, { token, body })).status }).toEqual({ method, status: 403 });
      }
    }
    expect((await platform.api('GET', `${BASE}/${catalog.id}`)).body.data).toMatchObject({ isActive: true, deletedAt: null, name_th: null });
  });

  it('PUT changes the given fields and applies the rules to the result; set-active and DELETE (soft) answer with a message', async () => {
    const catalog = await createCatalog(catalogBody(stocked, { quota: { type: 'week', numberInPeriod: 2, limitPerPeriod: 10 }, window: CURRENT }));
    const updated = await platform.api('PUT', `${BASE}/${catalog.id}`, {
      token: marketing.token,
      body: { name_cn: '目录', redeemRule: { pointUsage: 80 }, quota: null, tierCondition: 'INCLUDE', tierRequirement: ['gold'] },
    });
    expect(updated.body).toEqual({
      statusCode: 200,
      message: 'Reward catalog updated',
      data: expect.objectContaining({
        name_en: catalog.name_en,
        name_cn: '目录',
        redeemRule: { pointUsage: 80, limitPerUser: null },
        quota: null,
        window: CURRENT,
        tierCondition: 'INCLUDE',
        tierRequirement: ['gold'],
      }),
    });
    for (const [body, fields] of [
      [{ name_en: null }, ['name_en']],
      [{ tierRequirement: [] }, ['tierRequirement']],
      [{ tierCondition: null }, ['tierCondition']],
      [{ window: { start: CURRENT.end, end: CURRENT.start } }, ['window.end']],
    ]) {
      const broken = await platform.api('PUT', `${BASE}/${catalog.id}`, { token: marketing.token, body });
      expect({ body, status: broken.status, fields: errorFields(broken.body) }).toEqual({ body, status: 400, fields });
    }
    expect((await platform.api('GET', `${BASE}/${catalog.id}`)).body.data).toMatchObject({ tierCondition: 'INCLUDE', tierRequirement: ['gold'], window: CURRENT });
    const unknown = await platform.api('PUT', `${BASE}/${randomUUID()}`, { token: marketing.token, body: { name_th: 'x' } });
    expect(unknown.body).toEqual({ statusCode: 404, data: { message: 'Reward catalog not found', data: { id: expect.any(String) } } });

    const setActive = await platform.api('PATCH', `${BASE}/${catalog.id}/set-active`, { token: marketing.token, body: { isActive: false } });
    expect(setActive.body).toEqual({ statusCode: 200, message: 'Reward catalog status updated', data: { id: catalog.id, isActive: false } });
    expect((await platform.api('PATCH', `${BASE}/${catalog.id}/set-active`, { token: marketing.token, body: {} })).status).toBe(400);
    const removal = await platform.api('DELETE', `${BASE}/${catalog.id}`, { token: marketing.token });
    expect(removal.body).toEqual({ statusCode: 200, message: 'Reward catalog deleted', data: { id: catalog.id } });
    expect((await platform.api('GET', `${BASE}/${catalog.id}`)).status).toBe(404);
    expect((await platform.api('DELETE', `${BASE}/${catalog.id}`, { token: marketing.token })).status).toBe(404);
    expect((await platform.sql.query('select deleted_at from reward.reward_catalog where id = $1', [catalog.id])).rows[0].deleted_at).toBeInstanceOf(Date);
  });
});

describe('the reward catalog list (GET /reward-catalogs): every filter', () => {
  const tag = unique('Filtered');
  const store = unique('store-');
  const catalogs: Record<string, string> = {};
  beforeAll(async () => {
    const stocked = await createReward({ stock: 3, storeIds: [store] });
    const elsewhere = await createReward({ stock: 3, storeIds: ['another-store'] });
    const empty = await createReward({ stock: 0 });
    const infinite = await createReward({ stockType: 'INFINITE' });
    const make = async (key: string, rewardId: string, overrides: Record<string, unknown>) => {
      catalogs[key] = (await createCatalog(catalogBody(rewardId, { name_en: `${tag} ${key}`, ...overrides }))).id;
    };
    // Created in this order: newest first is the reverse.
    await make('active', stocked, { redeemRule: { pointUsage: 100 }, window: CURRENT, tierCondition: 'INCLUDE', tierRequirement: ['gold', 'vip'] });
    await make('upcoming', elsewhere, { redeemRule: { pointUsage: 50.5 }, window: FUTURE });
    await make('expired', stocked, { redeemRule: { pointUsage: 300 }, window: PAST, tierCondition: 'EXCLUDE', tierRequirement: ['silver'] });
    await make('outOfStock', empty, { redeemRule: { pointUsage: 10 }, description_en: `Sold out ${tag}-desc` });
    await make('infinite', infinite, { redeemRule: { pointUsage: 200 } });
    await make('inactive', stocked, { redeemRule: { pointUsage: 75 }, isActive: false });
    await make('deleted', stocked, { redeemRule: { pointUsage: 60 } });
    expect((await platform.api('DELETE', `${BASE}/${catalogs.deleted}`, { token: marketing.token })).status).toBe(200);
  });
  const keys = async (query: string) => {
    const response = await platform.api('GET', `${BASE}?search=${encodeURIComponent(tag)}&${query}`);
    expect(response.status).toBe(200);
    return ids(response).map((id: string) => Object.keys(catalogs).find((key) => catalogs[key] === id));
  };

  it('lists live active catalogs newest first, paginated directly in data; inactive and deleted ones only when asked', async () => {
    expect(await keys('')).toEqual(['infinite', 'outOfStock', 'expired', 'upcoming', 'active']);
    expect(await keys('includeInActive=true')).toEqual(['inactive', 'infinite', 'outOfStock', 'expired', 'upcoming', 'active']);
    expect(await keys('includeInActive=true&includeDeletedAt=true')).toEqual(['deleted', 'inactive', 'infinite', 'outOfStock', 'expired', 'upcoming', 'active']);
    const page = await platform.api('GET', `${BASE}?search=${encodeURIComponent(tag)}&limit=2&page=3`);
    expect(page.body).toEqual({ statusCode: 200, data: { meta: { page: 3, limit: 2, total: 5, totalPages: 3 }, data: [expect.objectContaining({ id: catalogs.active })] } });
  });

  it('derives the status from the window and the reward stock, in the list filter and in the field alike', async () => {
    expect(await keys('status=ACTIVE')).toEqual(['infinite', 'active']);
    expect(await keys('status=UPCOMING')).toEqual(['upcoming']);
    expect(await keys('status=EXPIRED')).toEqual(['expired']);
    expect(await keys('status=OUT_OF_STOCK')).toEqual(['outOfStock']);
    const listed = (await platform.api('GET', `${BASE}?search=${encodeURIComponent(tag)}&includeStats=true`)).body.data.data;
    const byKey = Object.fromEntries(listed.map((catalog: any) => [Object.keys(catalogs).find((key) => catalogs[key] === catalog.id), catalog]));
    expect(Object.fromEntries(Object.entries(byKey).map(([key, catalog]: [string, any]) => [key, catalog.status]))).toEqual({
      active: 'ACTIVE',
      upcoming: 'UPCOMING',
      expired: 'EXPIRED',
      outOfStock: 'OUT_OF_STOCK',
      infinite: 'ACTIVE',
    });
    expect(byKey.infinite.stats).toEqual({ redeemed: 0, used: 0, total: null, remaining: null });
    expect(byKey.outOfStock.stats).toEqual({ redeemed: 0, used: 0, total: 0, remaining: 0 });
  });

  it('filters by advancedRules, tier condition and tiers, point usage, window range and stores, combined with AND', async () => {
    expect(await keys('advancedRules=CUSTOM')).toEqual(['expired', 'active']);
    expect(await keys('advancedRules=ALL')).toEqual(['infinite', 'outOfStock', 'upcoming']);
    expect(await keys('tierCondition=EXCLUDE')).toEqual(['expired']);
    expect(await keys('tierRequirementIds=vip,silver')).toEqual(['expired', 'active']);
    expect(await keys('tierRequirementIds=gold&tierCondition=EXCLUDE')).toEqual([]);
    expect(await keys('pointUsageMin=50.5&pointUsageMax=200')).toEqual(['infinite', 'upcoming', 'active']);
    expect(await keys('pointUsageMin=201')).toEqual(['expired']);
    expect(await keys('pointUsageMax=10')).toEqual(['outOfStock']);
    // Windows reaching into the range; catalogs without a window are always in it.
    expect(await keys(`dateRangeStart=${at(5)}&dateRangeEnd=${at(8)}`)).toEqual(['infinite', 'outOfStock', 'active']);
    expect(await keys(`dateRangeEnd=${at(-2)}`)).toEqual(['infinite', 'outOfStock', 'expired']);
    expect(await keys(`dateRangeStart=${at(35)}`)).toEqual(['infinite', 'outOfStock', 'upcoming']);
    // The reward's stores; a reward without stores is valid at every store.
    expect(await keys(`storeIds=${store},nowhere`)).toEqual(['infinite', 'outOfStock', 'expired', 'active']);
    expect(await keys(`storeIds=another-store`)).toEqual(['infinite', 'outOfStock', 'upcoming']);
  });

  it('sorts by createdAt or pointUsage in either order, and searches descriptions too', async () => {
    expect(await keys('sortBy=createdAt&sortOrder=asc')).toEqual(['active', 'upcoming', 'expired', 'outOfStock', 'infinite']);
    expect(await keys('sortBy=pointUsage&sortOrder=asc')).toEqual(['outOfStock', 'upcoming', 'active', 'infinite', 'expired']);
    expect(await keys('sortBy=pointUsage')).toEqual(['expired', 'infinite', 'active', 'upcoming', 'outOfStock']);
    const described = await platform.api('GET', `${BASE}?search=${encodeURIComponent(`${tag}-desc`)}`);
    expect(ids(described)).toEqual([catalogs.outOfStock]);
  });

  it('projects the locale in lists', async () => {
    const listed = (await platform.api('GET', `${BASE}?search=${encodeURIComponent(tag)}&locale=cn&status=OUT_OF_STOCK`)).body.data.data;
    expect(listed[0]).toMatchObject({ name_en: null, name_th: null, name_cn: `${tag} outOfStock`, description_cn: `Sold out ${tag}-desc` });
  });

  it('answers 400 with the field for a bad query value', async () => {
    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['status=SOLD', 'status'],
      ['advancedRules=SOME', 'advancedRules'],
      ['sortBy=name', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['pointUsageMin=-1', 'pointUsageMin'],
      ['pointUsageMin=10&pointUsageMax=5', 'pointUsageMax'],
      ['dateRangeStart=soon', 'dateRangeStart'],
      [`dateRangeStart=${at(2)}&dateRangeEnd=${at(1)}`, 'dateRangeEnd'],
      ['tierCondition=MAYBE', 'tierCondition'],
      ['locale=fr', 'locale'],
    ]) {
      const refused = await platform.api('GET', `${BASE}?${query}`);
      expect({ query, status: refused.status, fields: errorFields(refused.body) }).toEqual({ query, status: 400, fields: [field] });
    }
  });
});

describe('reward catalogs through GraphQL', () => {
  const FIELDS = 'id name_en rewardId redeemRule { pointUsage limitPerUser } quota { type numberInPeriod limitPerPeriod } status isActive stats { redeemed remaining }';
  const CREATE = `mutation ($input: CreateRewardCatalogInput!) { createRewardCatalog(input: $input) { ${FIELDS} } }`;

  it('creates with reward:manage, refuses others, and filters by status and tiers', async () => {
    const rewardId = await createReward({ stock: 0 });
    const input = { ...catalogBody(rewardId), quota: { type: 'day', numberInPeriod: 1, limitPerPeriod: 5 }, tierCondition: 'INCLUDE', tierRequirement: [unique('tier-')] };
    const anonymous = await platform.graphql(CREATE, { input });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    for (const token of [tenant.token, member.token]) expect((await platform.graphql(CREATE, { input }, token)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const created = await platform.graphql(CREATE, { input }, marketing.token);
    expect(created.body.data.createRewardCatalog).toEqual({
      id: expect.any(String),
      name_en: input.name_en,
      rewardId,
      redeemRule: { pointUsage: 100, limitPerUser: 2 },
      quota: { type: 'day', numberInPeriod: 1, limitPerPeriod: 5 },
      status: 'OUT_OF_STOCK',
      isActive: true,
      stats: { redeemed: 0, remaining: 0 },
    });
    const list = `query ($tiers: [String!], $status: RewardCatalogStatus) { rewardCatalogs(tierRequirementIds: $tiers, status: $status) { meta { total } data { id } } }`;
    const found = await platform.graphql(list, { tiers: input.tierRequirement, status: 'OUT_OF_STOCK' });
    expect(found.body.data.rewardCatalogs).toEqual({ meta: { total: 1 }, data: [{ id: created.body.data.createRewardCatalog.id }] });
    const none = await platform.graphql(list, { tiers: input.tierRequirement, status: 'ACTIVE' });
    expect(none.body.data.rewardCatalogs.meta.total).toBe(0);
    const invalid = await platform.graphql(CREATE, { input: { ...input, tierRequirement: [] } }, marketing.token);
    expect(invalid.body.errors[0].extensions.code).toBe('VALIDATION');
  });

  it('a deleted reward leaves its catalogs out of stock', async () => {
    const rewardId = await createReward({ stock: 4 });
    const created = await platform.graphql(CREATE, { input: catalogBody(rewardId) }, marketing.token);
    const { id } = created.body.data.createRewardCatalog;
    expect(created.body.data.createRewardCatalog.status).toBe('ACTIVE');
    await platform.graphql(`mutation ($id: ID!) { deleteReward(id: $id) { id } }`, { id: rewardId }, marketing.token);
    const read = await platform.graphql(`query ($id: ID!) { rewardCatalog(id: $id) { status stats { remaining } } }`, { id });
    expect(read.body.data.rewardCatalog).toEqual({ status: 'OUT_OF_STOCK', stats: { remaining: 0 } });
  });
});
