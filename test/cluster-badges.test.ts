import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { PublishedEvent } from '../core/events/outbox-event';
import { createLogger } from '../core/logger';
import { CLUSTER_QUEUES } from '../subgraphs/cluster/queues';

const CLUSTER_BADGES_QUEUE = CLUSTER_QUEUES.badges;
import { png } from './support/images';
import { TestMember, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { sendAndWait, waitFor } from './support/wait-for';

/** Badges apply to every member's events: ours are soft-deleted at the end so other files' events skip them. */
let createdBadges: string[] = [];
const { platform, admin, marketing, tenant } = usePlatform({
  staff: ['admin', 'marketing', 'tenant'],
  beforeClose: (running) => running.sql.query('update cluster.badge set deleted_at = now() where id = any($1) and deleted_at is null', [createdBadges]),
});
let boss: PgBoss;
beforeAll(async () => {
  boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
});
afterAll(() => stopJobQueue(boss));

const BASE = '/cluster/api';
const fieldsOf = (response: { body: any }) => [...new Set((response.body.data.errors ?? []).map((error: { field: string }) => error.field))];
const inHours = (hours: number) => new Date(Date.now() + hours * 3600 * 1000).toISOString();

async function sendForm(method: 'POST' | 'PUT', path: string, fields: Record<string, string>, token: string, image: Blob | null = null) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (image) form.append('image', image, 'badge.png');
  const response = await fetch(`${platform.restUrl}${BASE}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any };
}
const badgeFields = (rule: object, overrides: Record<string, string> = {}) => ({
  name_en: unique('Badge '),
  name_th: unique('TH '),
  description_en: 'A badge for tests',
  rule: JSON.stringify(rule),
  ...overrides,
});
async function createBadge(rule: object, overrides: Record<string, string> = {}, image: Blob | null = null) {
  const response = await sendForm('POST', '/badges', badgeFields(rule, overrides), marketing.token, image);
  expect(response.status).toBe(201);
  createdBadges.push(response.body.data.data.id);
  return response.body.data.data as { id: string; name_en: string; rule: Record<string, unknown>; isActive: boolean; imageUrl: string | null };
}
const ANONYMOUS = '';
const get = (path: string, token: string = marketing.token) => platform.api('GET', `${BASE}${path}`, { token });

// Point events: earned through the point service, followed until the badge consumer applied them.
const earn = async (member: TestMember, purchaseAmount: number, extra: { shopId?: string; categoryId?: string } = {}) => {
  const response = await platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId: member.id, amount: 1, purchaseAmount, ...extra } });
  expect(response.status).toBe(200);
};
const progressRow = async (memberId: string, badgeId: string) =>
  (
    await platform.sql.query(
      `select id, current_value::float as current, goal_value::float as goal, is_completed, completed_at from cluster.badge_member_progress where member_id = $1 and badge_id = $2`,
      [memberId, badgeId],
    )
  ).rows[0] as { id: string; current: number; goal: number; is_completed: boolean; completed_at: Date | null } | undefined;
const completions = async (memberId: string, badgeId: string) =>
  (
    await platform.sql.query(`select payload from cluster.outbox_event where type = 'badge.completed' and payload->>'memberId' = $1 and payload->>'badgeId' = $2`, [
      memberId,
      badgeId,
    ])
  ).rows.map((row) => row.payload);
/** Waits until the badge consumer applied every point event of the member so far (its position reached the last one). */
async function settled(memberId: string): Promise<void> {
  await waitFor(async () => {
    const { rows } = await platform.sql.query(
      `select (select max(sequence) from point.outbox_event where aggregate_id = $1 and type in ('points.earned', 'points.redeemed'))::text as last_event,
              (select last_sequence from cluster.event_position where queue = $2 and source = 'point' and aggregate_id = $1)::text as applied`,
      [memberId, CLUSTER_BADGES_QUEUE],
    );
    return rows[0].last_event !== null && rows[0].last_event === rows[0].applied;
  }, `badge consumer to apply the events of ${memberId}`);
}
const completedRow = (memberId: string, badgeId: string) => waitFor(async () => (await progressRow(memberId, badgeId))?.is_completed && progressRow(memberId, badgeId), 'completed progress');

const fakeEvent = (memberId: string, createdAt: string, purchaseAmount: number, extra: object = {}): PublishedEvent => ({
  id: randomUUID(),
  type: 'points.earned',
  occurredAt: createdAt,
  data: { transactionId: randomUUID(), memberId, actionType: 'EARN', amount: '1.00', purchaseAmount: purchaseAmount.toFixed(2), balanceAfter: '1.00', createdAt, ...extra },
});

/** Tiers of this file: ODD levels far above the other files' fixture tiers, soft-deleted after each test. */
let fixtureTiers: string[] = [];
let nextLevel = 900_000_001 + Math.floor(Math.random() * 10_000_000) * 2;
/** Special tiers keep their members (automatic tiering never moves them out), so tierCondition tests see a stable tier. */
async function createTier(purchaseAmountHit?: number, special = false): Promise<string> {
  const id = randomUUID();
  await platform.sql.query(
    `insert into cluster.tier (id, name_en, description_en, level, requirement, is_active, is_special, created_at, updated_at)
     values ($1, $2, 'fixture', $3, $4, true, $5, now(), now())`,
    [id, unique('Tier '), (nextLevel += 2), JSON.stringify(purchaseAmountHit === undefined ? {} : { purchaseAmountHit }), special],
  );
  fixtureTiers.push(id);
  return id;
}
afterEach(async () => {
  await platform.sql.query('update cluster.tier set deleted_at = now() where id = any($1) and deleted_at is null', [fixtureTiers]);
  fixtureTiers = [];
});

describe('POST /badges', () => {
  it('creates a badge from a multipart form (201), storing the image and defaulting isActive to true', async () => {
    const rule = { type: 'totalPurchaseAmount', purchaseAmount: 500, minSpend: 10, window: { start: '2026-01-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' } };
    const fields = badgeFields(rule);
    const response = await sendForm('POST', '/badges', fields, marketing.token, png());
    expect(response.status).toBe(201);
    expect(response.body.data.message).toEqual(expect.any(String));
    const badge = response.body.data.data;
    createdBadges.push(badge.id);
    expect(badge).toMatchObject({ id: expect.any(String), name_en: fields.name_en, isActive: true, rule: { type: 'totalPurchaseAmount', purchaseAmount: 500, minSpend: 10, window: rule.window } });
    expect(badge.imageUrl).toMatch(/^https?:\/\/.+/);
    const { rows } = await platform.sql.query('select name_en, name_th, rule, image_url, is_active from cluster.badge where id = $1', [badge.id]);
    expect(rows[0]).toEqual({ name_en: fields.name_en, name_th: fields.name_th, rule, image_url: badge.imageUrl, is_active: true });
  });

  it('keeps isActive false and a text imageUrl when given', async () => {
    const badge = await createBadge({ type: 'firstTime' }, { isActive: 'false', imageUrl: 'https://example.com/b.png' });
    expect(badge.isActive).toBe(false);
    expect(badge.imageUrl).toBe('https://example.com/b.png');
  });

  it('answers 400 on the field for missing or too long texts, bad JSON and incomplete rules', async () => {
    const noName = await sendForm('POST', '/badges', { description_en: 'd', rule: JSON.stringify({ type: 'firstTime' }) }, marketing.token);
    expect(noName.status).toBe(400);
    expect(fieldsOf(noName)).toContain('name_en');
    const long = await sendForm('POST', '/badges', badgeFields({ type: 'firstTime' }, { name_en: 'x'.repeat(257) }), marketing.token);
    expect(long.status).toBe(400);
    expect(fieldsOf(long)).toEqual(['name_en']);
    const badJson = await sendForm('POST', '/badges', badgeFields({}, { rule: '{"type": "firstTime"' }), marketing.token);
    expect(badJson.status).toBe(400);
    expect(fieldsOf(badJson)).toEqual(['rule']);
    const noRule = await sendForm('POST', '/badges', { name_en: 'n', description_en: 'd' }, marketing.token);
    expect(noRule.status).toBe(400);
    expect(fieldsOf(noRule).join()).toMatch(/rule/);
    const badType = await sendForm('POST', '/badges', badgeFields({ type: 'birthday' }), marketing.token);
    expect(badType.status).toBe(400);
    expect(fieldsOf(badType).join()).toMatch(/^rule/);
    const noGoal = await sendForm('POST', '/badges', badgeFields({ type: 'totalPurchaseAmount' }), marketing.token);
    expect(noGoal.status).toBe(400);
    expect(fieldsOf(noGoal)).toEqual(['rule.purchaseAmount']);
    const noWindow = await sendForm('POST', '/badges', badgeFields({ type: 'specialDay' }), marketing.token);
    expect(noWindow.status).toBe(400);
    expect(fieldsOf(noWindow)).toEqual(['rule.window']);
    const badTier = await sendForm('POST', '/badges', badgeFields({ type: 'firstTime', tierCondition: { type: 'maybe', tierIds: [] } }), marketing.token);
    expect(badTier.status).toBe(400);
    expect(fieldsOf(badTier).join()).toMatch(/^rule\.tierCondition/);
    for (const imageUrl of ['javascript:alert(document.cookie)', 'data:image/svg+xml,<svg onload=alert(1)>', '//evil.example/x.png']) {
      const badImage = await sendForm('POST', '/badges', badgeFields({ type: 'firstTime' }, { imageUrl }), marketing.token);
      expect({ imageUrl, status: badImage.status, fields: fieldsOf(badImage) }).toEqual({ imageUrl, status: 400, fields: ['imageUrl'] });
    }
  });

  it('answers 401 without a token and 403 without badge:manage', async () => {
    const fields = badgeFields({ type: 'firstTime' });
    expect((await sendForm('POST', '/badges', fields, '')).status).toBe(401);
    expect((await sendForm('POST', '/badges', fields, tenant.token)).status).toBe(403);
    const member = await platform.loginMember();
    expect((await sendForm('POST', '/badges', fields, member.token)).status).toBe(403);
    const { rows } = await platform.sql.query('select count(*)::int as n from cluster.badge where name_en = $1', [fields.name_en]);
    expect(rows[0].n).toBe(0);
    expect((await sendForm('POST', '/badges', fields, admin.token)).status).toBe(201);
    createdBadges.push((await platform.sql.query('select id from cluster.badge where name_en = $1', [fields.name_en])).rows[0].id);
  });
});

describe('GET /badges and /badges/:id', () => {
  it('lists live active badges paginated in data.data, with search, includeInActive, includeDeletedAt, locale and includeMemberCount', async () => {
    const tag = unique('list');
    const active = await createBadge({ type: 'firstTime' }, { name_en: `${tag} active`, name_th: `${tag} ไทย` });
    const inactive = await createBadge({ type: 'firstTime' }, { name_en: `${tag} inactive`, isActive: 'false' });
    const deleted = await createBadge({ type: 'firstTime' }, { name_en: `${tag} deleted` });
    expect((await platform.api('DELETE', `${BASE}/badges/${deleted.id}`, { token: marketing.token })).status).toBe(200);

    const plain = await get(`/badges?search=${tag}&limit=10`);
    expect(plain.status).toBe(200);
    expect(plain.body.data.message).toEqual(expect.any(String));
    expect(plain.body.data.data.meta).toEqual({ page: 1, limit: 10, total: 1, totalPages: 1 });
    expect(plain.body.data.data.data.map((badge: { id: string }) => badge.id)).toEqual([active.id]);
    expect(plain.body.data.data.data[0].memberCount).toBeUndefined();

    const all = await get(`/badges?search=${tag}&includeInActive=true&includeDeletedAt=true&includeMemberCount=true`);
    expect(all.body.data.data.data.map((badge: { id: string }) => badge.id).sort()).toEqual([active.id, inactive.id, deleted.id].sort());
    expect(all.body.data.data.data.every((badge: { memberCount: number }) => badge.memberCount === 0)).toBe(true);

    const byThai = await get(`/badges?search=${encodeURIComponent(`${tag} ไทย`)}&locale=th`);
    expect(byThai.body.data.data.data).toHaveLength(1);
    expect(byThai.body.data.data.data[0]).toMatchObject({ name_th: `${tag} ไทย`, name_en: null, description_th: 'A badge for tests' });

    const paged = await get(`/badges?search=${tag}&includeInActive=true&limit=1&page=2`);
    expect(paged.body.data.data.meta).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(paged.body.data.data.data).toHaveLength(1);

    expect((await get('/badges', ANONYMOUS)).status).toBe(401);
    const member = await platform.loginMember();
    expect((await get(`/badges?search=${tag}`, member.token)).body.data.data.meta.total).toBe(1);
  });

  it('reads one badge with includeTierInfo and includeTotalAchievers; 404 for unknown and deleted ones', async () => {
    const tierId = await createTier();
    const category = unique('cat');
    // Tier ids are plain strings (Part 1, convention 5): one that names no tier is kept, and matches nobody.
    const tierIds = [tierId, 'legacy-gold'];
    const badge = await createBadge({ type: 'categoryPurchase', purchaseCount: 1, categoryIdsIncluded: [category], tierCondition: { type: 'exclude', tierIds } });
    const plain = await get(`/badges/${badge.id}`);
    expect(plain.status).toBe(200);
    expect(plain.body.data.data).toMatchObject({ id: badge.id, rule: { type: 'categoryPurchase', tierCondition: { type: 'exclude', tierIds } } });
    expect(plain.body.data.data.tiers).toBeUndefined();
    expect(plain.body.data.data.totalAchievers).toBeUndefined();

    const [done, started] = [await platform.loginMember(), await platform.loginMember()];
    await earn(done, 10, { categoryId: category });
    await earn(started, 10, { categoryId: unique('other') });
    await completedRow(done.id, badge.id);
    await settled(started.id);

    const full = await get(`/badges/${badge.id}?includeTierInfo=true&includeTotalAchievers=true&locale=en`);
    expect(full.body.data.data.totalAchievers).toBe(1);
    expect(full.body.data.data.tiers).toEqual([expect.objectContaining({ id: tierId, level: expect.any(Number) })]);
    const list = await get(`/badges?search=${encodeURIComponent(badge.name_en)}&includeMemberCount=true`);
    expect(list.body.data.data.data[0].memberCount).toBe(1);

    const missing = await get(`/badges/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect((await get(`/badges/not-a-uuid`)).status).toBe(400);
    expect((await get(`/badges/${badge.id}`, ANONYMOUS)).status).toBe(401);
    await platform.api('DELETE', `${BASE}/badges/${badge.id}`, { token: marketing.token });
    expect((await get(`/badges/${badge.id}`)).status).toBe(404);
  });
});

