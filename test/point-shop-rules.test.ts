import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, admin, marketing, tenant, member } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 1 });

const BASE = '/point/api/point-rules/shop';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const get = (path: string, token = admin.token) => platform.api('GET', `${BASE}${path}`, { token });
const create = (body: Record<string, unknown>, token = marketing.token) => platform.api('POST', BASE, { token, body });
const update = (id: string, body: Record<string, unknown>, token = marketing.token) => platform.api('PUT', `${BASE}/${id}`, { token, body });
const remove = (id: string, token = marketing.token) => platform.api('DELETE', `${BASE}/${id}`, { token });
const fieldsOf = (response: { body: any }) => (response.body.data.errors ?? []).map((error: { field: string }) => error.field);
const ruleRow = async (id: string) =>
  (await platform.sql.query('select shop_id, name_th, conversion_rate::text, is_fixed, is_active, deleted_at from point.point_shop_rule where id = $1', [id])).rows[0];

async function createRule(overrides: Record<string, unknown> = {}) {
  const response = await create({ shopId: unique('shop'), name_en: unique('Rule '), conversionRate: 2, ...overrides });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('the default rule', () => {
  it('is seeded fixed, without shop, at 1 point per currency unit, and any caller reads it', async () => {
    for (const token of [admin.token, tenant.token, member.token]) {
      const response = await get('/default', token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        statusCode: 200,
        data: {
          id: expect.any(String),
          shopId: null,
          name_en: 'Default rule',
          name_th: 'กฎเริ่มต้น',
          name_cn: '默认规则',
          description_en: expect.stringContaining('1 point per currency unit'),
          description_th: expect.any(String),
          description_cn: expect.any(String),
          conversionRate: 1,
          isFixed: true,
          isActive: true,
          createdAt: expect.stringMatching(ISO_MS),
          updatedAt: expect.stringMatching(ISO_MS),
        },
      });
    }
    expect((await platform.api('GET', `${BASE}/default`)).status).toBe(401);
  });

  it('is projected to one language with locale', async () => {
    const thai = (await get('/default?locale=th')).body.data;
    expect([thai.name_en, thai.name_th, thai.name_cn]).toEqual([null, 'กฎเริ่มต้น', null]);
    expect(thai.description_th).toContain('1 คะแนน');
    expect((await get('/default?locale=jp')).body.data.errors[0].field).toBe('locale');
  });

  it('cannot be deleted, keep no shop, or stop being fixed', async () => {
    const fixed = (await get('/default')).body.data;
    const deleted = await remove(fixed.id);
    expect(deleted.status).toBe(400);
    expect(deleted.body.data.errors).toEqual([{ field: 'id', message: 'The default rule cannot be deleted' }]);
    const unfixed = await update(fixed.id, { isFixed: false });
    expect(unfixed.status).toBe(400);
    expect(fieldsOf(unfixed)).toEqual(['isFixed']);
    const withShop = await update(fixed.id, { shopId: 'shop-x' });
    expect(withShop.status).toBe(400);
    expect(fieldsOf(withShop)).toEqual(['shopId']);
    expect(await ruleRow(fixed.id)).toEqual({ shop_id: null, name_th: 'กฎเริ่มต้น', conversion_rate: '1.0000', is_fixed: true, is_active: true, deleted_at: null });
    expect((await get(`/${fixed.id}`)).body.data.isFixed).toBe(true);
  });
});

