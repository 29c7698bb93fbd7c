import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const { platform, admin, marketing, tenant, member } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 1, beforeClose: () => forgetFixtureMembers() });

const BASE = '/cluster/api';
const DAY_MS = 24 * 3600 * 1000;

/**
 * Tiers inserted with SQL at ODD levels far above anything else (other files use even ones), with no
 * purchase requirement so that automatic tiering never picks them; soft-deleted after each test.
 */
let fixtureTiers: string[] = [];
/** Members this file gave projections or point summaries; their rows are removed at the end. */
const fixtureMembers: string[] = [];
let nextLevel = 1_000_001 + Math.floor(Math.random() * 1_000_000) * 100;
async function createTier(): Promise<string> {
  const id = randomUUID();
  await platform.sql.query(
    `insert into cluster.tier (id, name_en, description_en, level, requirement, is_active, is_special, created_at, updated_at)
     values ($1, $2, 'fixture', $3, '{}', true, false, now(), now())`,
    [id, unique('Tier '), (nextLevel += 2)],
  );
  fixtureTiers.push(id);
  return id;
}
afterEach(async () => {
  await platform.sql.query('update cluster.tier set deleted_at = now() where id = any($1) and deleted_at is null', [fixtureTiers]);
  fixtureTiers = [];
});
async function forgetFixtureMembers() {
  await platform.sql.query('delete from cluster.tier_projection where member_id = any($1)', [fixtureMembers]);
  await platform.sql.query('delete from cluster.member_purchase where member_id = any($1)', [fixtureMembers]);
  await platform.sql.query('delete from cluster.member_profile where member_id = any($1)', [fixtureMembers]);
}

/** A member the cluster domain knows: optionally on a tier, optionally with a point summary. */
async function fixtureMember(spec: { tierId?: string; points?: number | null; pointsAt?: Date | null; updatedAt?: Date; id?: string }): Promise<string> {
  const memberId = spec.id ?? randomUUID();
  fixtureMembers.push(memberId);
  if (spec.tierId) {
    await platform.sql.query(`insert into cluster.tier_projection (id, member_id, tier_id, created_at, updated_at) values ($1, $2, $3, now(), now())`, [
      randomUUID(),
      memberId,
      spec.tierId,
    ]);
  }
  if (spec.points !== undefined || spec.pointsAt !== undefined) {
    await platform.sql.query(`insert into cluster.member_purchase (member_id, purchase_amount, points, points_at, updated_at) values ($1, 0, $2, $3, $4)`, [
      memberId,
      spec.points ?? null,
      spec.pointsAt ?? null,
      spec.updatedAt ?? new Date(),
    ]);
  }
  return memberId;
}
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

const api = (method: string, path: string, token?: string, body?: unknown) => platform.api(method, `${BASE}${path}`, { token, body });
const createSegment = (body: Record<string, unknown>, token = marketing.token) => api('POST', '/segments', token, body);
const fields = (response: { body: any }) => (response.body.data.errors ?? []).map((error: { field: string }) => error.field).sort();
async function ruleSegment(rule: Record<string, unknown>): Promise<string> {
  const response = await createSegment({ name_en: unique('Rule '), type: 'rule', rule });
  expect(response.status).toBe(201);
  return response.body.data.data.id;
}
async function manualSegment(): Promise<string> {
  const response = await createSegment({ name_en: unique('Manual '), type: 'manual' });
  expect(response.status).toBe(201);
  return response.body.data.data.id;
}
const memberIdsOf = async (segmentId: string, query = 'limit=100') => {
  const response = await api('GET', `/segments/${segmentId}/members?${query}`, marketing.token);
  expect(response.status).toBe(200);
  return response.body.data.data.map((item: { memberId: string }) => item.memberId);
};
const sorted = (ids: string[]) => [...ids].sort();