describe('PUT, PATCH set-active and DELETE /badges/:id', () => {
  it('changes the given fields only (multipart, all optional), replaces the rule and stores a new image', async () => {
    const badge = await createBadge({ type: 'purchaseCount', purchaseCount: 3 }, { description_th: 'คำอธิบาย' });
    const response = await sendForm('PUT', `/badges/${badge.id}`, { name_cn: '徽章', rule: JSON.stringify({ type: 'purchaseCount', purchaseCount: 5, minSpend: 20 }) }, marketing.token, png());
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toMatchObject({ id: badge.id, name_en: badge.name_en, name_cn: '徽章', description_th: 'คำอธิบาย', rule: { type: 'purchaseCount', purchaseCount: 5, minSpend: 20, purchaseAmount: null } });
    expect(response.body.data.data.imageUrl).toMatch(/^https?:\/\//);
    const empty = await sendForm('PUT', `/badges/${badge.id}`, {}, marketing.token);
    expect(empty.status).toBe(200);
    expect(empty.body.data.data.name_cn).toBe('徽章');
    const badRule = await sendForm('PUT', `/badges/${badge.id}`, { rule: 'nope' }, marketing.token);
    expect(badRule.status).toBe(400);
    expect(fieldsOf(badRule)).toEqual(['rule']);
    expect((await sendForm('PUT', `/badges/${badge.id}`, { name_en: '' }, marketing.token)).status).toBe(400);
    expect((await sendForm('PUT', `/badges/${randomUUID()}`, { name_th: 'x' }, marketing.token)).status).toBe(404);
    expect((await sendForm('PUT', `/badges/${badge.id}`, { name_th: 'x' }, tenant.token)).status).toBe(403);
    expect((await sendForm('PUT', `/badges/${badge.id}`, { name_th: 'x' }, '')).status).toBe(401);
  });

  it('activates and deactivates, and soft-deletes (the row stays with deletedAt)', async () => {
    const badge = await createBadge({ type: 'firstTime' });
    const off = await platform.api('PATCH', `${BASE}/badges/${badge.id}/set-active`, { token: marketing.token, body: { isActive: false } });
    expect(off.status).toBe(200);
    expect(off.body.data.message).toEqual(expect.any(String));
    expect((await platform.sql.query('select is_active from cluster.badge where id = $1', [badge.id])).rows[0].is_active).toBe(false);
    expect((await platform.api('PATCH', `${BASE}/badges/${badge.id}/set-active`, { token: marketing.token, body: {} })).status).toBe(400);
    expect((await platform.api('PATCH', `${BASE}/badges/${badge.id}/set-active`, { token: tenant.token, body: { isActive: true } })).status).toBe(403);
    expect((await platform.api('PATCH', `${BASE}/badges/${randomUUID()}/set-active`, { token: marketing.token, body: { isActive: true } })).status).toBe(404);

    expect((await platform.api('DELETE', `${BASE}/badges/${badge.id}`, { token: tenant.token })).status).toBe(403);
    const deleted = await platform.api('DELETE', `${BASE}/badges/${badge.id}`, { token: marketing.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.message).toEqual(expect.any(String));
    expect((await platform.sql.query('select deleted_at from cluster.badge where id = $1', [badge.id])).rows[0].deleted_at).toBeInstanceOf(Date);
    expect((await platform.api('DELETE', `${BASE}/badges/${badge.id}`, { token: marketing.token })).status).toBe(404);
    const listed = await get(`/badges?search=${encodeURIComponent(badge.name_en)}&includeInActive=true&includeDeletedAt=true`);
    expect(listed.body.data.data.data[0]).toMatchObject({ id: badge.id, deletedAt: expect.any(String) });
  });
});

describe('badge progress from point events', () => {
  it('totalPurchaseAmount sums purchases, completes once (completedAt never changes) and announces badge.completed once', async () => {
    const badge = await createBadge({ type: 'totalPurchaseAmount', purchaseAmount: 300 });
    const member = await platform.loginMember();
    await earn(member, 100);
    const first = await waitFor(async () => progressRow(member.id, badge.id), 'progress');
    expect(first).toMatchObject({ current: 100, goal: 300, is_completed: false, completed_at: null });
    await earn(member, 250.5);
    const done = await completedRow(member.id, badge.id);
    expect(done).toMatchObject({ current: 350.5, goal: 300, is_completed: true, completed_at: expect.any(Date) });
    await earn(member, 1000);
    await settled(member.id);
    expect(await progressRow(member.id, badge.id)).toEqual(done);
    expect(await completions(member.id, badge.id)).toEqual([{ memberId: member.id, badgeId: badge.id, completedAt: done!.completed_at!.toISOString() }]);
  });

  it('purchaseCount counts purchases of at least minSpend', async () => {
    const badge = await createBadge({ type: 'purchaseCount', purchaseCount: 2, minSpend: 50 });
    const member = await platform.loginMember();
    await earn(member, 49.99);
    await earn(member, 0);
    await settled(member.id);
    expect(await progressRow(member.id, badge.id)).toBeUndefined();
    await earn(member, 50);
    await settled(member.id);
    expect(await progressRow(member.id, badge.id)).toMatchObject({ current: 1, goal: 2, is_completed: false });
    await earn(member, 70);
    expect(await completedRow(member.id, badge.id)).toMatchObject({ current: 2, goal: 2 });
  });

  it('categoryPurchase counts included categories and never excluded ones (count or amount goal)', async () => {
    const [wanted, other, banned] = [unique('cat'), unique('cat'), unique('cat')];
    const byCount = await createBadge({ type: 'categoryPurchase', purchaseCount: 2, categoryIdsIncluded: [wanted] });
    const byAmount = await createBadge({ type: 'categoryPurchase', purchaseAmount: 100, categoryIdsExcluded: [banned] });
    const member = await platform.loginMember();
    await earn(member, 500, { categoryId: banned });
    await earn(member, 20, { categoryId: other });
    await settled(member.id);
    expect(await progressRow(member.id, byCount.id)).toBeUndefined();
    expect(await progressRow(member.id, byAmount.id)).toMatchObject({ current: 20, goal: 100, is_completed: false });
    await earn(member, 30, { categoryId: wanted });
    await settled(member.id);
    expect(await progressRow(member.id, byCount.id)).toMatchObject({ current: 1, goal: 2, is_completed: false });
    await earn(member, 60, { categoryId: wanted });
    expect(await completedRow(member.id, byCount.id)).toMatchObject({ current: 2 });
    expect(await completedRow(member.id, byAmount.id)).toMatchObject({ current: 110 });
  });

  it('shopPurchaseAmount sums the purchases at the included shops only', async () => {
    const [shop, otherShop] = [unique('shop'), unique('shop')];
    const badge = await createBadge({ type: 'shopPurchaseAmount', purchaseAmount: 200, shopIdsIncluded: [shop] });
    const member = await platform.loginMember();
    await earn(member, 900, { shopId: otherShop });
    await earn(member, 150, { shopId: shop });
    await settled(member.id);
    expect(await progressRow(member.id, badge.id)).toMatchObject({ current: 150, goal: 200, is_completed: false });
    await earn(member, 60, { shopId: shop });
    expect(await completedRow(member.id, badge.id)).toMatchObject({ current: 210, goal: 200 });
  });

  it('firstTime completes with the first purchase', async () => {
    const badge = await createBadge({ type: 'firstTime' });
    const member = await platform.loginMember();
    await earn(member, 1);
    expect(await completedRow(member.id, badge.id)).toMatchObject({ current: 1, goal: 1 });
    expect(await completions(member.id, badge.id)).toHaveLength(1);
  });

  it('specialDay completes with a purchase inside its window; a past window never counts', async () => {
    const today = await createBadge({ type: 'specialDay', window: { start: inHours(-1), end: inHours(1) } });
    const past = await createBadge({ type: 'specialDay', window: { start: inHours(-48), end: inHours(-24) } });
    const member = await platform.loginMember();
    await earn(member, 5);
    expect(await completedRow(member.id, today.id)).toMatchObject({ current: 1, goal: 1 });
    await settled(member.id);
    expect(await progressRow(member.id, past.id)).toBeUndefined();
  });

  it('honours window, withinDays (from the first counted event) and ignores inactive badges', async () => {
    const future = await createBadge({ type: 'totalPurchaseAmount', purchaseAmount: 1, window: { start: inHours(24) } });
    const inactive = await createBadge({ type: 'firstTime' }, { isActive: 'false' });
    const member = await platform.loginMember();
    await earn(member, 100);
    await settled(member.id);
    expect(await progressRow(member.id, future.id)).toBeUndefined();
    expect(await progressRow(member.id, inactive.id)).toBeUndefined();

    const within = await createBadge({ type: 'totalPurchaseAmount', purchaseAmount: 150, withinDays: 2, window: { start: '2020-01-01T00:00:00Z', end: '2020-12-31T00:00:00Z' } });
    const other = await platform.loginMember();
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, fakeEvent(other.id, '2020-03-01T10:00:00.000Z', 100));
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, fakeEvent(other.id, '2020-03-04T10:00:00.000Z', 100));
    expect(await progressRow(other.id, within.id)).toMatchObject({ current: 100, is_completed: false });
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, fakeEvent(other.id, '2021-03-02T10:00:00.000Z', 100));
    expect(await progressRow(other.id, within.id)).toMatchObject({ current: 100, is_completed: false });
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, fakeEvent(other.id, '2020-03-02T10:00:00.000Z', 100));
    expect(await progressRow(other.id, within.id)).toMatchObject({ current: 200, is_completed: true });
  });

  it('honours tierCondition include and exclude with the tier projection', async () => {
    const tierId = await createTier(undefined, true);
    const category = unique('cat');
    const include = await createBadge({ type: 'categoryPurchase', purchaseCount: 1, categoryIdsIncluded: [category], tierCondition: { type: 'include', tierIds: [tierId] } });
    const exclude = await createBadge({ type: 'categoryPurchase', purchaseCount: 1, categoryIdsIncluded: [category], tierCondition: { type: 'exclude', tierIds: [tierId] } });
    const [tiered, plain] = [await platform.loginMember(), await platform.loginMember()];
    expect((await platform.api('POST', `${BASE}/tiers/assign`, { token: marketing.token, body: { memberId: tiered.id, tierId } })).status).toBe(201);
    await earn(tiered, 10, { categoryId: category });
    await earn(plain, 10, { categoryId: category });
    expect(await completedRow(tiered.id, include.id)).toMatchObject({ current: 1 });
    expect(await completedRow(plain.id, exclude.id)).toMatchObject({ current: 1 });
    await settled(tiered.id);
    await settled(plain.id);
    expect(await progressRow(tiered.id, exclude.id)).toBeUndefined();
    expect(await progressRow(plain.id, include.id)).toBeUndefined();
  });

  it('applies a point event delivered twice only once', async () => {
    const badge = await createBadge({ type: 'purchaseCount', purchaseCount: 3 });
    const member = await platform.loginMember();
    await earn(member, 10);
    await settled(member.id);
    expect(await progressRow(member.id, badge.id)).toMatchObject({ current: 1 });
    // The very message the queue received, delivered twice more.
    const {
      rows: [{ data: again }],
    } = await platform.sql.query<{ data: PublishedEvent }>(`select data from pgboss.job where name = $1 and data->'data'->>'memberId' = $2`, [CLUSTER_BADGES_QUEUE, member.id]);
    expect(again).toMatchObject({ source: 'point', aggregateId: member.id, previousSequence: null });
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, again);
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, again);
    expect(await progressRow(member.id, badge.id)).toMatchObject({ current: 1, is_completed: false });
    // A new event (without a stream: applied once by its id) counts.
    await sendAndWait(boss, CLUSTER_BADGES_QUEUE, { id: randomUUID(), type: again.type, occurredAt: again.occurredAt, data: again.data });
    expect(await progressRow(member.id, badge.id)).toMatchObject({ current: 2 });
  });

  it('earning through the point service moves the member up a tier and completes a badge', async () => {
    const tierId = await createTier(900_000_000_000);
    const badge = await createBadge({ type: 'totalPurchaseAmount', purchaseAmount: 900_000_000_000 });
    const member = await platform.loginMember();
    await earn(member, 950_000_000_000);
    const tier = await waitFor(async () => (await platform.sql.query('select tier_id from cluster.tier_projection where member_id = $1', [member.id])).rows[0], 'tier projection');
    expect(tier.tier_id).toBe(tierId);
    expect(await completedRow(member.id, badge.id)).toMatchObject({ current: 950_000_000_000, goal: 900_000_000_000 });
    const progress = await platform.api('GET', `${BASE}/badge-member-progress/members/me?badgeId=${badge.id}&includeBadge=true`, { token: member.token });
    expect(progress.body.data.data).toEqual([expect.objectContaining({ badgeId: badge.id, isCompleted: true, badge: expect.objectContaining({ id: badge.id }) })]);
  });
});