describe('creating, reading, changing and deleting shop rules', () => {
  it('creates a shop rule (201 data) that is not fixed, and reads it by id', async () => {
    const shopId = unique('shop');
    const response = await create({ shopId, name_en: 'Coffee', name_th: 'กาแฟ', description_en: 'Double points', conversionRate: 2.5 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      statusCode: 201,
      data: {
        id: expect.any(String),
        shopId,
        name_en: 'Coffee',
        name_th: 'กาแฟ',
        name_cn: null,
        description_en: 'Double points',
        description_th: null,
        description_cn: null,
        conversionRate: 2.5,
        isFixed: false,
        isActive: true,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      },
    });
    const { id } = response.body.data;
    expect(await get(`/${id}`, member.token)).toMatchObject({ status: 200, body: { statusCode: 200, data: response.body.data } });
    const chinese = (await get(`/${id}?locale=cn`)).body.data;
    expect([chinese.name_en, chinese.name_th, chinese.name_cn]).toEqual([null, null, 'Coffee']);
    expect(await ruleRow(id)).toMatchObject({ shop_id: shopId, conversion_rate: '2.5000', is_fixed: false });
  });

  it('answers 404 with data.data.id for an unknown rule, and 400 for an id that is not a UUID', async () => {
    const id = randomUUID();
    const missing = await get(`/${id}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, data: { message: 'Point shop rule not found', data: { id } } });
    expect(fieldsOf(await get('/not-a-uuid'))).toEqual(['id']);
  });

  it('validates the body: shopId, names and a conversion rate > 0 with at most 4 decimals', async () => {
    const before = (await platform.sql.query('select count(*)::int as count from point.point_shop_rule')).rows[0].count;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name_en: 'No shop', conversionRate: 1 }, 'shopId'],
      [{ shopId: '', name_en: 'Empty shop', conversionRate: 1 }, 'shopId'],
      [{ shopId: unique('shop'), conversionRate: 1 }, 'name_en'],
      [{ shopId: unique('shop'), name_en: 'x'.repeat(257), conversionRate: 1 }, 'name_en'],
      [{ shopId: unique('shop'), name_en: 'Zero', conversionRate: 0 }, 'conversionRate'],
      [{ shopId: unique('shop'), name_en: 'Negative', conversionRate: -1 }, 'conversionRate'],
      [{ shopId: unique('shop'), name_en: 'Too precise', conversionRate: 1.23456 }, 'conversionRate'],
      [{ shopId: unique('shop'), name_en: 'Tiny', conversionRate: 1e-7 }, 'conversionRate'],
      [{ shopId: unique('shop'), name_en: 'Text', conversionRate: 'two' }, 'conversionRate'],
      [{ shopId: unique('shop'), name_en: 'Missing rate' }, 'conversionRate'],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(fieldsOf(response)).toContain(field);
    }
    expect((await platform.sql.query('select count(*)::int as count from point.point_shop_rule')).rows[0].count).toBe(before);
  });

  it('refuses a second live rule for a shop with 409, and allows it again once the first is deleted', async () => {
    const first = await createRule();
    const duplicate = await create({ shopId: first.shopId, name_en: 'Again', conversionRate: 3 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.data.errors).toEqual([{ field: 'shopId', message: `A live point shop rule for shop ${first.shopId} already exists` }]);
    expect((await remove(first.id)).status).toBe(200);
    const again = await create({ shopId: first.shopId, name_en: 'Again', conversionRate: 3 });
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(first.id);
  });

  it('lets exactly one of concurrent creates for one shop win; the others are 409', async () => {
    const shopId = unique('shop');
    const statuses = (await Promise.all(Array.from({ length: 6 }, (_, i) => create({ shopId, name_en: `Racer ${i}`, conversionRate: 1 })))).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await platform.sql.query('select count(*)::int as count from point.point_shop_rule where shop_id = $1', [shopId])).rows[0].count).toBe(1);
  });

  it('updates the given fields only: an absent field is kept, null clears an optional text', async () => {
    const rule = await createRule({ name_th: 'ชื่อ', description_en: 'About', conversionRate: 2 });
    const response = await update(rule.id, { conversionRate: 0.3333, name_th: null, isActive: false, isFixed: false });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: rule.id, shopId: rule.shopId, name_en: rule.name_en, name_th: null, description_en: 'About', conversionRate: 0.3333, isActive: false, isFixed: false });
    expect(new Date(response.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(rule.updatedAt).getTime());
    expect(await ruleRow(rule.id)).toMatchObject({ name_th: null, conversion_rate: '0.3333', is_active: false });

    const newShop = unique('shop');
    expect((await update(rule.id, { shopId: newShop })).body.data.shopId).toBe(newShop);
  });

  it('refuses bad updates: isFixed on a shop rule, a taken shop, a null name, a rate <= 0, an unknown rule', async () => {
    const [rule, other] = [await createRule(), await createRule()];
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ isFixed: true }, 400, 'isFixed'],
      [{ shopId: other.shopId }, 409, 'shopId'],
      [{ name_en: null }, 400, 'name_en'],
      [{ conversionRate: 0 }, 400, 'conversionRate'],
      [{ conversionRate: null }, 400, 'conversionRate'],
    ];
    for (const [body, status, field] of cases) {
      const response = await update(rule.id, body);
      expect({ body, status: response.status, fields: [...new Set(fieldsOf(response))] }).toEqual({ body, status, fields: [field] });
    }
    expect(await ruleRow(rule.id)).toMatchObject({ shop_id: rule.shopId, conversion_rate: '2.0000', is_fixed: false });
    const id = randomUUID();
    expect(await update(id, { name_en: 'Nobody' })).toMatchObject({ status: 404, body: { data: { data: { id } } } });
  });

  it('soft-deletes a shop rule: hidden from reads and lists, kept in the table, deleted once', async () => {
    const rule = await createRule();
    const deleted = await remove(rule.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: rule.id, shopId: rule.shopId });
    expect((await ruleRow(rule.id)).deleted_at).toBeInstanceOf(Date);
    expect((await get(`/${rule.id}`)).status).toBe(404);
    expect((await remove(rule.id)).status).toBe(404);
    expect((await update(rule.id, { name_en: 'Back' })).status).toBe(404);
    const listed = (await get(`?search=${encodeURIComponent(rule.name_en)}`)).body.data;
    expect(listed.meta.total).toBe(0);
  });

  it('needs a token to read, and point:manage to change', async () => {
    const rule = await createRule();
    for (const token of [tenant.token, member.token]) {
      expect((await create({ shopId: unique('shop'), name_en: 'No', conversionRate: 1 }, token)).status).toBe(403);
      expect((await update(rule.id, { name_en: 'No' }, token)).status).toBe(403);
      expect((await remove(rule.id, token)).status).toBe(403);
    }
    expect((await platform.api('POST', BASE, { body: { shopId: unique('shop'), name_en: 'No', conversionRate: 1 } })).status).toBe(401);
    expect((await platform.api('GET', BASE)).status).toBe(401);
    expect((await platform.api('GET', `${BASE}/${rule.id}`)).status).toBe(401);
    expect((await get(`/${rule.id}`)).body.data.name_en).toBe(rule.name_en);
  });
});

describe('listing shop rules', () => {
  it('pages live rules directly in data, the default rule first, and searches the names in every language', async () => {
    const tag = unique('list');
    const rules = [];
    for (const [i, name_th] of ['ร้านหนึ่ง', 'ร้านสอง', 'ร้านสาม'].entries()) rules.push(await createRule({ name_en: `${tag} ${i}`, name_th: `${name_th} ${tag}` }));
    // Distinct creation times, oldest first, so that the order does not hang on one millisecond.
    await platform.sql.query(`update point.point_shop_rule set created_at = now() - (interval '1 minute' * array_position($1::uuid[], id)) where id = any($1)`, [
      rules.map((rule) => rule.id).reverse(),
    ]);
    const first = await get('?page=1&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.meta).toEqual({ page: 1, limit: 2, total: expect.any(Number), totalPages: Math.ceil(first.body.data.meta.total / 2) });
    expect(first.body.data.data).toHaveLength(2);
    expect(first.body.data.data[0].isFixed).toBe(true);

    const searched = await get(`?search=${encodeURIComponent(`ร้านสอง ${tag}`)}`);
    expect(searched.body.data.data.map((rule: { id: string }) => rule.id)).toEqual([rules[1].id]);
    const all = await get(`?search=${tag}&limit=2&page=2`);
    expect(all.body.data.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(all.body.data.data.map((rule: { id: string }) => rule.id)).toEqual([rules[0].id]);
    // LIKE wildcards are searched literally.
    expect((await get(`?search=${encodeURIComponent('%')}${tag}`)).body.data.meta.total).toBe(0);
  });

  it('projects names and descriptions with locale, and validates page and limit', async () => {
    const tag = unique('loc');
    await createRule({ name_en: `${tag} en`, name_cn: `${tag} 中文`, description_en: 'English only' });
    const projected = (await get(`?search=${tag}&locale=cn`)).body.data.data[0];
    expect(projected).toMatchObject({ name_en: null, name_th: null, name_cn: `${tag} 中文`, description_en: null, description_cn: 'English only' });
    expect(fieldsOf(await get('?limit=101'))).toContain('limit');
    expect(fieldsOf(await get('?page=0'))).toContain('page');
  });
});

describe('without a default rule', () => {
  // Its own database: removing the default rule must not disturb the other test files.
  const { platform: isolated } = usePlatform({ ownDatabase: true });

  it('answers 404 with data.message and data.error', async () => {
    const staff = await isolated.createStaff();
    expect((await isolated.api('GET', `${BASE}/default`, { token: staff.token })).status).toBe(200);
    await isolated.sql.query('delete from point.point_shop_rule where is_fixed');
    const response = await isolated.api('GET', `${BASE}/default`, { token: staff.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, data: { message: 'Default point shop rule not found', error: 'Not Found' } });
  });
});