describe('segment CRUD', () => {
  it('creates, reads, lists, updates and soft-deletes a segment', async () => {
    const name = unique('Seg ');
    const created = await createSegment({ name_en: name, name_th: 'กลุ่ม', description_en: 'VIP buyers', type: 'manual' });
    expect(created.status).toBe(201);
    expect(created.body.data.message).toBe('Segment created');
    const segment = created.body.data.data;
    expect(segment).toMatchObject({ name_en: name, name_th: 'กลุ่ม', name_cn: null, description_en: 'VIP buyers', type: 'manual', rule: null, id: expect.any(String) });

    const read = await api('GET', `/segments/${segment.id}?locale=th`, marketing.token);
    expect(read.status).toBe(200);
    expect(read.body.data.data).toMatchObject({ id: segment.id, name_th: 'กลุ่ม', name_en: null, description_th: 'VIP buyers', description_en: null, memberCount: 0 });

    const listed = await api('GET', `/segments?search=${encodeURIComponent(name.toUpperCase())}&type=manual`, marketing.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.meta).toEqual({ page: 1, limit: 10, total: 1, totalPages: 1 });
    expect(listed.body.data.data[0].id).toBe(segment.id);
    expect((await api('GET', `/segments?search=${encodeURIComponent(name)}&type=rule`, marketing.token)).body.data.meta.total).toBe(0);

    const updated = await api('PUT', `/segments/${segment.id}`, marketing.token, { name_en: `${name} 2`, name_th: null });
    expect(updated.status).toBe(200);
    expect(updated.body.data.data).toMatchObject({ name_en: `${name} 2`, name_th: null, description_en: 'VIP buyers', type: 'manual' });

    const deleted = await api('DELETE', `/segments/${segment.id}`, marketing.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.message).toBe('Segment deleted');
    expect((await platform.sql.query('select deleted_at from cluster.segment where id = $1', [segment.id])).rows[0].deleted_at).not.toBeNull();
    const gone = await api('GET', `/segments/${segment.id}`, marketing.token);
    expect(gone.status).toBe(404);
    expect(gone.body.data.data).toEqual({ id: segment.id });
    expect((await api('GET', `/segments?search=${encodeURIComponent(name)}`, marketing.token)).body.data.meta.total).toBe(0);
    expect((await api('PUT', `/segments/${segment.id}`, marketing.token, { name_en: 'x' })).status).toBe(404);
    expect((await api('DELETE', `/segments/${segment.id}`, marketing.token)).status).toBe(404);
    // The deleted segment freed its name.
    expect((await createSegment({ name_en: `${name} 2`, type: 'manual' })).status).toBe(201);
  });

  it('refuses a live duplicate name with 409, case-insensitively', async () => {
    const name = unique('Dup ');
    expect((await createSegment({ name_en: name, type: 'manual' })).status).toBe(201);
    const again = await createSegment({ name_en: name.toUpperCase(), type: 'manual' });
    expect(again.status).toBe(409);
    expect(fields(again)).toEqual(['name_en']);
    const other = await manualSegment();
    const renamed = await api('PUT', `/segments/${other}`, marketing.token, { name_en: name });
    expect(renamed.status).toBe(409);
    expect(fields(renamed)).toEqual(['name_en']);
  });

  it('validates the body and the rule with field errors', async () => {
    const missing = await createSegment({});
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['name_en', 'type']);
    const badType = await createSegment({ name_en: unique('S '), type: 'ai' });
    expect(badType.status).toBe(400);
    expect(fields(badType)).toEqual(['type']);
    const [tierId] = [await createTier()];
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'manual', rule: { minPoints: 1 } }, 'rule'],
      [{ type: 'rule' }, 'rule'],
      [{ type: 'rule', rule: {} }, 'rule'],
      [{ type: 'rule', rule: { birthdayMonth: 13 } }, 'rule.birthdayMonth'],
      [{ type: 'rule', rule: { minPoints: 10, maxPoints: 5 } }, 'rule.maxPoints'],
      [{ type: 'rule', rule: { minPoints: -1 } }, 'rule.minPoints'],
      [{ type: 'rule', rule: { activeWithinDays: 0 } }, 'rule.activeWithinDays'],
      [{ type: 'rule', rule: { tierIds: [randomUUID()] } }, 'rule.tierIds'],
      [{ type: 'rule', rule: { tierIds: [tierId, randomUUID()] } }, 'rule.tierIds'],
    ];
    for (const [body, field] of cases) {
      const response = await createSegment({ name_en: unique('S '), ...body });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(fields(response)).toEqual([field]);
    }
    const badUuid = await createSegment({ name_en: unique('S '), type: 'rule', rule: { tierIds: ['nope'] } });
    expect(badUuid.status).toBe(400);
    expect(fields(badUuid)[0]).toMatch(/^rule\.tierIds/);
    // A rule update is checked the same way; a deleted tier is no longer a valid criterion.
    const segment = await ruleSegment({ tierIds: [tierId] });
    await platform.sql.query('update cluster.tier set deleted_at = now() where id = $1', [tierId]);
    const stale = await api('PUT', `/segments/${segment}`, marketing.token, { rule: { tierIds: [tierId] } });
    expect(stale.status).toBe(400);
    expect(fields(stale)).toEqual(['rule.tierIds']);
    expect((await api('GET', `/segments/not-a-uuid`, marketing.token)).status).toBe(400);
    expect((await api('GET', `/segments/${randomUUID()}`, marketing.token)).status).toBe(404);
  });

  it('needs a token, segment:read to read and segment:manage to write', async () => {
    const segment = await manualSegment();
    expect((await api('GET', '/segments')).status).toBe(401);
    expect((await createSegment({ name_en: unique('S '), type: 'manual' }, '')).status).toBe(401);
    for (const token of [member.token, tenant.token]) {
      expect((await api('GET', '/segments', token)).status).toBe(403);
      expect((await api('GET', `/segments/${segment}`, token)).status).toBe(403);
      expect((await api('GET', `/segments/${segment}/members`, token)).status).toBe(403);
      expect((await api('GET', `/segments/members/${randomUUID()}`, token)).status).toBe(403);
      expect((await createSegment({ name_en: unique('S '), type: 'manual' }, token)).status).toBe(403);
      expect((await api('PUT', `/segments/${segment}`, token, { name_en: 'x' })).status).toBe(403);
      expect((await api('DELETE', `/segments/${segment}`, token)).status).toBe(403);
      expect((await api('POST', `/segments/${segment}/members`, token, { memberIds: [member.id] })).status).toBe(403);
      expect((await api('POST', `/segments/${segment}/members/remove`, token, { memberIds: [member.id] })).status).toBe(403);
    }
    // A member reads its own segments (the v1 customer's /customers/{id}/segments), a tenant nobody's.
    expect((await api('GET', `/segments/members/${member.id}`, member.token)).status).toBe(200);
    expect((await api('GET', `/segments/members/${member.id}`, tenant.token)).status).toBe(403);
    expect((await api('GET', `/segments/${segment}`, admin.token)).status).toBe(200);
  });
});

