import { randomUUID } from 'node:crypto';
import { IMAGES, png } from './support/images';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant, member } = usePlatform({ staff: ['marketing', 'tenant'], members: 1 });

const REWARD_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type discountType benefitValue imageUrl
  stock stockType stockInfinite rewardCatalogId storeIds isActive createdAt updatedAt deletedAt
  condition { minimumSpend timeUseWithIn window { start end } } stats { redeemed used total remaining }`;
const CREATE = `mutation ($input: CreateRewardInput!) { createReward(input: $input) { ${REWARD_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateRewardInput!) { updateReward(id: $id, input: $input) { ${REWARD_FIELDS} } }`;
const READ = `query ($id: ID!, $locale: Locale) { reward(id: $id, locale: $locale) { ${REWARD_FIELDS} } }`;
const WINDOW = { start: '2027-01-01T00:00:00.000Z', end: '2027-12-31T23:59:59.000Z' };
const voucher = (overrides: Record<string, unknown> = {}) => ({
  name_en: unique('Voucher '),
  description_en: '10% off',
  type: 'VOUCHER',
  discountType: 'PERCENTAGE',
  benefitValue: 10,
  stock: 5,
  condition: { minimumSpend: 250.5, timeUseWithIn: 30, window: WINDOW },
  ...overrides,
});
const fieldsOf = (body: any) => [...new Set<string>((body.errors?.[0]?.extensions?.errors ?? []).map((error: { field: string }) => error.field))].sort();

describe('rewards through GraphQL', () => {
  it('creates a voucher with reward:manage, exact amounts, and reads it back without a token', async () => {
    const input = voucher({ name_th: 'บัตรกำนัล', storeIds: ['shop-1', 'shop-2'], benefitValue: 12.5 });
    const created = await platform.graphql(CREATE, { input }, marketing.token);
    expect(created.body.errors).toBeUndefined();
    const reward = created.body.data.createReward;
    expect(reward).toEqual({
      id: expect.any(String),
      name_en: input.name_en,
      name_th: 'บัตรกำนัล',
      name_cn: null,
      description_en: '10% off',
      description_th: null,
      description_cn: null,
      type: 'VOUCHER',
      discountType: 'PERCENTAGE',
      benefitValue: 12.5,
      imageUrl: null,
      stock: 5,
      stockType: 'LIMITED',
      stockInfinite: false,
      rewardCatalogId: null,
      storeIds: ['shop-1', 'shop-2'],
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deletedAt: null,
      condition: { minimumSpend: 250.5, timeUseWithIn: 30, window: WINDOW },
      stats: { redeemed: 0, used: 0, total: 5, remaining: 5 },
    });
    const row = (await platform.sql.query('select benefit_value::text, minimum_spend::text, store_ids from reward.reward where id = $1', [reward.id])).rows[0];
    expect(row).toEqual({ benefit_value: '12.50', minimum_spend: '250.50', store_ids: ['shop-1', 'shop-2'] });
    const read = await platform.graphql(READ, { id: reward.id, locale: 'th' });
    expect(read.body.data.reward).toMatchObject({ id: reward.id, name_en: null, name_th: 'บัตรกำนัล', description_th: '10% off' });
  });

  it('refuses callers without reward:manage: 401 without a token, 403 for tenant staff and members', async () => {
    const anonymous = await platform.graphql(CREATE, { input: voucher() });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    for (const token of [tenant.token, member.token]) {
      const refused = await platform.graphql(CREATE, { input: voucher() }, token);
      expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });

  it('applies the rules between fields to creates and to the result of updates', async () => {
    const bare = await platform.graphql(CREATE, { input: { name_en: 'x', description_en: 'y', type: 'VOUCHER' } }, marketing.token);
    expect(bare.body.errors[0].extensions.code).toBe('VALIDATION');
    expect(fieldsOf(bare.body)).toEqual(['benefitValue', 'condition.minimumSpend', 'condition.timeUseWithIn', 'condition.window', 'discountType']);
    const product = await platform.graphql(CREATE, { input: { name_en: 'x', description_en: 'y', type: 'PRODUCT', condition: { timeUseWithIn: 7 } } }, marketing.token);
    expect(fieldsOf(product.body)).toEqual(['condition.window']);
    const points = await platform.graphql(CREATE, { input: { name_en: unique('Points '), description_en: 'y', type: 'POINT', benefitValue: 100 } }, marketing.token);
    expect(points.body.errors).toBeUndefined();
    const percent = await platform.graphql(CREATE, { input: voucher({ benefitValue: 100.01 }) }, marketing.token);
    expect(fieldsOf(percent.body)).toEqual(['benefitValue']);
    const backwards = await platform.graphql(CREATE, { input: voucher({ condition: { minimumSpend: 1, timeUseWithIn: 1, window: { start: WINDOW.end, end: WINDOW.start } } }) }, marketing.token);
    expect(fieldsOf(backwards.body)).toEqual(['condition.window.end']);
    const unknownCatalog = await platform.graphql(CREATE, { input: voucher({ rewardCatalogId: randomUUID() }) }, marketing.token);
    expect(fieldsOf(unknownCatalog.body)).toEqual(['rewardCatalogId']);

    // The POINT reward becomes a voucher: it now needs the voucher's fields; the update is refused whole.
    const { id } = points.body.data.createReward;
    const toVoucher = await platform.graphql(UPDATE, { id, input: { type: 'VOUCHER', name_en: 'Renamed' } }, marketing.token);
    expect(fieldsOf(toVoucher.body)).toEqual(['condition.minimumSpend', 'condition.timeUseWithIn', 'condition.window', 'discountType']);
    expect((await platform.graphql(READ, { id })).body.data.reward).toMatchObject({ type: 'POINT', name_en: points.body.data.createReward.name_en });
    const complete = await platform.graphql(UPDATE, { id, input: { type: 'VOUCHER', discountType: 'AMOUNT', condition: { minimumSpend: 0, timeUseWithIn: 3, window: WINDOW } } }, marketing.token);
    expect(complete.body.data.updateReward).toMatchObject({ type: 'VOUCHER', discountType: 'AMOUNT', benefitValue: 100, condition: { minimumSpend: 0, timeUseWithIn: 3, window: WINDOW } });
    const requiredNull = await platform.graphql(UPDATE, { id, input: { name_en: null, type: null } }, marketing.token);
    expect(fieldsOf(requiredNull.body)).toEqual(['name_en', 'type']);
  });
});

const BASE = '/reward/api/rewards';
/** Sends a multipart form as the admin UI does: numbers and JSON as strings, the image as a file. */
async function sendForm(method: 'POST' | 'PUT', path: string, fields: Record<string, string>, token: string, image?: Blob) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (image) form.append('image', image, 'reward.png');
  const response = await fetch(`${platform.restUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}
const voucherForm = (overrides: Record<string, string> = {}) => ({
  name_en: unique('Form voucher '),
  description_en: 'Money off',
  type: 'VOUCHER',
  discountType: 'AMOUNT',
  benefitValue: '50.25',
  stock: '12',
  condition: JSON.stringify({ minimumSpend: '300', timeUseWithIn: '14', window: WINDOW }),
  storeIds: JSON.stringify(['store-a', 'store,b']),
  ...overrides,
});
async function createByForm(overrides: Record<string, string> = {}) {
  const response = await sendForm('POST', BASE, voucherForm(overrides), marketing.token);
  expect(response.status).toBe(200);
  return response.body.data as { id: string; name_en: string; [field: string]: unknown };
}
const errorFields = (body: any) => [...new Set<string>((body.data.errors ?? []).map((error: { field: string }) => error.field))].sort();
const list = (query: string) => platform.api('GET', `${BASE}?${query}`);

describe('rewards through REST (/reward/api/rewards)', () => {
  it('POST takes multipart with numbers and JSON as strings and an image, and answers 200 with the reward and a message', async () => {
    const fields = voucherForm({ name_cn: '代金券', isActive: 'true' });
    const response = await sendForm('POST', BASE, fields, marketing.token, png());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      statusCode: 200,
      message: 'Reward created',
      data: expect.objectContaining({
        id: expect.any(String),
        name_en: fields.name_en,
        name_cn: '代金券',
        type: 'VOUCHER',
        discountType: 'AMOUNT',
        benefitValue: 50.25,
        stock: 12,
        stockType: 'LIMITED',
        stockInfinite: false,
        storeIds: ['store-a', 'store,b'],
        condition: { minimumSpend: 300, timeUseWithIn: 14, window: WINDOW },
        imageUrl: expect.stringMatching(/\/files\//),
        isActive: true,
      }),
    });
    expect(response.body.data.stats).toBeUndefined();
    const image = await fetch(`${platform.restUrl}${new URL(response.body.data.imageUrl).pathname}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(IMAGES.png);

    const read = await platform.api('GET', `${BASE}/${response.body.data.id}?includeStats=true`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ statusCode: 200, data: { ...response.body.data, stats: { redeemed: 0, used: 0, total: 12, remaining: 12 } } });
  });

  it('answers 400 with data.message and the fields for each of the five rules, and creates nothing', async () => {
    const name = unique('Refused ');
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ stock: 'many' }, ['stock']],
      [{ benefitValue: '1.234' }, ['benefitValue']],
      [{ condition: '{not json' }, ['condition']],
      [{ storeIds: JSON.stringify([1, 2]) }, ['storeIds.0', 'storeIds.1']],
      [{ discountType: '', benefitValue: '', condition: JSON.stringify({ timeUseWithIn: 3, window: WINDOW }) }, ['benefitValue', 'condition.minimumSpend', 'discountType']],
      [{ type: 'OTHER', condition: JSON.stringify({}) }, ['condition.timeUseWithIn', 'condition.window']],
      [{ name_en: '', description_en: '' }, ['description_en', 'name_en']],
      [{ name_en: 'x'.repeat(101) }, ['name_en']],
      [{ stock: '-1' }, ['stock']],
      [{ rewardCatalogId: 'not-a-uuid' }, ['rewardCatalogId']],
    ];
    for (const [overrides, fields] of cases) {
      const response = await sendForm('POST', BASE, voucherForm({ name_en: name, ...overrides }), marketing.token);
      expect({ overrides, status: response.status, message: typeof response.body.data.message, fields: errorFields(response.body) }).toEqual({ overrides, status: 400, message: 'string', fields });
    }
    const points = await sendForm('POST', BASE, { name_en: name, description_en: 'd', type: 'POINT', benefitValue: '100' }, marketing.token);
    expect(points.status).toBe(200);
    expect(Number((await platform.sql.query('select count(*) from reward.reward where name_en = $1', [name])).rows[0].count)).toBe(1);
  });

  it('PUT changes the given fields (a new image too) and keeps the others; an unknown reward is 404', async () => {
    const reward = await createByForm();
    const response = await sendForm('PUT', `${BASE}/${reward.id}`, { name_th: 'ใหม่', stock: '3', storeIds: '[]', benefitValue: '75' }, marketing.token, png(90));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, message: 'Reward updated', data: expect.objectContaining({ id: reward.id, name_en: reward.name_en, name_th: 'ใหม่', stock: 3, storeIds: [], benefitValue: 75 }) });
    expect(response.body.data.imageUrl).toMatch(/\/files\//);
    expect(response.body.data.condition).toEqual(reward.condition);
    const unknown = await sendForm('PUT', `${BASE}/${randomUUID()}`, { name_th: 'x' }, marketing.token);
    expect(unknown).toEqual({ status: 404, body: { statusCode: 404, data: { message: 'Reward not found', data: { id: expect.any(String) } } } });
    const broken = await sendForm('PUT', `${BASE}/${reward.id}`, { type: 'PRODUCT', condition: 'null' }, marketing.token);
    expect(broken.status).toBe(400);
    expect(errorFields(broken.body)).toEqual(['condition.timeUseWithIn', 'condition.window']);
  });

  it('GET /rewards/:id of an unknown reward is 404 with data.message', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await platform.api('GET', `${BASE}/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.data.message).toBe('Reward not found');
    }
  });

  it('set-active and DELETE answer {id, isActive} and {id} with a message; lists hide them unless asked', async () => {
    const tag = unique('Listed');
    const active = await createByForm({ name_en: `${tag} active` });
    const inactive = await createByForm({ name_en: `${tag} inactive` });
    const deleted = await createByForm({ name_en: `${tag} deleted` });
    const setActive = await platform.api('PATCH', `${BASE}/${inactive.id}/set-active`, { token: marketing.token, body: { isActive: false } });
    expect(setActive.body).toEqual({ statusCode: 200, message: 'Reward status updated', data: { id: inactive.id, isActive: false } });
    const removal = await platform.api('DELETE', `${BASE}/${deleted.id}`, { token: marketing.token });
    expect(removal.body).toEqual({ statusCode: 200, message: 'Reward deleted', data: { id: deleted.id } });
    expect((await platform.api('GET', `${BASE}/${deleted.id}`)).status).toBe(404);
    expect((await platform.api('DELETE', `${BASE}/${deleted.id}`, { token: marketing.token })).status).toBe(404);
    expect((await platform.sql.query('select deleted_at from reward.reward where id = $1', [deleted.id])).rows[0].deleted_at).toBeInstanceOf(Date);

    const ids = async (query: string) => (await list(`search=${tag}&${query}`)).body.data.data.map((reward: { id: string }) => reward.id);
    expect(await ids('')).toEqual([active.id]);
    expect(await ids('includeInActive=true')).toEqual([inactive.id, active.id]);
    expect(await ids('includeInActive=true&includeDeletedAt=true')).toEqual([deleted.id, inactive.id, active.id]);
    const deletedRow = (await list(`search=${tag}&includeDeletedAt=true&includeInActive=true`)).body.data.data[0];
    expect(deletedRow.deletedAt).toEqual(expect.any(String));

    expect((await platform.api('PATCH', `${BASE}/${active.id}/set-active`, { token: marketing.token, body: {} })).status).toBe(400);
    for (const token of [tenant.token, member.token]) {
      expect((await platform.api('DELETE', `${BASE}/${active.id}`, { token })).status).toBe(403);
      expect((await platform.api('PATCH', `${BASE}/${active.id}/set-active`, { token, body: { isActive: false } })).status).toBe(403);
    }
    expect((await platform.api('DELETE', `${BASE}/${active.id}`)).status).toBe(401);
  });

  it('lists paginated directly in data, with type, locale (all languages without it), includeStats and includeLink', async () => {
    const tag = unique('Flags');
    const voucherReward = await createByForm({ name_en: `${tag} voucher`, name_th: 'บัตร' });
    const points = (await sendForm('POST', BASE, { name_en: `${tag} points`, description_en: 'd', type: 'POINT', stockType: 'INFINITE' }, marketing.token)).body.data;
    const catalogId = randomUUID();
    await platform.sql.query(
      `insert into reward.reward_catalog (id, name_en, reward_id, point_usage, created_at, updated_at) values ($1, 'Catalog', $2, 120.5, now(), now())`,
      [catalogId, voucherReward.id],
    );
    expect((await sendForm('PUT', `${BASE}/${voucherReward.id}`, { rewardCatalogId: catalogId }, marketing.token)).status).toBe(200);

    const page = await list(`search=${tag}&limit=1&page=2`);
    expect(page.body).toEqual({ statusCode: 200, data: { meta: { page: 2, limit: 1, total: 2, totalPages: 2 }, data: [expect.objectContaining({ id: voucherReward.id })] } });
    const all = (await list(`search=${tag}`)).body.data.data;
    expect(all.map((reward: { id: string }) => reward.id)).toEqual([points.id, voucherReward.id]);
    expect(all[1]).toMatchObject({ name_en: `${tag} voucher`, name_th: 'บัตร', name_cn: null });
    expect(all[1].stats).toBeUndefined();
    expect(all[1].rewardCatalog).toBeUndefined();

    const typed = (await list(`search=${tag}&type=POINT`)).body.data.data;
    expect(typed.map((reward: { id: string }) => reward.id)).toEqual([points.id]);
    const thai = (await list(`search=${tag}&type=VOUCHER&locale=th`)).body.data.data[0];
    expect(thai).toMatchObject({ name_en: null, name_th: 'บัตร', name_cn: null, description_th: 'Money off' });

    const flagged = (await list(`search=${tag}&includeStats=true&includeLink=true`)).body.data.data;
    expect(flagged[0]).toMatchObject({ stockInfinite: true, stats: { redeemed: 0, used: 0, total: null, remaining: null }, rewardCatalog: null });
    expect(flagged[1]).toMatchObject({
      stats: { redeemed: 0, used: 0, total: 12, remaining: 12 },
      rewardCatalog: { id: catalogId, name_en: 'Catalog', redeemRule: { pointUsage: 120.5, limitPerUser: null }, window: null, isActive: true },
    });

    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['type=GIFT', 'type'],
      ['locale=fr', 'locale'],
    ]) {
      const refused = await list(query);
      expect({ query, status: refused.status, fields: errorFields(refused.body) }).toEqual({ query, status: 400, fields: [field] });
    }
  });
});
