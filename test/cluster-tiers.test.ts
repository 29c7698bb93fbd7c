import { randomInt, randomUUID } from 'node:crypto';
import { IMAGES, png } from './support/images';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const { platform, admin, marketing, tenant, member } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 1 });

const BASE = '/cluster/api/tiers';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/**
 * Other test files create tiers in the same database at the same time: each test takes levels nobody
 * else picks, below 1,000,000 (the automatic-tiering tests use levels above it and must stay the highest).
 */
const freeLevel = () => randomInt(1_000, 999_000);
/** Uploaded files are served by the adapter under /files/ (the URLs carry PUBLIC_URL's host). */
const served = async (url: string) => (await fetch(`${platform.restUrl}${new URL(url).pathname}`)).arrayBuffer().then((body) => body.byteLength);
const fieldsOf = (response: { body: any }) => [...new Set((response.body.data.errors ?? []).map((error: { field: string }) => error.field))];

interface Files {
  tierLogo?: Blob | null;
  benefitLogos?: Blob[];
}
/** Sends a multipart form the way the admin UI does: text fields (objects as JSON strings), the tier logo and benefit logos. */
async function sendForm(method: 'POST' | 'PUT', path: string, fields: Record<string, string>, token: string, { tierLogo = png(), benefitLogos = [] }: Files = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (tierLogo) form.append('tierLogo', tierLogo, 'logo.png');
  for (const logo of benefitLogos) form.append('benefitLogos', logo, 'benefit.png');
  const response = await fetch(`${platform.restUrl}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any };
}
const tierFields = (overrides: Record<string, string> = {}) => ({
  name_en: unique('Tier '),
  description_en: 'A tier for tests',
  level: String(freeLevel()),
  requirement: JSON.stringify({ purchaseAmountHit: 1000 }),
  ...overrides,
});
const ANONYMOUS = '';
const createForm = (fields: Record<string, string>, files?: Files, token = marketing.token) => sendForm('POST', BASE, fields, token, files);
async function createTier(overrides: Record<string, string> = {}, files?: Files) {
  const response = await createForm(tierFields(overrides), files);
  expect(response.status).toBe(201);
  return response.body.data.data as { id: string; name_en: string; level: number; isActive: boolean };
}
const get = (path: string, token?: string) => platform.api('GET', `${BASE}${path}`, { token });
const tierRow = async (id: string) =>
  (await platform.sql.query('select name_en, name_th, level, requirement, benefit, image_url, is_active, is_special, deleted_at from cluster.tier where id = $1', [id])).rows[0];
const tierCount = async (name: string) => Number((await platform.sql.query('select count(*) from cluster.tier where name_en = $1', [name])).rows[0].count);
const project = (memberId: string, tierId: string) =>
  platform.sql.query(
    `insert into cluster.tier_projection (id, member_id, tier_id, created_at, updated_at) values ($1, $2, $3, now(), now())
     on conflict (member_id) do update set tier_id = excluded.tier_id`,
    [randomUUID(), memberId, tierId],
  );

describe('creating tiers (POST /tiers, multipart)', () => {
  it('answers 201 with id, name_en, level and isActive; the logo becomes imageUrl and the tier reads back publicly', async () => {
    const level = freeLevel();
    const name = unique('Gold ');
    const benefit = [
      { name_en: 'Free coffee', name_th: 'กาแฟฟรี', condition_en: 'Once a month', type: 'voucher' },
      { name_en: 'Lounge', type: 'access', imageUrl: 'https://cdn.example.com/lounge.png' },
      { name_en: 'Birthday gift', type: 'gift' },
    ];
    const response = await createForm(
      tierFields({
        name_en: name,
        name_th: 'ทอง',
        description_th: 'ระดับทอง',
        background: '#FFD700',
        level: String(level),
        requirement: JSON.stringify({ purchaseAmountHit: 1500.5 }),
        benefit: JSON.stringify(benefit),
        isSpecial: 'true',
      }),
      { benefitLogos: [png(80), png(90)] },
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ statusCode: 201, data: { message: 'Tier created', data: { id: expect.any(String), name_en: name, level, isActive: true } } });
    const { id } = response.body.data.data;

    const read = await get(`/${id}`);
    expect(read.status).toBe(200);
    const tier = read.body.data.data;
    expect(tier).toEqual({
      id,
      name_en: name,
      name_th: 'ทอง',
      name_cn: null,
      description_en: 'A tier for tests',
      description_th: 'ระดับทอง',
      description_cn: null,
      imageUrl: expect.stringMatching(/\/files\//),
      background: '#FFD700',
      level,
      requirement: { purchaseAmountHit: 1500.5 },
      benefit: [
        expect.objectContaining({ name_en: 'Free coffee', name_th: 'กาแฟฟรี', condition_en: 'Once a month', type: 'voucher', imageUrl: expect.stringMatching(/\/files\//) }),
        expect.objectContaining({ name_en: 'Lounge', imageUrl: 'https://cdn.example.com/lounge.png' }),
        expect.objectContaining({ name_en: 'Birthday gift', imageUrl: expect.stringMatching(/\/files\//) }),
      ],
      isActive: true,
      isSpecial: true,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      deletedAt: null,
    });
    // The logos are stored and served; the two benefit logos went, in order, to the items without imageUrl.
    const [first, , third] = tier.benefit;
    expect(new Set([tier.imageUrl, first.imageUrl, third.imageUrl]).size).toBe(3);
    const logo = await fetch(`${platform.restUrl}${new URL(tier.imageUrl).pathname}`);
    expect(logo.status).toBe(200);
    expect((await logo.arrayBuffer()).byteLength).toBe(IMAGES.png.length);
    expect(await served(first.imageUrl)).toBe(80);
    expect(await served(third.imageUrl)).toBe(90);
    expect(await tierRow(id)).toMatchObject({ name_en: name, level, requirement: { purchaseAmountHit: 1500.5 }, image_url: tier.imageUrl, is_special: true, deleted_at: null });
  });

  it('takes the level above the highest live one when no level is given, and defaults to active, not special, no benefits', async () => {
    const below = await createTier();
    const response = await createForm({ name_en: unique('Auto '), description_en: 'x', requirement: '{}' });
    expect(response.status).toBe(201);
    const created = response.body.data.data;
    expect(created.level).toBeGreaterThan(below.level);
    const tier = (await get(`/${created.id}`)).body.data.data;
    expect(tier).toMatchObject({ isActive: true, isSpecial: false, benefit: [], requirement: { purchaseAmountHit: null } });
  });

  it('refuses a missing tierLogo, a logo that is not an image, and writes nothing', async () => {
    const name = unique('NoLogo ');
    const missing = await createForm(tierFields({ name_en: name }), { tierLogo: null });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(['tierLogo']);
    const text = await createForm(tierFields({ name_en: name }), { tierLogo: new Blob(['hello'], { type: 'text/plain' }) });
    expect(text.status).toBe(400);
    expect(fieldsOf(text)).toEqual(['tierLogo']);
    const benefitText = await createForm(tierFields({ name_en: name }), { benefitLogos: [new Blob(['x'], { type: 'text/plain' })] });
    expect(fieldsOf(benefitText)).toEqual(['benefitLogos']);
    expect(await tierCount(name)).toBe(0);
  });

  it('reports bad JSON or wrong shapes in requirement and benefit on the field', async () => {
    const name = unique('BadJson ');
    const cases: Array<[Record<string, string>, string]> = [
      [{ requirement: '{purchaseAmountHit: 5' }, 'requirement'],
      [{ requirement: '[1, 2]' }, 'requirement'],
      [{ requirement: JSON.stringify({ purchaseAmountHit: 'lots' }) }, 'requirement.purchaseAmountHit'],
      [{ requirement: JSON.stringify({ purchaseAmountHit: -1 }) }, 'requirement.purchaseAmountHit'],
      [{ benefit: 'not json' }, 'benefit'],
      [{ benefit: JSON.stringify([{ name_en: 5 }]) }, 'benefit.0.name_en'],
      [{ benefit: JSON.stringify([{ type: 'voucher' }]) }, 'benefit.0.name_en'],
      [{ benefit: JSON.stringify([{ name_en: 'Lounge', imageUrl: 'javascript:alert(1)' }]) }, 'benefit.0.imageUrl'],
    ];
    for (const [overrides, field] of cases) {
      const response = await createForm(tierFields({ name_en: name, ...overrides }));
      expect({ overrides, status: response.status, fields: fieldsOf(response) }).toEqual({ overrides, status: 400, fields: [field] });
    }
    const fields = tierFields({ name_en: name });
    delete (fields as Partial<typeof fields>).requirement;
    const withoutRequirement = await createForm(fields);
    expect(withoutRequirement.status).toBe(400);
    expect(fieldsOf(withoutRequirement)).toEqual(['requirement']);
    expect(await tierCount(name)).toBe(0);
  });

  it('checks names (256 chars), description_en, level (integer >= 0), booleans and the number of benefit logos', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ name_en: 'x'.repeat(257) }, 'name_en'],
      [{ name_th: 'ก'.repeat(257) }, 'name_th'],
      [{ name_en: '' }, 'name_en'],
      [{ description_en: '' }, 'description_en'],
      [{ level: '-1' }, 'level'],
      [{ level: '1.5' }, 'level'],
      [{ level: 'high' }, 'level'],
      [{ isActive: 'yes' }, 'isActive'],
    ];
    for (const [overrides, field] of cases) {
      const response = await createForm(tierFields(overrides));
      expect({ overrides, status: response.status, fields: fieldsOf(response) }).toEqual({ overrides, status: 400, fields: [field] });
    }
    const tooManyLogos = await createForm(tierFields({ benefit: JSON.stringify([{ name_en: 'One' }]) }), { benefitLogos: [png(), png()] });
    expect(tooManyLogos.status).toBe(400);
    expect(fieldsOf(tooManyLogos)).toEqual(['benefitLogos']);
    const longest = await createTier({ name_en: `${unique('L')}${'x'.repeat(245)}` });
    expect(longest.name_en).toHaveLength(256);
  });

  it('needs a token (401 before the upload) and tier:manage (403)', async () => {
    const name = unique('Auth ');
    const anonymous = await createForm(tierFields({ name_en: name }), {}, ANONYMOUS);
    expect(anonymous.status).toBe(401);
    for (const token of [tenant.token, member.token]) {
      const refused = await createForm(tierFields({ name_en: name }), {}, token);
      expect(refused.status).toBe(403);
    }
    expect(await tierCount(name)).toBe(0);
    const byAdmin = await createForm(tierFields({ name_en: name }), {}, admin.token);
    expect(byAdmin.status).toBe(201);
  });

  it('refuses a level a live tier holds (409 on level); a deleted tier frees its level', async () => {
    const level = freeLevel();
    const first = await createTier({ level: String(level) });
    const second = await createForm(tierFields({ level: String(level) }));
    expect(second.status).toBe(409);
    expect(second.body.data.errors).toEqual([{ field: 'level', message: `A live tier with level ${level} already exists` }]);
    // Inactive tiers keep their level.
    await platform.api('PATCH', `${BASE}/${first.id}/set-active`, { token: marketing.token, body: { isActive: false } });
    expect((await createForm(tierFields({ level: String(level) }))).status).toBe(409);
    expect((await platform.api('DELETE', `${BASE}/${first.id}`, { token: marketing.token })).status).toBe(200);
    const third = await createTier({ level: String(level) });
    expect(third.level).toBe(level);
  });

  it('settles two creates racing for one level with one 201 and one 409', async () => {
    const level = String(freeLevel());
    const statuses = (await Promise.all([createForm(tierFields({ level })), createForm(tierFields({ level }))])).map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409]);
    expect(Number((await platform.sql.query('select count(*) from cluster.tier where level = $1 and deleted_at is null', [Number(level)])).rows[0].count)).toBe(1);
  });
});

describe('reading tiers (public)', () => {
  it('GET /tiers/:id answers without a token, 404 with data.data.id for an unknown id, 400 for a bad id', async () => {
    const { id } = await createTier();
    expect((await get(`/${id}`)).body.data.data.id).toBe(id);
    const unknown = randomUUID();
    const missing = await get(`/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, data: { message: 'Tier not found', data: { id: unknown } } });
    // Tier ids are plain strings (Part 1, convention 5): one that is not ours names no tier.
    const plain = await get('/gold-tier');
    expect(plain.status).toBe(404);
    expect(plain.body).toEqual({ statusCode: 404, data: { message: 'Tier not found', data: { id: 'gold-tier' } } });
  });

  it('projects names, descriptions and benefit texts to one language with locale, falling back to English', async () => {
    const { id } = await createTier({
      name_th: 'เงิน',
      description_th: 'ระดับเงิน',
      benefit: JSON.stringify([{ name_en: 'Parking', name_cn: '停车', condition_en: 'Weekdays', condition_th: 'วันธรรมดา' }]),
    });
    const thai = (await get(`/${id}?locale=th`)).body.data.data;
    expect([thai.name_en, thai.name_th, thai.name_cn]).toEqual([null, 'เงิน', null]);
    expect([thai.description_en, thai.description_th]).toEqual([null, 'ระดับเงิน']);
    expect(thai.benefit[0]).toMatchObject({ name_en: null, name_th: 'Parking', name_cn: null, condition_en: null, condition_th: 'วันธรรมดา' });
    const chinese = (await get(`/${id}?locale=cn`)).body.data.data;
    expect([chinese.name_en, chinese.name_cn, chinese.benefit[0].name_cn]).toEqual([null, chinese.name_cn, '停车']);
    expect(chinese.name_cn).toMatch(/^Tier /);
    const all = (await get(`/${id}`)).body.data.data;
    expect([all.name_th, all.benefit[0].name_en, all.benefit[0].name_cn]).toEqual(['เงิน', 'Parking', '停车']);
    expect(fieldsOf(await get(`/${id}?locale=jp`))).toEqual(['locale']);
  });

  it('GET /tiers/level/:level finds the live tier at a level; 404 with data.data.level; 400 for a bad level', async () => {
    const created = await createTier({ name_th: 'ระดับ' });
    const found = await get(`/level/${created.level}?locale=th`);
    expect(found.status).toBe(200);
    expect(found.body.data.data).toMatchObject({ id: created.id, level: created.level, name_th: 'ระดับ', name_en: null });
    await platform.api('DELETE', `${BASE}/${created.id}`, { token: marketing.token });
    const gone = await get(`/level/${created.level}`);
    expect(gone.status).toBe(404);
    expect(gone.body.data).toEqual({ message: 'Tier not found', data: { level: created.level } });
    for (const level of ['-1', 'two']) {
      const bad = await get(`/level/${level}`);
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['level']);
    }
  });

  it('GET /tiers pages live active tiers by level, searches names in every language, and shows inactive or deleted ones when asked', async () => {
    const tag = unique('srch');
    const base = freeLevel();
    const active1 = await createTier({ name_en: `${tag} A`, level: String(base + 2) });
    const active2 = await createTier({ name_en: 'Plain', name_cn: `${tag} 中`, level: String(base) });
    const inactive = await createTier({ name_en: `${tag} C`, isActive: 'false', level: String(base + 1) });
    const deleted = await createTier({ name_en: `${tag} D`, level: String(base + 3) });
    await platform.api('DELETE', `${BASE}/${deleted.id}`, { token: marketing.token });
    await createTier({ name_en: unique('Other ') });

    const list = await get(`?search=${tag}`);
    expect(list.status).toBe(200);
    expect(list.body.data.message).toEqual(expect.any(String));
    expect(list.body.data.data.meta).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });
    expect(list.body.data.data.data.map((tier: { id: string }) => tier.id)).toEqual([active2.id, active1.id]);

    const withInactive = (await get(`?search=${tag}&includeInActive=true`)).body.data.data;
    expect(withInactive.data.map((tier: { id: string }) => tier.id)).toEqual([active2.id, inactive.id, active1.id]);
    const withDeleted = (await get(`?search=${tag}&includeDeletedAt=true`)).body.data.data;
    expect(withDeleted.data.map((tier: { id: string }) => tier.id)).toEqual([active2.id, active1.id, deleted.id]);
    expect(withDeleted.data[2].deletedAt).toMatch(ISO_MS);
    const everything = (await get(`?search=${tag}&includeDeletedAt=true&includeInActive=true&limit=2&page=2`)).body.data.data;
    expect(everything.meta).toEqual({ page: 2, limit: 2, total: 4, totalPages: 2 });
    expect(everything.data.map((tier: { id: string }) => tier.id)).toEqual([active1.id, deleted.id]);

    const localized = (await get(`?search=${tag}&locale=cn`)).body.data.data.data;
    expect(localized.map((tier: { name_cn: string; name_en: string | null }) => [tier.name_en, tier.name_cn])).toEqual([
      [null, `${tag} 中`],
      [null, `${tag} A`],
    ]);
    for (const query of ['limit=0', 'limit=101', 'page=0', 'includeInActive=maybe']) {
      expect((await get(`?${query}`)).status).toBe(400);
    }
  });

  it('POST /tiers/bulk (Bearer) returns the live tiers among the ids in their order', async () => {
    const [a, b, c] = [await createTier(), await createTier(), await createTier()];
    await platform.api('DELETE', `${BASE}/${c.id}`, { token: marketing.token });
    const bulk = (ids: unknown, token = member.token) => platform.api('POST', `${BASE}/bulk`, { token, body: { ids } });
    const response = await bulk([b.id, randomUUID(), a.id, c.id, b.id]);
    expect(response.status).toBe(200);
    expect(response.body.data.data.map((tier: { id: string }) => tier.id)).toEqual([b.id, a.id]);
    expect(response.body.data.data[0]).toMatchObject({ name_en: b.name_en, level: b.level, requirement: { purchaseAmountHit: 1000 } });
    expect((await bulk([a.id], ANONYMOUS)).status).toBe(401);
    const plain = await bulk(['gold-tier', a.id]);
    expect(plain.body.data.data.map((tier: { id: string }) => tier.id)).toEqual([a.id]);
    for (const ids of [[], undefined, ['x'.repeat(257)]]) {
      const refused = await bulk(ids);
      expect({ ids, status: refused.status }).toEqual({ ids, status: 400 });
      expect(fieldsOf(refused)[0]).toMatch(/^ids/);
    }
  });
});