describe('manual membership', () => {
  it('adds and removes members idempotently and lists them, newest first, with the federated member', async () => {
    const segment = await manualSegment();
    const [first, second] = await Promise.all([platform.loginMember(), platform.loginMember()]);
    const added = await api('POST', `/segments/${segment}/members`, marketing.token, { memberIds: [first.id, first.id] });
    expect(added.status).toBe(200);
    expect(added.body.data.data).toEqual({ segmentId: segment, changed: 1, memberCount: 1 });
    const more = await api('POST', `/segments/${segment}/members`, marketing.token, { memberIds: [first.id, second.id] });
    expect(more.body.data.data).toEqual({ segmentId: segment, changed: 1, memberCount: 2 });

    const page = await api('GET', `/segments/${segment}/members?limit=1&page=1&includeMember=true`, marketing.token);
    expect(page.status).toBe(200);
    expect(page.body.data.meta).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(page.body.data.data).toEqual([{ memberId: second.id, addedAt: expect.any(String), member: expect.objectContaining({ id: second.id, status: expect.any(String) }) }]);
    const next = await api('GET', `/segments/${segment}/members?limit=1&page=2`, marketing.token);
    expect(next.body.data.data).toEqual([{ memberId: first.id, addedAt: expect.any(String) }]);

    const mine = await api('GET', `/segments/members/${first.id}`, marketing.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.data.map((item: { id: string }) => item.id)).toContain(segment);

    const removed = await api('POST', `/segments/${segment}/members/remove`, marketing.token, { memberIds: [first.id, randomUUID()] });
    expect(removed.status).toBe(200);
    expect(removed.body.data.data).toEqual({ segmentId: segment, changed: 1, memberCount: 1 });
    const again = await api('POST', `/segments/${segment}/members/remove`, marketing.token, { memberIds: [first.id] });
    expect(again.body.data.data).toEqual({ segmentId: segment, changed: 0, memberCount: 1 });
    expect(await memberIdsOf(segment)).toEqual([second.id]);
    expect((await api('GET', `/segments/members/${first.id}`, marketing.token)).body.data.data.map((item: { id: string }) => item.id)).not.toContain(segment);

    // A deleted segment leaves the member's segments.
    await api('DELETE', `/segments/${segment}`, marketing.token);
    expect((await api('GET', `/segments/members/${second.id}`, marketing.token)).body.data.data).toEqual([]);
    expect((await api('POST', `/segments/${segment}/members`, marketing.token, { memberIds: [second.id] })).status).toBe(404);
  });

  it('refuses members for a rule segment (400), unknown segments (404) and bad ids (400)', async () => {
    const tierId = await createTier();
    const rule = await ruleSegment({ tierIds: [tierId] });
    const onRule = await api('POST', `/segments/${rule}/members`, marketing.token, { memberIds: [member.id] });
    expect(onRule.status).toBe(400);
    expect(fields(onRule)).toEqual(['id']);
    expect((await api('POST', `/segments/${rule}/members/remove`, marketing.token, { memberIds: [member.id] })).status).toBe(400);
    expect((await api('POST', `/segments/${randomUUID()}/members`, marketing.token, { memberIds: [member.id] })).status).toBe(404);
    expect((await api('GET', `/segments/${randomUUID()}/members`, marketing.token)).status).toBe(404);
    const segment = await manualSegment();
    const empty = await api('POST', `/segments/${segment}/members`, marketing.token, { memberIds: [] });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual(['memberIds']);
    const missing = await api('POST', `/segments/${segment}/members`, marketing.token, {});
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['memberIds']);
    const bad = await api('POST', `/segments/${segment}/members`, marketing.token, { memberIds: ['nope'] });
    expect(bad.status).toBe(400);
    expect(fields(bad)[0]).toMatch(/^memberIds/);
    const badPage = await api('GET', `/segments/${segment}/members?limit=101`, marketing.token);
    expect(badPage.status).toBe(400);
    expect(fields(badPage)).toEqual(['limit']);
    expect((await api('GET', `/segments/members/nope`, marketing.token)).status).toBe(400);
  });
});

