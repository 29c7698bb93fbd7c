import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { PublishedEvent } from '../core/events/outbox-event';
import { createLogger } from '../core/logger';
import { CLUSTER_QUEUES } from '../subgraphs/cluster/queues';

const { points: CLUSTER_POINTS_QUEUE, tierExpiry: TIER_EXPIRY_QUEUE } = CLUSTER_QUEUES;
import { TestMember, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { sendAndWait, waitFor } from './support/wait-for';

const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'] });
let boss: PgBoss;
beforeAll(async () => {
  boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
});
afterAll(() => stopJobQueue(boss));

const BASE = '/cluster/api';

interface TierSpec {
  name?: string;
  /** requirement.purchaseAmountHit; null: no requirement (reached only by assignment). */
  hit?: number | null;
  special?: boolean;
  active?: boolean;
}
interface FixtureTier {
  id: string;
  name_en: string;
  name_th: string;
  level: number;
}

/**
 * Tiers of one test, inserted with SQL at levels far above anything else in the shared test database,
 * and with purchase thresholds in the tens of millions, so that other test files' members never reach
 * them and these members reach no other tier. They are soft-deleted after the test (freeing the levels).
 */
let fixtureTiers: string[] = [];
// Even levels only: a tier created elsewhere at "the highest live level + 1" never takes the next one of ours.
let nextLevel = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
async function createTiers(...specs: TierSpec[]): Promise<FixtureTier[]> {
  const tiers: FixtureTier[] = [];
  for (const spec of specs) {
    const tier = { id: randomUUID(), name_en: spec.name ?? unique('Tier '), name_th: unique('TH '), level: (nextLevel += 2) };
    await platform.sql.query(
      `insert into cluster.tier (id, name_en, name_th, description_en, level, requirement, is_active, is_special, created_at, updated_at)
       values ($1, $2, $3, 'fixture', $4, $5, $6, $7, now(), now())`,
      [tier.id, tier.name_en, tier.name_th, tier.level, JSON.stringify(spec.hit === null || spec.hit === undefined ? {} : { purchaseAmountHit: spec.hit }), spec.active ?? true, spec.special ?? false],
    );
    fixtureTiers.push(tier.id);
    tiers.push(tier);
  }
  return tiers;
}
afterEach(async () => {
  await platform.sql.query('update cluster.tier set deleted_at = now() where id = any($1) and deleted_at is null', [fixtureTiers]);
  fixtureTiers = [];
});

const assign = (body: Record<string, unknown>, token = marketing.token) => platform.api('POST', `${BASE}/tiers/assign`, { token, body });
const update = (memberId: string, body: Record<string, unknown>, token = marketing.token) =>
  platform.api('PUT', `${BASE}/tier-projections/${memberId}`, { token, body });
const get = (path: string, token?: string) => platform.api('GET', `${BASE}${path}`, { token });
const projectionRow = async (memberId: string) =>
  (await platform.sql.query('select tier_id, tier_end_at from cluster.tier_projection where member_id = $1', [memberId])).rows[0];
const historyRows = async (memberId: string) =>
  (
    await platform.sql.query(
      'select change_type, from_tier_id, to_tier_id, snapshot from cluster.tier_history where member_id = $1 order by created_at, id',
      [memberId],
    )
  ).rows;
const tierEvents = async (memberId: string) =>
  (await platform.sql.query(`select payload from cluster.outbox_event where type = 'customer.tier_changed' and payload->>'memberId' = $1 order by sequence`, [memberId])).rows.map(
    (row) => row.payload,
  );
const purchases = async (memberId: string) =>
  (await platform.sql.query('select purchase_amount::text as amount, points::text as points from cluster.member_purchase where member_id = $1', [memberId])).rows[0];
const later = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString();


describe('POST /tiers/assign', () => {
  it('creates the projection once (201), announces it, and refuses a second assignment with 409', async () => {
    const [tier] = await createTiers({});
    const member = await platform.loginMember();
    const tierEndAt = later(30);
    const response = await assign({ memberId: member.id, tierId: tier.id, tierEndAt });
    expect(response.status).toBe(201);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual({ id: expect.any(String), memberId: member.id, tierId: tier.id, tierEndAt, createdAt: expect.any(String) });
    expect(await projectionRow(member.id)).toMatchObject({ tier_id: tier.id });
    expect(await historyRows(member.id)).toEqual([]);
    expect(await tierEvents(member.id)).toEqual([expect.objectContaining({ fromTierId: null, toTierId: tier.id, changeType: 'assign', tierEndAt })]);

    const [other] = await createTiers({});
    const again = await assign({ memberId: member.id, tierId: other.id });
    expect(again.status).toBe(409);
    expect(again.body.data.errors).toEqual([expect.objectContaining({ field: 'memberId' })]);
    expect(await projectionRow(member.id)).toMatchObject({ tier_id: tier.id });
  });

  it('validates the body, the tier and the caller', async () => {
    const [tier, inactive] = await createTiers({}, { active: false });
    const memberId = randomUUID();
    const invalid = await assign({ memberId: 'nope', tierId: tier.id, tierEndAt: 'tomorrow' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.data.errors.map((error: { field: string }) => error.field).sort()).toEqual(['memberId', 'tierEndAt']);
    const missing = await assign({ memberId });
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors).toEqual([expect.objectContaining({ field: 'tierId' })]);
    for (const tierId of [randomUUID(), 'gold-tier', inactive.id]) {
      const unknown = await assign({ memberId, tierId });
      expect(unknown.status).toBe(400);
      expect(unknown.body.data.errors).toEqual([expect.objectContaining({ field: 'tierId' })]);
    }
    expect((await platform.api('POST', `${BASE}/tiers/assign`, { body: { memberId, tierId: tier.id } })).status).toBe(401);
    expect((await assign({ memberId, tierId: tier.id }, tenant.token)).status).toBe(403);
    const member = await platform.loginMember();
    expect((await assign({ memberId: member.id, tierId: tier.id }, member.token)).status).toBe(403);
    expect(await projectionRow(memberId)).toBeUndefined();
    expect(await projectionRow(member.id)).toBeUndefined();
  });
});

describe('GET /tier-projections/me and /tier-projections/:memberId', () => {
  it('answers the projection with its tier embedded, localized by locale', async () => {
    const [tier] = await createTiers({});
    const member = await platform.loginMember();
    await assign({ memberId: member.id, tierId: tier.id });
    const mine = await get('/tier-projections/me', member.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ memberId: member.id, tierId: tier.id, tierEndAt: null, tier: { id: tier.id, name_en: tier.name_en, level: tier.level } });
    const byStaff = await get(`/tier-projections/${member.id}`, tenant.token);
    expect(byStaff.status).toBe(200);
    expect(byStaff.body.data).toEqual(mine.body.data);
    const own = await get(`/tier-projections/${member.id}`, member.token);
    expect(own.status).toBe(200);
    const thai = await get('/tier-projections/me?locale=th', member.token);
    expect(thai.body.data.tier).toMatchObject({ name_th: tier.name_th, name_en: null });
  });

  it('is 404 with data.data.id without a projection, 403 for another member, 400 for a bad id', async () => {
    const member = await platform.loginMember();
    const none = await get('/tier-projections/me', member.token);
    expect(none.status).toBe(404);
    expect(none.body.data.data).toEqual({ id: member.id });
    const byStaff = await get(`/tier-projections/${member.id}`, admin.token);
    expect(byStaff.status).toBe(404);
    expect(byStaff.body.data.data).toEqual({ id: member.id });
    const other = await platform.loginMember();
    expect((await get(`/tier-projections/${member.id}`, other.token)).status).toBe(403);
    expect((await get('/tier-projections/me', admin.token)).status).toBe(403);
    expect((await get('/tier-projections/me')).status).toBe(401);
    expect((await get('/tier-projections/not-a-uuid', admin.token)).status).toBe(400);
  });
});