describe('GET /badge-member-progress/members/me and /members/:memberId', () => {
  it('pages from 0 (limit 0: only the total), filters, includes the badge and the member; staff need tier:read', async () => {
    const category = unique('cat');
    const one = await createBadge({ type: 'categoryPurchase', purchaseCount: 1, categoryIdsIncluded: [category] }, { name_th: 'หนึ่ง' });
    const two = await createBadge({ type: 'categoryPurchase', purchaseCount: 5, categoryIdsIncluded: [category] });
    const member = await platform.loginMember();
    await earn(member, 10, { categoryId: category });
    await completedRow(member.id, one.id);
    await waitFor(async () => progressRow(member.id, two.id), 'second progress');

    const me = await platform.api('GET', `${BASE}/badge-member-progress/members/me?badgeId=${one.id}`, { token: member.token });
    expect(me.status).toBe(200);
    expect(me.body.data.meta).toEqual({ page: 0, limit: 10, total: 1, totalPages: 1 });
    expect(me.body.data.data).toEqual([
      {
        id: expect.any(String),
        memberId: member.id,
        badgeId: one.id,
        currentValue: 1,
        goalValue: 1,
        isCompleted: true,
        completedAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const open = await platform.api('GET', `${BASE}/badge-member-progress/members/me?isCompleted=false&includeBadge=true&locale=th`, { token: member.token });
    const openIds = open.body.data.data.map((item: { badgeId: string }) => item.badgeId);
    expect(openIds).toContain(two.id);
    expect(openIds).not.toContain(one.id);
    expect(open.body.data.data.find((item: { badgeId: string }) => item.badgeId === two.id).badge).toMatchObject({ id: two.id, name_en: null });

    const total = (await platform.api('GET', `${BASE}/badge-member-progress/members/me?limit=100`, { token: member.token })).body.data.meta.total;
    expect(total).toBeGreaterThanOrEqual(2);
    const first = await platform.api('GET', `${BASE}/badge-member-progress/members/me?page=0&limit=1`, { token: member.token });
    const second = await platform.api('GET', `${BASE}/badge-member-progress/members/me?page=1&limit=1`, { token: member.token });
    expect(first.body.data.data).toHaveLength(1);
    expect(second.body.data.data).toHaveLength(1);
    expect(second.body.data.data[0].id).not.toBe(first.body.data.data[0].id);
    expect(first.body.data.meta).toEqual({ page: 0, limit: 1, total, totalPages: total });
    const none = await platform.api('GET', `${BASE}/badge-member-progress/members/me?limit=0`, { token: member.token });
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ meta: { page: 0, limit: 0, total, totalPages: 0 }, data: [] });
    expect((await platform.api('GET', `${BASE}/badge-member-progress/members/me?page=-1`, { token: member.token })).status).toBe(400);
    expect((await platform.api('GET', `${BASE}/badge-member-progress/members/me?limit=-1`, { token: member.token })).status).toBe(400);
    expect((await platform.api('GET', `${BASE}/badge-member-progress/members/me`, {})).status).toBe(401);

    const byStaff = await get(`/badge-member-progress/members/${member.id}?badgeId=${one.id}&includeMember=true`, tenant.token);
    expect(byStaff.status).toBe(200);
    expect(byStaff.body.data.data[0].member).toMatchObject({ id: member.id, status: expect.any(String) });
    expect((await get(`/badge-member-progress/members/${member.id}?badgeId=${one.id}`, member.token)).body.data.meta.total).toBe(1);
    const stranger = await platform.loginMember();
    expect((await get(`/badge-member-progress/members/${member.id}`, stranger.token)).status).toBe(403);
    expect((await get(`/badge-member-progress/members/me`, admin.token)).status).toBe(403);
    expect((await get(`/badge-member-progress/members/${member.id}`, ANONYMOUS)).status).toBe(401);
  });
});

describe('GraphQL', () => {
  it('creates a badge, and a member reads its progress with the badge', async () => {
    const category = unique('cat');
    const created = await platform.graphql(
      `mutation ($input: CreateBadgeInput!) { createBadge(input: $input) { id isActive rule { type purchaseAmount categoryIdsIncluded } } }`,
      { input: { name_en: unique('GQL '), description_en: 'd', rule: { type: 'categoryPurchase', purchaseAmount: 10, categoryIdsIncluded: [category] } } },
      marketing.token,
    );
    expect(created.body.errors).toBeUndefined();
    const badge = created.body.data.createBadge;
    createdBadges.push(badge.id);
    expect(badge).toMatchObject({ isActive: true, rule: { type: 'categoryPurchase', purchaseAmount: 10, categoryIdsIncluded: [category] } });
    const forbidden = await platform.graphql(`mutation { deleteBadge(id: "${badge.id}") { id } }`, {}, tenant.token);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');

    const member = await platform.loginMember();
    await earn(member, 12, { categoryId: category });
    await completedRow(member.id, badge.id);
    const read = await platform.graphql(
      `query ($badgeId: ID) { myBadgeProgress(badgeId: $badgeId) { meta { total } data { currentValue goalValue isCompleted badge { id totalAchievers memberCount } } } }`,
      { badgeId: badge.id },
      member.token,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.myBadgeProgress).toEqual({ meta: { total: 1 }, data: [{ currentValue: 12, goalValue: 10, isCompleted: true, badge: { id: badge.id, totalAchievers: 1, memberCount: 1 } }] });
  });
});