describe('rule segments, evaluated on read', () => {
  it('by tier: members projected on one of the tiers', async () => {
    const [gold, silver, bronze] = [await createTier(), await createTier(), await createTier()];
    const onGold = await fixtureMember({ tierId: gold });
    const onSilver = await fixtureMember({ tierId: silver, points: 5, pointsAt: new Date() });
    await fixtureMember({ tierId: bronze });
    const segment = await ruleSegment({ tierIds: [gold, silver] });
    expect(await memberIdsOf(segment)).toEqual(sorted([onGold, onSilver]));
    const read = await api('GET', `/segments/${segment}`, marketing.token);
    expect(read.body.data.data).toMatchObject({ type: 'rule', rule: { tierIds: [gold, silver], minPoints: null, maxPoints: null, activeWithinDays: null }, memberCount: 2 });
    const members = await api('GET', `/segments/${segment}/members?limit=1&page=2`, marketing.token);
    expect(members.body.data.meta).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(members.body.data.data).toEqual([{ memberId: sorted([onGold, onSilver])[1], addedAt: null }]);

    // Evaluated on read: a tier move shows at once.
    await platform.sql.query('update cluster.tier_projection set tier_id = $1 where member_id = $2', [bronze, onGold]);
    expect(await memberIdsOf(segment)).toEqual([onSilver]);
    expect((await api('GET', `/segments/members/${onGold}`, marketing.token)).body.data.data.map((item: { id: string }) => item.id)).not.toContain(segment);
    expect((await api('GET', `/segments/members/${onSilver}`, marketing.token)).body.data.data).toContainEqual(expect.objectContaining({ id: segment, type: 'rule' }));
  });

  it('by point balance range: the balance last announced by point events, bounds included', async () => {
    // A band of balances nobody else in the shared database has.
    const base = 900_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    const atMin = await fixtureMember({ points: base, pointsAt: new Date() });
    const inside = await fixtureMember({ points: base + 50.5, pointsAt: new Date() });
    const atMax = await fixtureMember({ points: base + 100, pointsAt: new Date() });
    await fixtureMember({ points: base + 100.01, pointsAt: new Date() });
    await fixtureMember({ points: base - 0.01, pointsAt: new Date() });
    const segment = await ruleSegment({ minPoints: base, maxPoints: base + 100 });
    expect(await memberIdsOf(segment)).toEqual(sorted([atMin, inside, atMax]));
    const onlyMin = await ruleSegment({ minPoints: base + 50 });
    expect(await memberIdsOf(onlyMin)).toEqual(expect.arrayContaining([inside, atMax]));
    expect(await memberIdsOf(onlyMin)).not.toContain(atMin);

    await platform.sql.query('update cluster.member_purchase set points = $1 where member_id = $2', [base + 200, inside]);
    expect(await memberIdsOf(segment)).toEqual(sorted([atMin, atMax]));
    const onlyMax = await ruleSegment({ maxPoints: base + 60, tierIds: [await createTier()] });
    expect(await memberIdsOf(onlyMax)).toEqual([]);
  });

  it('by last activity: a point event within N days (the processing time without an event time)', async () => {
    const tierId = await createTier();
    const recent = await fixtureMember({ tierId, points: 1, pointsAt: daysAgo(2), updatedAt: daysAgo(2) });
    await fixtureMember({ tierId, points: 1, pointsAt: daysAgo(10), updatedAt: daysAgo(1) });
    const noEventTime = await fixtureMember({ tierId, points: null, pointsAt: null, updatedAt: daysAgo(1) });
    await fixtureMember({ tierId });
    const segment = await ruleSegment({ tierIds: [tierId], activeWithinDays: 5 });
    expect(await memberIdsOf(segment)).toEqual(sorted([recent, noEventTime]));
    const wider = await api('PUT', `/segments/${segment}`, marketing.token, { rule: { tierIds: [tierId], activeWithinDays: 30 } });
    expect(wider.status).toBe(200);
    expect(wider.body.data.data.rule).toEqual({ tierIds: [tierId], minPoints: null, maxPoints: null, activeWithinDays: 30 });
    expect(await memberIdsOf(segment)).toHaveLength(3);
  });

  it('by birthday month: from the birth date the auth service announces with every profile change', async () => {
    const born = await platform.loginMember();
    fixtureMembers.push(born.id);
    expect((await platform.api('PUT', '/auth/api/members/me', { token: born.token, body: { birthDate: '1990-05-17' } })).status).toBe(200);
    const birthMonth = async () =>
      (await platform.sql.query('select birth_month from cluster.member_profile where member_id = $1', [born.id])).rows[0]?.birth_month;
    await waitFor(async () => (await birthMonth()) === 5, 'the birth month in the cluster domain', 15_000);
    const may = await ruleSegment({ birthdayMonth: 5 });
    const june = await ruleSegment({ birthdayMonth: 6 });
    expect(await memberIdsOf(may)).toContain(born.id);
    expect(await memberIdsOf(june)).not.toContain(born.id);
    expect((await api('GET', `/segments/members/${born.id}`, marketing.token)).body.data.data.map((item: { id: string }) => item.id)).toContain(may);
  });

  it('combines criteria with AND, and lists a member in every segment it matches', async () => {
    const tierId = await createTier();
    const rich = await fixtureMember({ tierId, points: 500, pointsAt: new Date() });
    const poor = await fixtureMember({ tierId, points: 10, pointsAt: new Date() });
    const segment = await ruleSegment({ tierIds: [tierId], minPoints: 100 });
    expect(await memberIdsOf(segment)).toEqual([rich]);
    const manual = await manualSegment();
    await api('POST', `/segments/${manual}/members`, marketing.token, { memberIds: [poor] });
    const ofPoor = await api('GET', `/segments/members/${poor}?locale=th`, marketing.token);
    expect(ofPoor.status).toBe(200);
    const ids = ofPoor.body.data.data.map((item: { id: string }) => item.id);
    expect(ids).toContain(manual);
    expect(ids).not.toContain(segment);
    expect((await api('GET', `/segments/members/${rich}`, marketing.token)).body.data.data.map((item: { id: string }) => item.id)).toContain(segment);
  });
});