describe('changing tiers', () => {
  it('PUT /tiers/:id (multipart) changes the given fields and keeps the others; a new tierLogo replaces imageUrl', async () => {
    const created = await createTier({ name_th: 'เดิม', benefit: JSON.stringify([{ name_en: 'Old' }]) });
    const before = (await get(`/${created.id}`)).body.data.data;
    const newLevel = freeLevel();
    const response = await sendForm(
      'PUT',
      `${BASE}/${created.id}`,
      { name_en: 'Renamed', level: String(newLevel), requirement: JSON.stringify({ purchaseAmountHit: 99.99 }), benefit: JSON.stringify([{ name_en: 'New', type: 't' }]) },
      marketing.token,
      { tierLogo: png(132), benefitLogos: [png(116)] },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.message).toBe('Tier updated');
    const tier = response.body.data.data;
    expect(tier).toMatchObject({ id: created.id, name_en: 'Renamed', name_th: 'เดิม', level: newLevel, requirement: { purchaseAmountHit: 99.99 }, description_en: before.description_en });
    expect(tier.imageUrl).not.toBe(before.imageUrl);
    expect(await served(tier.imageUrl)).toBe(132);
    expect(tier.benefit).toEqual([expect.objectContaining({ name_en: 'New', type: 't', imageUrl: expect.stringMatching(/\/files\//) })]);
    expect(await tierRow(created.id)).toMatchObject({ name_en: 'Renamed', level: newLevel });

    // Without a logo the image stays; JSON bodies work too, and null clears an optional text.
    const json = await platform.api('PUT', `${BASE}/${created.id}`, { token: marketing.token, body: { name_th: null, isSpecial: true } });
    expect(json.status).toBe(200);
    expect(json.body.data.data).toMatchObject({ name_th: null, isSpecial: true, imageUrl: tier.imageUrl, name_en: 'Renamed' });
  });

  it('PUT refuses bad fields, a taken level (409), unknown ids (404) and callers without tier:manage', async () => {
    const created = await createTier();
    const other = await createTier();
    const put = (body: Record<string, unknown>, id = created.id, token = marketing.token) => platform.api('PUT', `${BASE}/${id}`, { token, body });
    for (const [body, field] of [
      [{ name_en: 'x'.repeat(257) }, 'name_en'],
      [{ name_en: null }, 'name_en'],
      [{ level: -1 }, 'level'],
      [{ requirement: 'not json' }, 'requirement'],
      [{ benefit: [{ name_en: '' }] }, 'benefit.0.name_en'],
      [{ imageUrl: 'javascript:alert(document.cookie)' }, 'imageUrl'],
      [{ imageUrl: 'data:text/html,<script>alert(1)</script>' }, 'imageUrl'],
      [{ benefit: [{ name_en: 'Lounge', imageUrl: 'javascript:alert(1)' }] }, 'benefit.0.imageUrl'],
    ] as Array<[Record<string, unknown>, string]>) {
      const response = await put(body);
      expect({ body, status: response.status, fields: fieldsOf(response) }).toEqual({ body, status: 400, fields: [field] });
    }
    const taken = await put({ level: other.level });
    expect(taken.status).toBe(409);
    expect(fieldsOf(taken)).toEqual(['level']);
    expect((await put({ level: created.level })).status).toBe(200);
    const unknown = randomUUID();
    const missing = await put({ name_en: 'x' }, unknown);
    expect(missing.status).toBe(404);
    expect(missing.body.data.data).toEqual({ id: unknown });
    expect((await platform.api('PUT', `${BASE}/${created.id}`, { body: { name_en: 'x' } })).status).toBe(401);
    expect((await put({ name_en: 'x' }, created.id, tenant.token)).status).toBe(403);
    expect((await tierRow(created.id)).name_en).toBe(created.name_en);
  });

  it('PATCH /tiers/:id/set-active needs a boolean isActive and hides inactive tiers from the default list', async () => {
    const tag = unique('act');
    const created = await createTier({ name_en: tag });
    const patch = (body: Record<string, unknown>, token = marketing.token, id = created.id) => platform.api('PATCH', `${BASE}/${id}/set-active`, { token, body });
    const off = await patch({ isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    expect((await tierRow(created.id)).is_active).toBe(false);
    expect((await get(`?search=${tag}`)).body.data.data.meta.total).toBe(0);
    expect((await get(`?search=${tag}&includeInActive=true`)).body.data.data.meta.total).toBe(1);
    expect((await get(`/${created.id}`)).body.data.data.isActive).toBe(false);
    for (const body of [{}, { isActive: 'maybe' }, { isActive: null }]) {
      const refused = await patch(body);
      expect({ body, status: refused.status, fields: fieldsOf(refused) }).toEqual({ body, status: 400, fields: ['isActive'] });
    }
    expect((await patch({ isActive: true }, tenant.token)).status).toBe(403);
    expect((await platform.api('PATCH', `${BASE}/${created.id}/set-active`, { body: { isActive: true } })).status).toBe(401);
    expect((await patch({ isActive: true }, marketing.token, randomUUID())).status).toBe(404);
    expect((await patch({ isActive: true })).status).toBe(200);
    expect((await get(`?search=${tag}`)).body.data.data.meta.total).toBe(1);
  });

  it('DELETE /tiers/:id soft-deletes: reads answer 404, lists hide it unless includeDeletedAt, the row stays', async () => {
    const tag = unique('del');
    const created = await createTier({ name_en: tag });
    expect((await platform.api('DELETE', `${BASE}/${created.id}`, { token: tenant.token })).status).toBe(403);
    expect((await platform.api('DELETE', `${BASE}/${created.id}`)).status).toBe(401);
    const deleted = await platform.api('DELETE', `${BASE}/${created.id}`, { token: marketing.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ statusCode: 200, data: { message: 'Tier deleted' } });
    expect((await tierRow(created.id)).deleted_at).toBeInstanceOf(Date);
    expect((await get(`/${created.id}`)).status).toBe(404);
    expect((await get(`?search=${tag}`)).body.data.data.meta.total).toBe(0);
    expect((await get(`?search=${tag}&includeDeletedAt=true`)).body.data.data.data.map((tier: { id: string }) => tier.id)).toEqual([created.id]);
    expect((await platform.api('DELETE', `${BASE}/${created.id}`, { token: marketing.token })).status).toBe(404);
    expect((await platform.api('PUT', `${BASE}/${created.id}`, { token: marketing.token, body: { name_en: 'back' } })).status).toBe(404);
  });
});

describe("auth's tier catalog", () => {
  it('follows every write of a tier (tier.catalog_changed in the same transaction): create, rename, deactivate, delete', async () => {
    const created = await createTier({ name_th: 'ทดสอบ' });
    const catalogRow = async () =>
      (await platform.sql.query('select name_en, name_th, level, is_active, is_special, deleted_at is not null as deleted from auth.tier_catalog where tier_id = $1', [created.id])).rows[0];
    /** Waits until auth's row of the tier has the expected fields. */
    const caughtUp = (expected: Record<string, unknown>) =>
      waitFor(async () => {
        const row = await catalogRow();
        return row !== undefined && Object.entries(expected).every(([field, value]) => row[field] === value);
      }, `auth's tier catalog to hold ${JSON.stringify(expected)}`);
    await caughtUp({ name_en: created.name_en, name_th: 'ทดสอบ', level: created.level, is_active: true, is_special: false, deleted: false });
    const renamed = unique('Renamed ');
    expect((await platform.api('PUT', `${BASE}/${created.id}`, { token: marketing.token, body: { name_en: renamed, isSpecial: true } })).status).toBe(200);
    await caughtUp({ name_en: renamed, is_special: true });
    expect((await platform.api('PATCH', `${BASE}/${created.id}/set-active`, { token: marketing.token, body: { isActive: false } })).status).toBe(200);
    await caughtUp({ name_en: renamed, is_active: false, deleted: false });
    expect((await platform.api('DELETE', `${BASE}/${created.id}`, { token: marketing.token })).status).toBe(200);
    await caughtUp({ name_en: renamed, is_active: false, deleted: true });
    const announced = await platform.sql.query(`select count(*)::int as n from cluster.outbox_event where type = 'tier.catalog_changed' and aggregate_id = $1`, [created.id]);
    expect(announced.rows[0].n).toBe(4);
  });
});

describe('member counts', () => {
  it('counts the members whose tier projection points at a tier, per tier and for every live tier', async () => {
    const [gold, silver, empty, deleted] = [await createTier(), await createTier(), await createTier(), await createTier()];
    for (let i = 0; i < 3; i++) await project(randomUUID(), gold.id);
    await project(randomUUID(), silver.id);
    await project(randomUUID(), deleted.id);
    await platform.api('DELETE', `${BASE}/${deleted.id}`, { token: marketing.token });

    const count = (id: string, token = admin.token) => get(`/${id}/members/count`, token);
    expect((await count(gold.id)).body).toEqual({ statusCode: 200, data: { message: expect.any(String), data: { tierId: gold.id, count: 3 } } });
    expect((await count(silver.id, tenant.token)).body.data.data.count).toBe(1);
    expect((await count(empty.id)).body.data.data.count).toBe(0);
    expect((await count(deleted.id)).status).toBe(404);
    expect((await count(gold.id, member.token)).status).toBe(403);
    expect((await get(`/${gold.id}/members/count`)).status).toBe(401);

    const counts = await get('/members/counts', marketing.token);
    expect(counts.status).toBe(200);
    const byTier = new Map((counts.body.data.data as Array<{ tierId: string; count: number }>).map((entry) => [entry.tierId, entry.count]));
    expect([byTier.get(gold.id), byTier.get(silver.id), byTier.get(empty.id), byTier.has(deleted.id)]).toEqual([3, 1, 0, false]);
    const live = Number((await platform.sql.query('select count(*) from cluster.tier where deleted_at is null')).rows[0].count);
    expect(byTier.size).toBeGreaterThan(0);
    expect(byTier.size).toBeLessThanOrEqual(live);
    expect((await get('/members/counts', member.token)).status).toBe(403);
    expect((await get('/members/counts')).status).toBe(401);
  });
});

describe('GraphQL for the admin UI', () => {
  const TIER_QUERY = 'query ($id: ID!, $locale: Locale) { tier(id: $id, locale: $locale) { id name_en name_th level requirement { purchaseAmountHit } benefit { name_en imageUrl } } }';

  it('creates, reads and deletes tiers with typed inputs; tier:manage is needed', async () => {
    const level = freeLevel();
    const mutation = `mutation ($input: CreateTierInput!) { createTier(input: $input) { id name_en level isActive requirement { purchaseAmountHit } benefit { name_en type } } }`;
    const input = { name_en: unique('GQL '), description_en: 'd', level, requirement: { purchaseAmountHit: 10 }, benefit: [{ name_en: 'B', type: 'x' }], imageUrl: 'https://cdn.example.com/t.png' };
    const created = await platform.graphql(mutation, { input }, marketing.token);
    expect(created.body.errors).toBeUndefined();
    const tier = created.body.data.createTier;
    expect(tier).toEqual({ id: expect.any(String), name_en: input.name_en, level, isActive: true, requirement: { purchaseAmountHit: 10 }, benefit: [{ name_en: 'B', type: 'x' }] });

    const read = await platform.graphql(TIER_QUERY, { id: tier.id, locale: 'th' });
    expect(read.body.data.tier).toEqual({ id: tier.id, name_en: null, name_th: input.name_en, level, requirement: { purchaseAmountHit: 10 }, benefit: [{ name_en: null, imageUrl: null }] });

    const forbidden = await platform.graphql(mutation, { input: { ...input, level: freeLevel() } }, tenant.token);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anonymous = await platform.graphql('mutation ($id: ID!) { deleteTier(id: $id) { id } }', { id: tier.id });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const invalid = await platform.graphql(mutation, { input: { ...input, level: freeLevel(), requirement: { purchaseAmountHit: 1.234 } } }, marketing.token);
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'requirement.purchaseAmountHit', message: expect.any(String) }] });

    const removed = await platform.graphql('mutation ($id: ID!) { deleteTier(id: $id) { id deletedAt } }', { id: tier.id }, marketing.token);
    expect(removed.body.data.deleteTier).toEqual({ id: tier.id, deletedAt: expect.stringMatching(ISO_MS) });
    const gone = await platform.graphql(TIER_QUERY, { id: tier.id });
    expect(gone.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', data: { id: tier.id } });
  });
});

describe('Member.tier through federation', () => {
  async function directMember(name: string) {
    const created = await platform.api('POST', '/auth/api/members/direct', { token: admin.token, body: { name, phoneNumber: String(randomInt(100000000, 999999999)) } });
    expect(created.status).toBe(200);
    const found = await platform.api('GET', `/auth/api/members?search=${encodeURIComponent(name)}`, { token: admin.token });
    const [only] = found.body.data.data.data;
    expect(only.name).toBe(name);
    return only.id as string;
  }

  it('shows the projected tier with includeTier on GET /members/:id and GET /members, localized by locale', async () => {
    const tier = await createTier({ name_th: 'แพลทินัม' });
    const tag = unique('fed');
    const withTier = await directMember(`${tag} one`);
    const withoutTier = await directMember(`${tag} two`);
    await project(withTier, tier.id);

    const one = await platform.api('GET', `/auth/api/members/${withTier}?includeTier=true`, { token: admin.token });
    expect(one.status).toBe(200);
    expect(one.body.data.data.tier).toEqual({ id: tier.id, name_en: tier.name_en, name_th: 'แพลทินัม', name_cn: null, level: tier.level });
    const thai = await platform.api('GET', `/auth/api/members/${withTier}?includeTier=true&locale=th`, { token: admin.token });
    expect(thai.body.data.data.tier).toEqual({ id: tier.id, name_en: null, name_th: 'แพลทินัม', name_cn: null, level: tier.level });
    const plain = await platform.api('GET', `/auth/api/members/${withTier}`, { token: admin.token });
    expect(plain.body.data.data).not.toHaveProperty('tier');
    expect((await platform.api('GET', `/auth/api/members/${withoutTier}?includeTier=true`, { token: admin.token })).body.data.data.tier).toBeNull();

    const list = await platform.api('GET', `/auth/api/members?search=${tag}&includeTier=true&locale=cn`, { token: admin.token });
    expect(list.status).toBe(200);
    const tiers = Object.fromEntries(list.body.data.data.data.map((entry: { id: string; tier: unknown }) => [entry.id, entry.tier]));
    expect(tiers).toEqual({ [withTier]: { id: tier.id, name_en: null, name_th: null, name_cn: tier.name_en, level: tier.level }, [withoutTier]: null });
    const listWithout = await platform.api('GET', `/auth/api/members?search=${tag}`, { token: admin.token });
    expect(listWithout.body.data.data.data[0]).not.toHaveProperty('tier');

    // A soft-deleted tier is no tier.
    await platform.api('DELETE', `${BASE}/${tier.id}`, { token: marketing.token });
    expect((await platform.api('GET', `/auth/api/members/${withTier}?includeTier=true`, { token: admin.token })).body.data.data.tier).toBeNull();
  });

  it('resolves Member.tier for many members in one gateway request', async () => {
    const tier = await createTier();
    const tag = unique('many');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await directMember(`${tag} ${i}`));
    await project(ids[0], tier.id);
    await project(ids[2], tier.id);
    const response = await platform.graphql(
      'query ($search: String) { members(search: $search, limit: 10) { data { id tier(locale: en) { id level } } } }',
      { search: tag },
      admin.token,
    );
    expect(response.body.errors).toBeUndefined();
    const byId = Object.fromEntries(response.body.data.members.data.map((entry: { id: string; tier: unknown }) => [entry.id, entry.tier]));
    expect(byId).toEqual({ [ids[0]]: { id: tier.id, level: tier.level }, [ids[1]]: null, [ids[2]]: { id: tier.id, level: tier.level } });
  });
});