describe('GET /tier-projections', () => {
  it('lists projections paginated in data, by tier, by tier name, with the member summary on request', async () => {
    const tierName = unique('Searchable ');
    const [tier, other] = await createTiers({ name: tierName }, {});
    const members = [await platform.loginMember(), await platform.loginMember(), await platform.loginMember()];
    for (const member of members.slice(0, 2)) expect((await assign({ memberId: member.id, tierId: tier.id })).status).toBe(201);
    await assign({ memberId: members[2].id, tierId: other.id });

    const byTier = await get(`/tier-projections?tierId=${tier.id}&limit=1&page=2`, tenant.token);
    expect(byTier.status).toBe(200);
    expect(byTier.body.data.meta).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(byTier.body.data.data).toHaveLength(1);
    expect(byTier.body.data.data[0]).toMatchObject({ memberId: members[0].id, tierId: tier.id, tier: { id: tier.id, name_en: tierName, level: tier.level } });
    expect(byTier.body.data.data[0]).not.toHaveProperty('member');

    const bySearch = await get(`/tier-projections?search=${encodeURIComponent(tierName.toLowerCase())}&includeMember=true`, marketing.token);
    expect(bySearch.status).toBe(200);
    expect(bySearch.body.data.meta.total).toBe(2);
    expect(bySearch.body.data.data.map((item: { memberId: string }) => item.memberId).sort()).toEqual([members[0].id, members[1].id].sort());
    for (const item of bySearch.body.data.data) expect(item.member).toMatchObject({ id: item.memberId, status: expect.any(String) });

    // Members of an inactive tier are listed only with includeInActive.
    await platform.sql.query('update cluster.tier set is_active = false where id = $1', [other.id]);
    expect((await get(`/tier-projections?tierId=${other.id}`, tenant.token)).body.data.meta.total).toBe(0);
    expect((await get(`/tier-projections?tierId=${other.id}&includeInActive=true`, tenant.token)).body.data.data[0].memberId).toBe(members[2].id);
  });

  it('needs tier:read and a valid page', async () => {
    const member = await platform.loginMember();
    expect((await get('/tier-projections', member.token)).status).toBe(403);
    expect((await get('/tier-projections')).status).toBe(401);
    const tooMany = await get('/tier-projections?limit=101', tenant.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
    // Tier ids are plain strings: one that names no tier filters everything out.
    const plainTierId = await get('/tier-projections?tierId=gold-tier', tenant.token);
    expect(plainTierId.status).toBe(200);
    expect(plainTierId.body.data.data).toEqual([]);
  });
});

describe('PUT /tier-projections/:memberId', () => {
  it('moves the member and writes the history item and the event in the same change', async () => {
    const [silver, gold] = await createTiers({}, {});
    const member = await platform.loginMember();
    await assign({ memberId: member.id, tierId: silver.id });
    const tierEndAt = later(365);
    const response = await update(member.id, { tierEndAt, newTierTypeId: gold.id, changeType: 'upgrade', snapshot: { points: 120.5 } });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data.success).toBe(true);
    expect(response.body.data.data.projection).toMatchObject({ tierId: gold.id, tierEndAt, tier: { id: gold.id, level: gold.level } });
    expect(await projectionRow(member.id)).toEqual({ tier_id: gold.id, tier_end_at: new Date(tierEndAt) });
    expect(await historyRows(member.id)).toEqual([{ change_type: 'upgrade', from_tier_id: silver.id, to_tier_id: gold.id, snapshot: { points: 120.5 } }]);
    const events = await tierEvents(member.id);
    expect(events[1]).toMatchObject({ fromTierId: silver.id, toTierId: gold.id, changeType: 'upgrade', source: 'manual', tierEndAt });
  });

  it('validates every field, and is 404 for a member without a tier and 403 without tier:manage', async () => {
    const [tier] = await createTiers({});
    const member = await platform.loginMember();
    await assign({ memberId: member.id, tierId: tier.id });
    const valid = { tierEndAt: later(10), newTierTypeId: tier.id, changeType: 'downgrade', snapshot: { points: 0 } };
    const bad = await update(member.id, { tierEndAt: 'soon', newTierTypeId: 'x', changeType: 'sideways', snapshot: { points: -1 } });
    expect(bad.status).toBe(400);
    const fields = bad.body.data.errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['changeType']));
    const badValues = await update(member.id, { ...valid, tierEndAt: 'soon', newTierTypeId: 'x'.repeat(257), snapshot: { points: -1 } });
    expect(badValues.status).toBe(400);
    expect(badValues.body.data.errors.map((error: { field: string }) => error.field).sort()).toEqual(['newTierTypeId', 'snapshot.points', 'tierEndAt']);
    for (const field of ['tierEndAt', 'newTierTypeId', 'changeType', 'snapshot']) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      const missing = await update(member.id, body);
      expect(missing.status).toBe(400);
      expect(missing.body.data.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    for (const newTierTypeId of [randomUUID(), 'gold-tier']) {
      const unknownTier = await update(member.id, { ...valid, newTierTypeId });
      expect(unknownTier.status).toBe(400);
      expect(unknownTier.body.data.errors).toEqual([expect.objectContaining({ field: 'newTierTypeId' })]);
    }
    const stranger = randomUUID();
    const none = await update(stranger, valid);
    expect(none.status).toBe(404);
    expect(none.body.data.data).toEqual({ id: stranger });
    expect((await update(member.id, valid, tenant.token)).status).toBe(403);
    expect((await update(member.id, valid, member.token)).status).toBe(403);
    expect(await historyRows(member.id)).toEqual([]);
    expect(await projectionRow(member.id)).toEqual({ tier_id: tier.id, tier_end_at: null });
  });
});