describe('interests', () => {
  const createCategory = (body: Record<string, unknown>, token = marketing.token) => api('POST', '/interests/categories', token, body);
  async function category(): Promise<{ id: string; name_en: string; name_th: string }> {
    const name_en = unique('Interest ');
    const name_th = unique('ความสนใจ ');
    const response = await createCategory({ name_en, name_th });
    expect(response.status).toBe(201);
    return { id: response.body.data.data.id, name_en, name_th };
  }

  it('manages categories (staff) and lists them to any token, localized', async () => {
    const created = await createCategory({ name_en: unique('Golf '), name_th: 'กอล์ฟ' });
    expect(created.status).toBe(201);
    const golf = created.body.data.data;
    expect(golf).toMatchObject({ name_th: 'กอล์ฟ', name_cn: null });
    const list = await api('GET', '/interests/categories?locale=th', member.token);
    expect(list.status).toBe(200);
    expect(list.body.data.data).toContainEqual(expect.objectContaining({ id: golf.id, name_th: 'กอล์ฟ', name_en: null }));
    const updated = await api('PUT', `/interests/categories/${golf.id}`, marketing.token, { name_cn: '高尔夫' });
    expect(updated.status).toBe(200);
    expect(updated.body.data.data).toMatchObject({ name_en: golf.name_en, name_cn: '高尔夫' });
    const duplicate = await createCategory({ name_en: golf.name_en.toLowerCase() });
    expect(duplicate.status).toBe(409);
    expect(fields(duplicate)).toEqual(['name_en']);
    const deleted = await api('DELETE', `/interests/categories/${golf.id}`, marketing.token);
    expect(deleted.status).toBe(200);
    expect((await api('GET', '/interests/categories', member.token)).body.data.data.map((item: { id: string }) => item.id)).not.toContain(golf.id);
    expect((await api('PUT', `/interests/categories/${golf.id}`, marketing.token, { name_th: 'x' })).status).toBe(404);
    expect((await api('DELETE', `/interests/categories/${golf.id}`, marketing.token)).status).toBe(404);
  });

  it('validates category bodies and needs segment:manage to change them', async () => {
    const missing = await createCategory({ name_th: 'x' });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['name_en']);
    const empty = await createCategory({ name_en: '' });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual(['name_en']);
    const existing = await category();
    const cleared = await api('PUT', `/interests/categories/${existing.id}`, marketing.token, { name_en: null });
    expect(cleared.status).toBe(400);
    expect([...new Set(fields(cleared))]).toEqual(['name_en']);
    expect((await api('GET', '/interests/categories')).status).toBe(401);
    for (const token of [member.token, tenant.token]) {
      expect((await createCategory({ name_en: unique('I ') }, token)).status).toBe(403);
      expect((await api('PUT', `/interests/categories/${existing.id}`, token, { name_th: 'x' })).status).toBe(403);
      expect((await api('DELETE', `/interests/categories/${existing.id}`, token)).status).toBe(403);
    }
  });

  it("replaces a member's own set; an unknown or deleted category is 400 and changes nothing", async () => {
    const [books, music, travel] = [await category(), await category(), await category()];
    const me = await platform.loginMember();
    expect((await api('GET', '/interests/me', me.token)).body.data.data).toEqual([]);
    const first = await api('PUT', '/interests/me', me.token, { categoryIds: [books.id, music.id, books.id] });
    expect(first.status).toBe(200);
    expect(sorted(first.body.data.data.map((item: { id: string }) => item.id))).toEqual(sorted([books.id, music.id]));
    const second = await api('PUT', '/interests/me?locale=th', me.token, { categoryIds: [music.id, travel.id] });
    expect(sorted(second.body.data.data.map((item: { id: string }) => item.id))).toEqual(sorted([music.id, travel.id]));
    expect(second.body.data.data).toContainEqual({ id: travel.id, name_th: travel.name_th, name_en: null, name_cn: null });
    const rows = await platform.sql.query('select category_id from cluster.member_interest where member_id = $1', [me.id]);
    expect(sorted(rows.rows.map((row) => row.category_id))).toEqual(sorted([music.id, travel.id]));

    const unknown = await api('PUT', '/interests/me', me.token, { categoryIds: [books.id, randomUUID()] });
    expect(unknown.status).toBe(400);
    expect(fields(unknown)).toEqual(['categoryIds']);
    const bad = await api('PUT', '/interests/me', me.token, { categoryIds: ['nope'] });
    expect(bad.status).toBe(400);
    expect(fields(bad)[0]).toMatch(/^categoryIds/);
    expect(sorted((await api('GET', '/interests/me', me.token)).body.data.data.map((item: { id: string }) => item.id))).toEqual(sorted([music.id, travel.id]));

    // Staff read a member's interests; a deleted category leaves them.
    await api('DELETE', `/interests/categories/${travel.id}`, marketing.token);
    const byStaff = await api('GET', `/interests/members/${me.id}`, marketing.token);
    expect(byStaff.status).toBe(200);
    expect(byStaff.body.data.data.map((item: { id: string }) => item.id)).toEqual([music.id]);
    const deleted = await api('PUT', '/interests/me', me.token, { categoryIds: [travel.id] });
    expect(deleted.status).toBe(400);

    const cleared = await api('PUT', '/interests/me', me.token, { categoryIds: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.data).toEqual([]);
    expect((await api('GET', `/interests/members/${me.id}`, admin.token)).body.data.data).toEqual([]);
  });

  it('keeps /me for members and the member read for segment:read', async () => {
    expect((await api('GET', '/interests/me')).status).toBe(401);
    expect((await api('PUT', '/interests/me', undefined, { categoryIds: [] })).status).toBe(401);
    expect((await api('GET', '/interests/me', marketing.token)).status).toBe(403);
    expect((await api('PUT', '/interests/me', marketing.token, { categoryIds: [] })).status).toBe(403);
    expect((await api('GET', `/interests/members/${member.id}`, member.token)).status).toBe(403);
    expect((await api('GET', `/interests/members/${member.id}`, tenant.token)).status).toBe(403);
    expect((await api('GET', `/interests/members/${member.id}`)).status).toBe(401);
    expect((await api('GET', '/interests/members/nope', marketing.token)).status).toBe(400);
    const missing = await api('PUT', '/interests/me', member.token, {});
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['categoryIds']);
  });
});

describe('GraphQL', () => {
  it('creates a rule segment and reads its members with the federated member, and the member segments', async () => {
    const tierId = await createTier();
    const someone = await platform.loginMember();
    await fixtureMember({ id: someone.id, tierId });
    const created = await platform.graphql(
      `mutation ($input: CreateSegmentInput!) { createSegment(input: $input) { id type rule { tierIds } } }`,
      { input: { name_en: unique('GQL '), type: 'rule', rule: { tierIds: [tierId] } } },
      marketing.token,
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createSegment.id;
    expect(created.body.data.createSegment).toEqual({ id, type: 'rule', rule: { tierIds: [tierId] } });
    const read = await platform.graphql(
      `query ($id: ID!, $memberId: ID!) {
        segment(id: $id) { memberCount }
        segmentMembers(id: $id) { meta { total } data { memberId addedAt member { id status } } }
        memberSegments(memberId: $memberId) { id } }`,
      { id, memberId: someone.id },
      marketing.token,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.segment).toEqual({ memberCount: 1 });
    expect(read.body.data.segmentMembers).toEqual({ meta: { total: 1 }, data: [{ memberId: someone.id, addedAt: null, member: { id: someone.id, status: expect.any(String) } }] });
    expect(read.body.data.memberSegments).toContainEqual({ id });
    const denied = await platform.graphql(`query { segments { meta { total } } }`, {}, someone.token);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