describe('tier history', () => {
  it('lists the changes newest first, filtered by type and dates, localized, for the member and for staff', async () => {
    const [bronze, silver, gold] = await createTiers({}, {}, {});
    const member = await platform.loginMember();
    await assign({ memberId: member.id, tierId: bronze.id });
    const move = (tierId: string, changeType: string, points: number) =>
      update(member.id, { tierEndAt: later(30), newTierTypeId: tierId, changeType, snapshot: { points } });
    expect((await move(silver.id, 'upgrade', 1)).status).toBe(200);
    expect((await move(gold.id, 'upgrade', 2)).status).toBe(200);
    expect((await move(silver.id, 'downgrade', 3)).status).toBe(200);

    const mine = await get('/tier-projections/history/me', member.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.message).toEqual(expect.any(String));
    expect(mine.body.data.data.meta).toEqual({ page: 1, limit: 10, total: 3, totalPages: 1 });
    expect(mine.body.data.data.data.map((item: { snapshot: { points: number } }) => item.snapshot.points)).toEqual([3, 2, 1]);
    expect(mine.body.data.data.data[0]).toEqual({
      id: expect.any(String),
      memberId: member.id,
      changeType: 'downgrade',
      snapshot: { points: 3 },
      fromTier: { id: gold.id, name_en: gold.name_en, name_th: gold.name_th, name_cn: null },
      toTier: { id: silver.id, name_en: silver.name_en, name_th: silver.name_th, name_cn: null },
      createdAt: expect.any(String),
    });

    const upgrades = await get(`/tier-projections/history/${member.id}?actionType=upgrade&limit=1`, tenant.token);
    expect(upgrades.status).toBe(200);
    expect(upgrades.body.data.data.meta).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(upgrades.body.data.data.data[0]).toMatchObject({ changeType: 'upgrade', toTier: { id: gold.id } });

    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/tier-projections/history/${member.id}?start=${today}&end=${today}`, tenant.token)).body.data.data.meta.total).toBe(3);
    expect((await get(`/tier-projections/history/${member.id}?end=2000-01-01`, tenant.token)).body.data.data.meta.total).toBe(0);
    expect((await get(`/tier-projections/history/${member.id}?start=${later(1)}`, tenant.token)).body.data.data.meta.total).toBe(0);

    const thai = await get('/tier-projections/history/me?locale=th', member.token);
    expect(thai.body.data.data.data[0].toTier).toEqual({ id: silver.id, name_en: null, name_th: silver.name_th, name_cn: null });
  });

  it('refuses bad filters, other members and callers without tier:read', async () => {
    const member = await platform.loginMember();
    const other = await platform.loginMember();
    expect((await get(`/tier-projections/history/${other.id}`, member.token)).status).toBe(403);
    expect((await get(`/tier-projections/history/${member.id}`, member.token)).status).toBe(200);
    const noTierRead = await platform.createStaff('customer');
    expect((await get(`/tier-projections/history/${member.id}`, noTierRead.token)).status).toBe(403);
    const badType = await get('/tier-projections/history/me?actionType=renewal', member.token);
    expect(badType.status).toBe(400);
    expect(badType.body.data.errors).toEqual([expect.objectContaining({ field: 'actionType' })]);
    const badDate = await get('/tier-projections/history/me?start=yesterday', member.token);
    expect(badDate.status).toBe(400);
    expect(badDate.body.data.errors).toEqual([expect.objectContaining({ field: 'start' })]);
    expect((await get('/tier-projections/history/me', admin.token)).status).toBe(403);
  });
});

describe('GET /tier-projections/summary/yearly', () => {
  it("counts the year's upgrades and downgrades (expiries included) and the members per tier", async () => {
    const [silver, gold] = await createTiers({}, {});
    const members = [await platform.loginMember(), await platform.loginMember(), await platform.loginMember()];
    await assign({ memberId: members[0].id, tierId: silver.id });
    await assign({ memberId: members[1].id, tierId: gold.id });
    await assign({ memberId: members[2].id, tierId: gold.id });
    // History of a year nothing else writes to.
    for (const changeType of ['upgrade', 'upgrade', 'downgrade', 'expiry']) {
      await platform.sql.query(
        `insert into cluster.tier_history (id, member_id, change_type, snapshot, from_tier_id, to_tier_id, created_at)
         values ($1, $2, $3, '{"points": 0}', $4, $5, '2001-06-30T12:00:00Z')`,
        [randomUUID(), members[0].id, changeType, silver.id, gold.id],
      );
    }
    await platform.sql.query(
      `insert into cluster.tier_history (id, member_id, change_type, snapshot, created_at) values ($1, $2, 'upgrade', '{}', '2002-01-01T00:00:00Z')`,
      [randomUUID(), members[0].id],
    );

    const summary = await get('/tier-projections/summary/yearly?year=2001', tenant.token);
    expect(summary.status).toBe(200);
    expect(summary.body.data.message).toEqual(expect.any(String));
    expect(summary.body.data.data).toMatchObject({ year: 2001, upgrades: 2, downgrades: 2, expiries: 1 });
    const distribution = summary.body.data.data.tierDistribution as Array<{ tierId: string; tierName_en: string; memberCount: number }>;
    expect(distribution.find((item) => item.tierId === silver.id)).toEqual({ tierId: silver.id, tierName_en: silver.name_en, memberCount: 1 });
    expect(distribution.find((item) => item.tierId === gold.id)).toEqual({ tierId: gold.id, tierName_en: gold.name_en, memberCount: 2 });

    const current = await get('/tier-projections/summary/yearly', tenant.token);
    expect(current.body.data.data.year).toBe(new Date().getUTCFullYear());
    expect((await get('/tier-projections/summary/yearly?year=abc', tenant.token)).status).toBe(400);
    expect((await get('/tier-projections/summary/yearly', members[0].token)).status).toBe(403);
  });
});

describe('automatic tiering from point events', () => {
  const earn = (memberId: string, amount: number, purchaseAmount: number) =>
    platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId, amount, purchaseAmount } });
  const spend = (memberId: string, amount: number, purchaseAmount: number) =>
    platform.api('POST', '/point/api/spend', { token: admin.token, body: { memberId, amount, purchaseAmount } });

  it('upgrades a member when its purchases reach a tier, applying each event once', async () => {
    const [silver, gold] = await createTiers({ hit: 50_000_000 }, { hit: 80_000_000 }, { hit: 10_000_000, special: true }, { hit: null });
    const member = await platform.loginMember();

    expect((await earn(member.id, 40, 60_000_000)).status).toBe(200);
    const first = await waitFor(async () => (await historyRows(member.id))[0], 'the first upgrade');
    expect(first).toEqual({ change_type: 'upgrade', from_tier_id: null, to_tier_id: silver.id, snapshot: { points: 40, purchaseAmount: 60_000_000 } });
    expect(await projectionRow(member.id)).toEqual({ tier_id: silver.id, tier_end_at: null });

    // Spending counts its purchase amount too; 90 million reaches gold.
    expect((await spend(member.id, 15, 30_000_000)).status).toBe(200);
    await waitFor(async () => (await projectionRow(member.id))?.tier_id === gold.id, 'the upgrade to gold');
    expect((await historyRows(member.id)).map((row) => [row.change_type, row.from_tier_id, row.to_tier_id, row.snapshot])).toEqual([
      ['upgrade', null, silver.id, { points: 40, purchaseAmount: 60_000_000 }],
      ['upgrade', silver.id, gold.id, { points: 25, purchaseAmount: 90_000_000 }],
    ]);
    expect(await tierEvents(member.id)).toEqual([
      expect.objectContaining({ fromTierId: null, toTierId: silver.id, changeType: 'upgrade', source: 'automatic' }),
      expect.objectContaining({ fromTierId: silver.id, toTierId: gold.id, changeType: 'upgrade', source: 'automatic' }),
    ]);
    const tiered = await get('/tier-projections/me', member.token);
    expect(tiered.body.data.tier).toMatchObject({ id: gold.id, level: gold.level });

    // The same event delivered again (the very message the queue received) changes nothing; a new one is applied.
    const {
      rows: [{ data: again }],
    } = await platform.sql.query<{ data: PublishedEvent }>(
      `select data from pgboss.job where name = $1 and data->>'type' = 'points.earned' and data->'data'->>'memberId' = $2 order by created_on limit 1`,
      [CLUSTER_POINTS_QUEUE, member.id],
    );
    expect(again).toMatchObject({ source: 'point', aggregateId: member.id, sequence: expect.any(String) });
    await sendAndWait(boss, CLUSTER_POINTS_QUEUE, again);
    expect(await purchases(member.id)).toEqual({ amount: '90000000.00', points: '25.00' });
    // An event without a stream (no aggregate) is applied once by its id.
    await sendAndWait(boss, CLUSTER_POINTS_QUEUE, { id: randomUUID(), type: again.type, occurredAt: again.occurredAt, data: { ...again.data, purchaseAmount: '5.00' } });
    expect((await purchases(member.id)).amount).toBe('90000005.00');
    expect(await historyRows(member.id)).toHaveLength(2);
  });

  it('never moves a member out of a special tier, nor down, automatically', async () => {
    const [, special, gold] = await createTiers({ hit: 50_000_000 }, { hit: null, special: true }, { hit: 80_000_000 });
    const vip = await platform.loginMember();
    await assign({ memberId: vip.id, tierId: special.id });
    const high = await platform.loginMember();
    await assign({ memberId: high.id, tierId: gold.id });
    expect((await earn(vip.id, 1, 90_000_000)).status).toBe(200);
    expect((await earn(high.id, 1, 60_000_000)).status).toBe(200);
    await waitFor(async () => (await purchases(vip.id))?.amount === '90000000.00', "the VIP's purchases");
    await waitFor(async () => (await purchases(high.id))?.amount === '60000000.00', "the gold member's purchases");
    expect(await projectionRow(vip.id)).toMatchObject({ tier_id: special.id });
    expect(await projectionRow(high.id)).toMatchObject({ tier_id: gold.id });
    expect(await historyRows(vip.id)).toEqual([]);
    expect(await historyRows(high.id)).toEqual([]);
  });
});

describe('tier expiry', () => {
  it('moves members whose tier ended down to what their purchases reach, or removes the tier', async () => {
    const [silver, gold] = await createTiers({ hit: 50_000_000 }, { hit: 80_000_000 });
    const stays: TestMember = await platform.loginMember();
    const drops = await platform.loginMember();
    const running = await platform.loginMember();
    await assign({ memberId: stays.id, tierId: gold.id, tierEndAt: later(30) });
    await assign({ memberId: drops.id, tierId: silver.id, tierEndAt: later(30) });
    await assign({ memberId: running.id, tierId: gold.id, tierEndAt: later(30) });
    expect((await platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId: stays.id, amount: 7, purchaseAmount: 60_000_000 } })).status).toBe(200);
    await waitFor(async () => (await purchases(stays.id))?.amount === '60000000.00', 'the purchases');
    await platform.sql.query(`update cluster.tier_projection set tier_end_at = now() - interval '1 minute' where member_id = any($1)`, [[stays.id, drops.id]]);

    await sendAndWait(boss, TIER_EXPIRY_QUEUE, {});
    expect(await historyRows(stays.id)).toEqual([
      { change_type: 'expiry', from_tier_id: gold.id, to_tier_id: silver.id, snapshot: { points: 7, purchaseAmount: 60_000_000 } },
    ]);
    expect(await projectionRow(stays.id)).toEqual({ tier_id: silver.id, tier_end_at: null });
    expect(await historyRows(drops.id)).toEqual([{ change_type: 'expiry', from_tier_id: silver.id, to_tier_id: null, snapshot: { points: null, purchaseAmount: 0 } }]);
    expect(await projectionRow(drops.id)).toBeUndefined();
    expect((await tierEvents(drops.id)).at(-1)).toMatchObject({ fromTierId: silver.id, toTierId: null, changeType: 'expiry', source: 'expiry' });
    expect(await historyRows(running.id)).toEqual([]);
    expect(await projectionRow(running.id)).toMatchObject({ tier_id: gold.id });

    const history = await get('/tier-projections/history/me', drops.token);
    expect(history.body.data.data.data[0]).toMatchObject({ changeType: 'expiry', fromTier: { id: silver.id }, toTier: null });
    expect((await get('/tier-projections/me', drops.token)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('reads a projection with its tier and federated member, and changes it', async () => {
    const [silver, gold] = await createTiers({}, {});
    const member = await platform.loginMember();
    await assign({ memberId: member.id, tierId: silver.id });
    const changed = await platform.graphql(
      `mutation ($memberId: ID!, $input: UpdateTierProjectionInput!) { updateTierProjection(memberId: $memberId, input: $input) { success projection { tierId } } }`,
      { memberId: member.id, input: { tierEndAt: later(5), newTierTypeId: gold.id, changeType: 'upgrade', snapshot: { points: 9 } } },
      marketing.token,
    );
    expect(changed.body.errors).toBeUndefined();
    expect(changed.body.data.updateTierProjection).toEqual({ success: true, projection: { tierId: gold.id } });
    const read = await platform.graphql(
      `query ($memberId: ID!) {
        tierProjection(memberId: $memberId) { memberId tier(locale: th) { id name_th level } member { id status } }
        tierHistory(memberId: $memberId) { meta { total } data { changeType fromTier { id } toTier { id } } } }`,
      { memberId: member.id },
      tenant.token,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.tierProjection).toEqual({ memberId: member.id, tier: { id: gold.id, name_th: gold.name_th, level: gold.level }, member: { id: member.id, status: expect.any(String) } });
    expect(read.body.data.tierHistory).toEqual({ meta: { total: 1 }, data: [{ changeType: 'upgrade', fromTier: { id: silver.id }, toTier: { id: gold.id } }] });
    const denied = await platform.graphql(`query ($memberId: ID!) { tierProjection(memberId: $memberId) { id } }`, { memberId: member.id });
    expect(denied.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
