import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { execFile } from 'node:child_process';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PgBoss from 'pg-boss';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { createLogger } from '../core/logger';
import { openModuleOrm } from '../core/module';
import { analyticsModule } from '../subgraphs/analytics/module';
import { ANALYTICS_EVENT_SOURCES, ANALYTICS_EVENTS, ANALYTICS_READ_MODEL_QUEUE, applyAnalyticsEvent } from '../subgraphs/analytics/services/read-model';
import { rebuildReadModel } from '../subgraphs/analytics/services/rebuild';
import { removeExpiredReports } from '../subgraphs/analytics/services/report-writer';
import { objectStorageIn } from '../core/storage/object-storage';
import { UrlSigner } from '../core/storage/signed-url';
import { REPORT_DOWNLOAD } from '../subgraphs/analytics/contract';
import { parse } from 'csv-parse/sync';
import { OPEN_ALL_DAY, slotSoon } from './support/bookings';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

/**
 * The analytics read model fed by the platform's own events, on a database of its own: every figure is
 * known exactly from the activity this file creates.
 */
const { platform, admin, marketing, tenant } = usePlatform({
  staff: ['admin', 'marketing', 'tenant'],
  // A report's job is tried twice, a second apart, before the report is failed.
  env: { ANALYTICS_REPORT_RETRY_LIMIT: '1', ANALYTICS_REPORT_RETRY_DELAY_SECONDS: '1' },
});

const BASE = '/api/v1/analytics';
const DAY = 24 * 3600 * 1000;
const TODAY = new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const api = (method: string, path: string, body?: unknown, token: string = admin.token) => platform.api(method, path, { token, body });
async function ok(method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const response = await api(method, path, body);
  if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Every event of the read model's types in the outboxes has been applied (the file's database holds only its own). */
async function readModelCaughtUp(): Promise<void> {
  await waitFor(async () => {
    const published = await publishedEvents();
    const applied = Number((await platform.sql.query('select count(*) from analytics.applied_event')).rows[0].count);
    return applied === published && published > 0;
  }, 'the analytics read model to apply every event');
}

/** The number of events of the read model's types in the outboxes. */
async function publishedEvents(): Promise<number> {
  const bySource = new Map<string, string[]>();
  for (const [type, source] of Object.entries(ANALYTICS_EVENT_SOURCES)) bySource.set(source, [...(bySource.get(source) ?? []), type]);
  let published = 0;
  for (const [source, types] of bySource) {
    published += Number((await platform.sql.query(`select count(*) from ${source}.outbox_event where type = any($1)`, [types])).rows[0].count);
  }
  return published;
}

const ids: Record<string, string> = {};
let points = { earned: 0, redeemed: 0, balance: 0 };

beforeAll(async () => {
  for (const name of ['Alice', 'Bob', 'Carol', 'Dave', 'Erin']) ids[name] = (await ok('POST', '/api/v1/customers', { name, email: `${unique(name.toLowerCase())}@example.com` })).id;
  const purchase = (customer: string, amount: number, occurredAt: string, storeId?: string, category?: string) =>
    ok('POST', '/api/v1/transactions', { customer_id: ids[customer], amount, occurred_at: occurredAt, store_id: storeId, category }, 201);
  await purchase('Alice', 100, '2026-09-15T10:00:00Z', 'S1', 'food');
  await purchase('Alice', 100, '2026-10-05T09:00:00Z', 'S1', 'food');
  await purchase('Alice', 50.5, '2026-10-06T23:30:00Z', 'S2', 'drinks');
  await purchase('Bob', 30, '2026-10-06T08:00:00Z', 'S1', 'food');
  await purchase('Bob', 20, '2026-10-14T12:00:00Z', 'S1');
  const carols = await purchase('Carol', 200, daysAgo(5), 'S2', 'drinks');
  await ok('POST', `/api/v1/transactions/${carols.id}/refund`, { amount: 50 });

  await ok('POST', `/api/v1/customers/${ids.Alice}/points/award`, { points: 150, reason: 'Welcome' });
  await ok('POST', `/api/v1/customers/${ids.Bob}/points/award`, { points: 40, reason: 'Welcome' });
  // Dave's 30 points expire (the point domain expires a due lot before his next movement), then he gets 5 more.
  await ok('POST', `/api/v1/customers/${ids.Dave}/points/award`, { points: 30, reason: 'Welcome' });
  await platform.sql.query(`update point.point_lot set expires_at = now() - interval '1 second' where member_id = $1`, [ids.Dave]);
  await ok('POST', `/api/v1/customers/${ids.Dave}/points/award`, { points: 5, reason: 'Bonus' });

  // A reward (a catalog of 100 points) claimed by Alice and used at the counter.
  const reward = await platform.graphql(
    `mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`,
    { input: { name_en: unique('Reward '), description_en: 'd', type: 'POINT', benefitValue: 10, stock: 10, stockType: 'LIMITED', imageUrl: 'https://cdn.example.com/r.png' } },
    marketing.token,
  );
  const catalog = await platform.api('POST', '/reward/api/reward-catalogs', {
    token: marketing.token,
    body: { name_en: unique('Catalog '), description_en: 'd', rewardId: reward.body.data.createReward.id, redeemRule: { pointUsage: 100 } },
  });
  ids.catalog = catalog.body.data.id;
  const claimed = await ok('POST', `/api/v1/customers/${ids.Alice}/rewards/claim`, { reward_id: ids.catalog }, 201);
  ids.claim = claimed.id;
  const used = await platform.graphql(`mutation ($id: ID!, $code: String!) { useRewardCode(id: $id, code: $code) { id } }`, { id: claimed.id, code: claimed.voucher_code }, admin.token);
  if (used.body.errors) throw new Error(JSON.stringify(used.body.errors));

  // Carol books a table starting soon (check-in opens shortly before the start) and checks in; she books another and cancels it.
  const venue = await ok('POST', '/api/v1/venues', { name: 'Riverside', type: 'restaurant', address: '1 River Road', phone: '021234567', capacity: 10, ...OPEN_ALL_DAY }, 201);
  const booking = await ok('POST', '/api/v1/bookings', { customer_id: ids.Carol, venue_id: venue.id, type: 'table', ...slotSoon(), duration: 5, guests: 2 }, 201);
  const later = await ok(
    'POST',
    '/api/v1/bookings',
    { customer_id: ids.Carol, venue_id: venue.id, type: 'table', date: new Date(Date.now() + 4 * DAY).toISOString().slice(0, 10), time: '19:00', duration: 60, guests: 2 },
    201,
  );
  await ok('POST', `/api/v1/bookings/${booking.id}/checkin`, { check_in_code: booking.check_in_code });
  await ok('POST', `/api/v1/bookings/${later.id}/cancel`, { reason: 'Plans changed' });

  // Carol changes her name and phone; Erin is deleted; Dave reads a notification.
  await ok('PATCH', `/api/v1/customers/${ids.Carol}`, { name: 'Caroline', phone: '0812345678' });
  const erin = await api('DELETE', `/api/v1/customers/${ids.Erin}`);
  if (erin.status !== 204) throw new Error(`DELETE Erin: ${erin.status}`);
  const notice = await platform.graphql(`mutation ($input: CreateInAppNotificationInput!) { createInAppNotification(input: $input) { id } }`, { input: { memberId: ids.Dave, title_en: 'Hello' } }, admin.token);
  const read = await platform.graphql(`mutation ($id: ID!) { markInAppNotificationRead(id: $id, read: true) { id } }`, { id: notice.body.data.createInAppNotification.id }, admin.token);
  if (read.body.errors) throw new Error(JSON.stringify(read.body.errors));

  // Two tiers (reached only by hand): Alice is Gold, Bob Silver; Carol and Dave have none.
  for (const [name, level] of [['Silver', 1], ['Gold', 2]] as const) {
    const tier = await platform.graphql(`mutation ($input: CreateTierInput!) { createTier(input: $input) { id } }`, { input: { name_en: name, description_en: name, level, requirement: {} } }, admin.token);
    if (tier.body.errors) throw new Error(JSON.stringify(tier.body.errors));
    ids[name] = tier.body.data.createTier.id;
  }
  await ok('PATCH', `/api/v1/customers/${ids.Alice}/tier`, { tier: 'Gold', reason: 'Loyal' });
  await ok('PATCH', `/api/v1/customers/${ids.Bob}/tier`, { tier_id: ids.Silver, reason: 'Regular' });

  // A segment holding Bob, and a campaign Alice and Bob join; Bob's purchase completes his participation (50 points).
  const segment = await platform.graphql(`mutation ($input: CreateSegmentInput!) { createSegment(input: $input) { id } }`, { input: { name_en: unique('VIP '), type: 'manual' } }, admin.token);
  ids.segment = segment.body.data.createSegment.id;
  await platform.graphql(`mutation ($id: ID!, $memberIds: [ID!]!) { addSegmentMembers(id: $id, memberIds: $memberIds) { __typename } }`, { id: ids.segment, memberIds: [ids.Bob] }, admin.token);
  ids.campaign = (
    await ok(
      'POST',
      '/api/v1/campaigns',
      { name: 'Autumn', type: 'promotion', start_date: daysAgo(1), end_date: new Date(Date.now() + 10 * DAY).toISOString(), reward: { type: 'points', value: 50, unit: 'points' } },
      201,
    )
  ).id;
  await ok('POST', `/api/v1/campaigns/${ids.campaign}/activate`, {});
  await ok('POST', `/api/v1/campaigns/${ids.campaign}/join`, { customer_id: ids.Alice }, 201);
  await ok('POST', `/api/v1/campaigns/${ids.campaign}/join`, { customer_id: ids.Bob }, 201);
  await purchase('Bob', 60, new Date().toISOString(), 'S1', 'food');
  await waitFor(
    async () => (await platform.sql.query(`select 1 from campaign.participant where campaign_id = $1 and status = 'completed'`, [ids.campaign])).rowCount === 1,
    "Bob's participation to complete",
  );
  await readModelCaughtUp();

  // The point domain's own figures, to compare with the read model's.
  for (const customer of ['Alice', 'Bob', 'Carol', 'Dave']) {
    const balance = await ok('GET', `/api/v1/customers/${ids[customer]}/points/balance`);
    points = { earned: points.earned + balance.lifetime_earned, redeemed: points.redeemed + balance.lifetime_redeemed, balance: points.balance + balance.balance };
  }
}, 120_000);

const zeros = { active_users: 0, new_registrations: 0, check_ins: 0, purchases: 0 };
const fieldsOf = (response: { body: any }) => response.body.error.details.map((detail: { field: string }) => detail.field).sort();

describe('customer activity', () => {
  it('counts active users, registrations, check-ins and purchases by week, periods without activity with zeros', async () => {
    expect(await ok('GET', `${BASE}/customers/activity?date_from=2026-10-01&date_to=2026-10-31&group_by=week`)).toEqual({
      period: { date_from: '2026-10-01', date_to: '2026-10-31', group_by: 'week' },
      metrics: { active_users: 2, new_registrations: 0, check_ins: 0, purchases: 4 },
      by_date: [
        { date: '2026-09-28', ...zeros },
        { date: '2026-10-05', ...zeros, active_users: 2, purchases: 3 },
        { date: '2026-10-12', ...zeros, active_users: 1, purchases: 1 },
        { date: '2026-10-19', ...zeros },
        { date: '2026-10-26', ...zeros },
      ],
    });
  });

  it('groups by month, a month without activity with zeros', async () => {
    expect(await ok('GET', `${BASE}/customers/activity?date_from=2026-08-01&date_to=2026-10-31&group_by=month`)).toEqual({
      period: { date_from: '2026-08-01', date_to: '2026-10-31', group_by: 'month' },
      metrics: { active_users: 2, new_registrations: 0, check_ins: 0, purchases: 5 },
      by_date: [
        { date: '2026-08-01', ...zeros },
        { date: '2026-09-01', ...zeros, active_users: 1, purchases: 1 },
        { date: '2026-10-01', ...zeros, active_users: 2, purchases: 4 },
      ],
    });
  });

  it('takes timestamps, counting the UTC day each falls on', async () => {
    // 01:00 at +02:00 is 23:00 UTC the day before.
    expect(await ok('GET', `${BASE}/customers/activity?date_from=${encodeURIComponent('2026-10-06T01:00:00+02:00')}&date_to=2026-10-06T08:00:00Z`)).toEqual({
      period: { date_from: '2026-10-05', date_to: '2026-10-06', group_by: 'day' },
      metrics: { active_users: 2, new_registrations: 0, check_ins: 0, purchases: 3 },
      by_date: [
        { date: '2026-10-05', ...zeros, active_users: 1, purchases: 1 },
        { date: '2026-10-06', ...zeros, active_users: 2, purchases: 2 },
      ],
    });
  });

  it("counts today's registrations (a deleted customer registered too), active users, check-ins and purchases, and narrows to a segment's members", async () => {
    // Active today: Alice (claim, use, join), Bob (purchase, join), Carol (bookings, check-in), Dave (a notification read).
    expect(await ok('GET', `${BASE}/customers/activity?date_from=${TODAY}&date_to=${TODAY}`)).toEqual({
      period: { date_from: TODAY, date_to: TODAY, group_by: 'day' },
      metrics: { active_users: 4, new_registrations: 5, check_ins: 1, purchases: 1 },
      by_date: [{ date: TODAY, active_users: 4, new_registrations: 5, check_ins: 1, purchases: 1 }],
    });
    expect(await ok('GET', `${BASE}/customers/activity?date_from=${TODAY}&date_to=${TODAY}&segment_id=${ids.segment}`)).toEqual({
      period: { date_from: TODAY, date_to: TODAY, group_by: 'day' },
      metrics: { active_users: 1, new_registrations: 1, check_ins: 0, purchases: 1 },
      by_date: [{ date: TODAY, active_users: 1, new_registrations: 1, check_ins: 0, purchases: 1 }],
    });
  });

  it('refuses bad parameters with 400 naming each field', async () => {
    const bad = await api('GET', `${BASE}/customers/activity?date_from=yesterday&group_by=year`);
    expect([bad.status, fieldsOf(bad)]).toEqual([400, ['date_from', 'group_by']]);
    const reversed = await api('GET', `${BASE}/customers/activity?date_from=2026-10-02&date_to=2026-10-01`);
    expect([reversed.status, fieldsOf(reversed)]).toEqual([400, ['date_to']]);
  });

  it('refuses years before 1900 (PostgreSQL has no year 0), days that do not exist and hours past 23 with 400 on the field', async () => {
    const cases: Array<[string, string[]]> = [
      ['customers/activity?date_from=0000-01-01&date_to=0000-01-02', ['date_from', 'date_to']],
      ['sales/trends?date_from=0000-01-01&date_to=0000-01-02', ['date_from', 'date_to']],
      ['sales/summary?date_from=0001-01-01&date_to=0001-01-31', ['date_from', 'date_to']],
      ['sales/summary?date_from=1899-12-31', ['date_from']],
      ['customers/activity?date_from=2026-02-30&date_to=2026-03-02', ['date_from']],
      ['sales/trends?date_from=2026-02-01&date_to=2026-02-29', ['date_to']],
      ['customers/activity?date_from=2026-10-06T24:00:00Z', ['date_from']],
      ['sales/summary?date_to=2026-13-01', ['date_to']],
    ];
    for (const [path, fields] of cases) {
      const response = await api('GET', `${BASE}/${path}`);
      expect([path, response.status, response.body.error?.code, fieldsOf(response)]).toEqual([path, 400, 'VALIDATION_ERROR', fields]);
    }
  });

  it('answers the first and last years allowed', async () => {
    const first = await ok('GET', `${BASE}/sales/summary?date_from=1900-01-01&date_to=1900-01-31`);
    expect(first.metrics).toEqual({ total_sales: 0, transaction_count: 0, average_basket_size: 0, growth_rate: null });
    const last = await ok('GET', `${BASE}/customers/activity?date_from=9999-12-01&date_to=9999-12-31&group_by=month`);
    expect(last.by_date).toEqual([{ date: '9999-12-01', ...zeros }]);
    const lastDays = await ok('GET', `${BASE}/sales/trends?date_from=9999-12-30&date_to=9999-12-31`);
    expect(lastDays.by_date.map((entry: { date: string }) => entry.date)).toEqual(['9999-12-30', '9999-12-31']);
  });
});

describe('segments', () => {
  it('counts the live customers (not the deleted one) and each segment’s share', async () => {
    expect(await ok('GET', `${BASE}/customers/segments`)).toEqual({
      total_customers: 4,
      by_segment: [{ segment_id: ids.segment, segment_name: expect.stringMatching(/^VIP /), count: 1, percentage: 25 }],
    });
  });
});

describe('sales', () => {
  it('sums October with growth against September, by store and by category', async () => {
    expect(await ok('GET', `${BASE}/sales/summary?date_from=2026-10-01&date_to=2026-10-31`)).toEqual({
      period: { date_from: '2026-10-01', date_to: '2026-10-31', group_by: null },
      metrics: { total_sales: 200.5, transaction_count: 4, average_basket_size: 50.13, growth_rate: 1.005 },
      by_store: [
        { store_id: 'S1', total_sales: 150, transaction_count: 3, average_basket_size: 50 },
        { store_id: 'S2', total_sales: 50.5, transaction_count: 1, average_basket_size: 50.5 },
      ],
      by_category: [
        { category: null, total_sales: 20, transaction_count: 1, average_basket_size: 20 },
        { category: 'drinks', total_sales: 50.5, transaction_count: 1, average_basket_size: 50.5 },
        { category: 'food', total_sales: 130, transaction_count: 2, average_basket_size: 65 },
      ],
    });
  });

  it('narrows to a store and a category; a period without previous sales has no growth rate; a fall is negative', async () => {
    const food = await ok('GET', `${BASE}/sales/summary?date_from=2026-10-01&date_to=2026-10-31&store_id=S1&category=food`);
    expect(food.metrics).toEqual({ total_sales: 130, transaction_count: 2, average_basket_size: 65, growth_rate: 0.3 });
    const september = await ok('GET', `${BASE}/sales/summary?date_from=2026-09-01&date_to=2026-09-30`);
    expect(september.metrics).toEqual({ total_sales: 100, transaction_count: 1, average_basket_size: 100, growth_rate: null });
    // 2026-10-06 (80.50) against 2026-10-05 (100): −0.195.
    expect((await ok('GET', `${BASE}/sales/summary?date_from=2026-10-06&date_to=2026-10-06`)).metrics.growth_rate).toBe(-0.195);
    // 10-08..10 (nothing) against 10-05..07 (180.50): −1.
    expect((await ok('GET', `${BASE}/sales/summary?date_from=2026-10-08&date_to=2026-10-10`)).metrics).toEqual({ total_sales: 0, transaction_count: 0, average_basket_size: 0, growth_rate: -1 });
  });

  it('rounds the growth rate to 4 decimals', async () => {
    // 10-14..10-22 against the 9 days before (10-05..10-13): at S1 (20 − 130) / 130, in all (20 − 180.50) / 180.50.
    expect((await ok('GET', `${BASE}/sales/summary?date_from=2026-10-14&date_to=2026-10-22&store_id=S1`)).metrics.growth_rate).toBe(-0.8462);
    expect((await ok('GET', `${BASE}/sales/summary?date_from=2026-10-14&date_to=2026-10-22`)).metrics.growth_rate).toBe(-0.8892);
  });

  it('nets the refunds made in the period', async () => {
    const week = await ok('GET', `${BASE}/sales/summary?date_from=${daysAgo(6).slice(0, 10)}&date_to=${TODAY}`);
    expect(week.metrics).toMatchObject({ total_sales: 210, transaction_count: 2, average_basket_size: 105 });
  });

  it('answers trends by month and by day, periods without sales with zeros', async () => {
    expect((await ok('GET', `${BASE}/sales/trends?date_from=2026-08-01&date_to=2026-10-31&group_by=month`)).by_date).toEqual([
      { date: '2026-08-01', total_sales: 0, transaction_count: 0, average_basket_size: 0 },
      { date: '2026-09-01', total_sales: 100, transaction_count: 1, average_basket_size: 100 },
      { date: '2026-10-01', total_sales: 200.5, transaction_count: 4, average_basket_size: 50.13 },
    ]);
    expect((await ok('GET', `${BASE}/sales/trends?date_from=2026-10-04&date_to=2026-10-07`)).by_date).toEqual([
      { date: '2026-10-04', total_sales: 0, transaction_count: 0, average_basket_size: 0 },
      { date: '2026-10-05', total_sales: 100, transaction_count: 1, average_basket_size: 100 },
      { date: '2026-10-06', total_sales: 80.5, transaction_count: 2, average_basket_size: 40.25 },
      { date: '2026-10-07', total_sales: 0, transaction_count: 0, average_basket_size: 0 },
    ]);
  });
});

describe('loyalty', () => {
  it("agrees with the point domain's balances: earned, redeemed, expired and held, by tier", async () => {
    // 150 + 40 + 30 + 5 awarded, 50 for the campaign, 560 for the purchases (a point per whole unit); 100 spent
    // on the claim and 50 taken back by the refund; Dave's 30 expired.
    expect(points).toEqual({ earned: 835, redeemed: 150, balance: 655 });
    expect(await ok('GET', `${BASE}/loyalty/points`)).toEqual({
      metrics: { points_earned: 835, points_redeemed: 150, points_expired: 30, active_balance: 655 },
      by_tier: [
        // Carol (150) and Dave (5); Erin, deleted, is not counted.
        { tier_id: null, tier_name: null, customers: 2, active_balance: 155 },
        { tier_id: ids.Gold, tier_name: 'Gold', customers: 1, active_balance: 300 },
        { tier_id: ids.Silver, tier_name: 'Silver', customers: 1, active_balance: 200 },
      ],
    });
  });

  it('counts the reward claimed and used', async () => {
    expect(await ok('GET', `${BASE}/loyalty/rewards`)).toEqual({
      metrics: { rewards_claimed: 1, rewards_redeemed: 1, redemption_rate: 1, total_value: 100 },
      top_rewards: [{ reward_id: ids.catalog, claimed: 1, redeemed: 1, total_value: 100 }],
    });
  });
});

describe('one campaign', () => {
  it('reports reach, participants, conversions, revenue, ROI and the segments', async () => {
    // Reach: the 4 customers active since yesterday; ROI: (60 − 50 points × 0.01) / 0.50.
    expect(await ok('GET', `${BASE}/campaigns/${ids.campaign}`)).toEqual({
      campaign_id: ids.campaign,
      name: 'Autumn',
      metrics: { reach: 4, participants: 2, conversions: 1, conversion_rate: 0.5, revenue: 60, roi: 119 },
      by_segment: [{ segment_id: ids.segment, segment_name: expect.stringMatching(/^VIP /), participants: 1, conversions: 1, conversion_rate: 1 }],
    });
  });

  it('answers 404 CAMPAIGN_NOT_FOUND for an unknown campaign', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await api('GET', `${BASE}/campaigns/${id}`);
      expect([id, missing.status, missing.body.error?.code]).toEqual([id, 404, 'CAMPAIGN_NOT_FOUND']);
    }
  });
});

describe('dashboard', () => {
  // Every point entry, claim, join and completion happened today.
  const loyalty = { points_earned: 835, points_redeemed: 150, rewards_claimed: 1, rewards_redeemed: 1, referrals_created: 0, referrals_completed: 0 };
  const campaigns = { active_campaigns: 1, participants_joined: 2, conversions: 1 };

  it('counts today: bookings made and not cancelled', async () => {
    expect(await ok('GET', `${BASE}/dashboard?time_range=today`)).toEqual({
      time_range: 'today',
      period: { date_from: TODAY, date_to: TODAY },
      customer_activity: { active_users: 4, new_registrations: 5, check_ins: 1, purchases: 1, bookings: 1 },
      sales: { total_sales: 10, transaction_count: 1, average_basket_size: 10 },
      loyalty,
      campaigns,
    });
  });

  it('counts 7 and 30 days', async () => {
    for (const [range, days] of [['7d', 6], ['30d', 29]] as const) {
      expect(await ok('GET', `${BASE}/dashboard?time_range=${range}`)).toEqual({
        time_range: range,
        period: { date_from: daysAgo(days).slice(0, 10), date_to: TODAY },
        customer_activity: { active_users: 4, new_registrations: 5, check_ins: 1, purchases: 2, bookings: 1 },
        sales: { total_sales: 210, transaction_count: 2, average_basket_size: 105 },
        loyalty,
        campaigns,
      });
    }
    const bad = await api('GET', `${BASE}/dashboard?time_range=1y`);
    expect([bad.status, fieldsOf(bad)]).toEqual([400, ['time_range']]);
  });
});

describe('access', () => {
  it('needs the analytics scope: marketing reads, tenant staff (scope read) are refused on REST and GraphQL', async () => {
    expect((await api('GET', `${BASE}/dashboard`, undefined, marketing.token)).status).toBe(200);
    const refused = await api('GET', `${BASE}/dashboard`, undefined, tenant.token);
    expect([refused.status, refused.body.error]).toEqual([403, 'insufficient_scope']);
    expect(refused.headers.get('www-authenticate')).toContain('scope="analytics"');
    const viaGraphql = await platform.graphql(`{ analyticsDashboard { timeRange } }`, {}, tenant.token);
    expect(viaGraphql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('gives the admin UI the same figures through GraphQL', async () => {
    const response = await platform.graphql(
      `query ($id: ID!) { salesSummary(dateFrom: "2026-10-01", dateTo: "2026-10-31") { metrics { totalSales transactionCount averageBasketSize growthRate } }
         campaignPerformance(id: $id) { metrics { reach participants conversions revenue roi } }
         loyaltyRewards { metrics { rewardsClaimed redemptionRate } } }`,
      { id: ids.campaign },
      marketing.token,
    );
    expect(response.body.data).toEqual({
      salesSummary: { metrics: { totalSales: 200.5, transactionCount: 4, averageBasketSize: 50.13, growthRate: 1.005 } },
      campaignPerformance: { metrics: { reach: 4, participants: 2, conversions: 1, revenue: 60, roi: 119 } },
      loyaltyRewards: { metrics: { rewardsClaimed: 1, redemptionRate: 1 } },
    });
  });
});

/** Every figure of the read model this file checks. */
async function allFigures(): Promise<unknown[]> {
  const paths = [
    `customers/activity?date_from=2026-10-01&date_to=2026-10-31&group_by=week`,
    `customers/activity?date_from=${TODAY}&date_to=${TODAY}`,
    `customers/segments`,
    `sales/summary?date_from=2026-10-01&date_to=2026-10-31`,
    `sales/trends?date_from=2026-09-01&date_to=${TODAY}&group_by=month`,
    `loyalty/points`,
    `loyalty/rewards`,
    `campaigns/${ids.campaign}`,
    `dashboard?time_range=30d`,
  ];
  const figures = await Promise.all(paths.map((path) => ok('GET', `${BASE}/${path}`)));
  // The profiles the customers report shows.
  const profiles = await platform.sql.query(`select customer_id, name, email, phone, tier_name, deleted_at is not null as deleted from analytics.customer order by customer_id`);
  return [...figures, profiles.rows];
}

describe('duplicates and replays', () => {
  let orm: MikroORM<PostgreSqlDriver>;
  let boss: PgBoss;
  beforeAll(async () => {
    orm = await openModuleOrm(analyticsModule, platform.databaseUrl);
    boss = await startJobQueue(platform.databaseUrl, createLogger('test', 'silent'));
  });
  afterAll(async () => {
    await stopJobQueue(boss);
    await orm?.close();
  });

  const outboxEvents = async (source: string) =>
    (await platform.sql.query(`select id, type, payload, occurred_at, sequence::text as sequence, aggregate_id from ${source}.outbox_event where type = any($1) order by sequence`, [
      Object.keys(ANALYTICS_EVENT_SOURCES),
    ])).rows.map((row) => ({ id: row.id, type: row.type, occurredAt: row.occurred_at.toISOString(), data: row.payload, source, sequence: row.sequence, aggregateId: row.aggregate_id }));

  it('changes nothing when events of every feeding domain are delivered again, in or out of their chain, or applied again', async () => {
    const before = await allFigures();
    const events = (await Promise.all([...new Set(Object.values(ANALYTICS_EVENT_SOURCES))].map(outboxEvents))).flat();
    // Every type the read model consumes was produced above, from every domain (but campaign.ended: the campaign runs on;
    // it is applied by the statement of campaign.created and campaign.started; and the referrals', counted by one
    // gated statement like registrations, whose figures test/referrals.test.ts checks on the dashboard).
    const notProduced = ['campaign.ended', 'referral.created', 'referral.completed'];
    expect([...new Set(events.map((event) => event.type))].sort()).toEqual(ANALYTICS_EVENTS.filter((type) => !notProduced.includes(type)).sort());
    // Again on the consumer's queue: in their chain (the consumer's position says "seen"), and bare, as a
    // replayed dead letter or a producer without a chain could send them (only the event id tells).
    const jobs = await Promise.all(
      events.flatMap(({ source, sequence, aggregateId, ...bare }) => [
        boss.send(ANALYTICS_READ_MODEL_QUEUE, { ...bare, source, sequence, aggregateId, previousSequence: null }),
        boss.send(ANALYTICS_READ_MODEL_QUEUE, bare),
      ]),
    );
    await waitFor(async () => {
      for (const id of jobs) {
        const job = await boss.getJobById(ANALYTICS_READ_MODEL_QUEUE, id!);
        if (job?.state === 'failed') throw new Error(`job failed: ${JSON.stringify(job.output)}`);
        if (job?.state !== 'completed') return false;
      }
      return true;
    }, 'the repeated events to be consumed');
    const appliedAgain = await orm.em.fork().transactional(async (em) => Promise.all(events.map(({ source, sequence, aggregateId, ...bare }) => applyAnalyticsEvent(em, bare))));
    expect(appliedAgain.filter(Boolean)).toEqual([]);
    expect(await allFigures()).toEqual(before);
  });

  it('rebuilds the same figures from the outboxes into an emptied read model', async () => {
    const before = await allFigures();
    await platform.sql.query(`update analytics.sales_day set gross = gross + 1000`);
    await platform.sql.query(`delete from analytics.customer_day where customer_id = $1`, [ids.Bob]);
    await platform.sql.query(`delete from analytics.reward_claim`);
    await platform.sql.query(`update analytics.day_total set bookings = bookings + 1`);
    await platform.sql.query(`update analytics.customer set name = 'Carol' where customer_id = $1`, [ids.Carol]);
    expect(await allFigures()).not.toEqual(before);
    const result = await rebuildReadModel(orm);
    expect(result.applied).toBe(await publishedEvents());
    expect(await allFigures()).toEqual(before);
  });

  it('rebuilds through `npm run analytics:rebuild`', async () => {
    const before = await allFigures();
    await platform.sql.query(`truncate analytics.customer, analytics.purchase, analytics.booking`);
    expect(await allFigures()).not.toEqual(before);
    const { stdout } = await promisify(execFile)('node', ['-r', '@swc-node/register', 'bin/analytics-rebuild.ts'], {
      env: { ...process.env, DATABASE_URL: platform.databaseUrl },
      cwd: `${__dirname}/..`,
    });
    expect(stdout).toContain(`Rebuilt the analytics read model from ${await publishedEvents()} events`);
    expect(await allFigures()).toEqual(before);
  }, 60_000);
});

describe('reports', () => {
  const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
  async function accepted(body: Record<string, unknown>, token = admin.token): Promise<string> {
    const response = await api('POST', `${BASE}/reports/generate`, body, token);
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ status: 'processing', download_url: null, expires_at: null, row_count: null, estimated_completion: expect.stringMatching(V1_TIME) });
    return response.body.data.report_id;
  }
  const settled = (id: string, token = admin.token) =>
    waitFor(async () => {
      const report = await api('GET', `${BASE}/reports/${id}`, undefined, token);
      if (report.status !== 200) throw new Error(`GET report: ${report.status} ${JSON.stringify(report.body)}`);
      return report.body.data.status !== 'processing' && report.body.data;
    }, `report ${id}`);
  async function generated(body: Record<string, unknown>, token = admin.token): Promise<any> {
    const report = await settled(await accepted(body, token), token);
    expect(report.status).toBe('completed');
    return report;
  }
  /** The URL is under PUBLIC_URL (the address clients know); the test reaches the adapter itself. */
  const download = async (url: string) => {
    expect(url.startsWith(`${platform.config.publicUrl}/analytics/reports/`)).toBe(true);
    const { pathname, search } = new URL(url);
    const response = await fetch(`${platform.restUrl}${pathname}${search}`);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };
  const rowsOf = async (report: { download_url: string; row_count: number }) => {
    const rows = parse((await download(report.download_url)).text, { columns: true }) as Array<Record<string, string>>;
    expect(report.row_count).toBe(rows.length);
    return rows;
  };

  it('writes the transactions of a period to a CSV file behind a signed URL that needs no token', async () => {
    const report = await generated({ type: 'transactions', format: 'csv', date_from: '2026-10-01', date_to: '2026-10-31' });
    expect(report).toMatchObject({ type: 'transactions', format: 'csv', row_count: 4, expires_at: expect.stringMatching(V1_TIME) });
    const hours = (Date.parse(report.expires_at) - Date.parse(report.completed_at)) / 3_600_000;
    expect(hours).toBe(24);
    const file = await download(report.download_url);
    expect([file.status, file.type]).toEqual([200, 'text/csv; charset=utf-8']);
    const rows = parse(file.text, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0])).toEqual(['transaction_id', 'customer_id', 'amount', 'refunded', 'status', 'store_id', 'category', 'points_earned', 'occurred_at']);
    expect(rows.map(({ customer_id, amount, refunded, status, store_id, category, points_earned, occurred_at }) => ({ customer_id, amount, refunded, status, store_id, category, points_earned, occurred_at })).sort((a, b) => a.occurred_at.localeCompare(b.occurred_at))).toEqual([
      { customer_id: ids.Alice, amount: '100.00', refunded: '0.00', status: 'completed', store_id: 'S1', category: 'food', points_earned: '100.00', occurred_at: '2026-10-05T09:00:00Z' },
      { customer_id: ids.Bob, amount: '30.00', refunded: '0.00', status: 'completed', store_id: 'S1', category: 'food', points_earned: '30.00', occurred_at: '2026-10-06T08:00:00Z' },
      { customer_id: ids.Alice, amount: '50.50', refunded: '0.00', status: 'completed', store_id: 'S2', category: 'drinks', points_earned: '50.00', occurred_at: '2026-10-06T23:30:00Z' },
      { customer_id: ids.Bob, amount: '20.00', refunded: '0.00', status: 'completed', store_id: 'S1', category: '', points_earned: '20.00', occurred_at: '2026-10-14T12:00:00Z' },
    ]);
  });

  it('writes the live customers with their current profile and tier, in pages by id; a segment narrows them', async () => {
    const customers = await rowsOf(await generated({ type: 'customers' }));
    const email = expect.stringMatching(/@example\.com$/);
    const registered = expect.stringMatching(new RegExp(`^${TODAY}T`));
    const row = (customer: string, name: string, phone: string, tier: string, balance: string, earned: string, redeemed: string) => ({
      customer_id: ids[customer], name, email, phone, tier, points_balance: balance, points_earned: earned, points_redeemed: redeemed, registered_at: registered,
    });
    // Rows in customer id order; Erin, deleted, is not there; Caroline is Carol after her update.
    expect(customers).toEqual(
      [
        row('Alice', 'Alice', '', 'Gold', '300.00', '400.00', '100.00'),
        row('Bob', 'Bob', '', 'Silver', '200.00', '200.00', '0.00'),
        row('Carol', 'Caroline', '0812345678', '', '150.00', '200.00', '50.00'),
        row('Dave', 'Dave', '', '', '5.00', '35.00', '0.00'),
      ].sort((a, b) => (a.customer_id < b.customer_id ? -1 : 1)),
    );
    const vip = await rowsOf(await generated({ type: 'customers', filters: { segment_id: ids.segment } }));
    expect(vip).toEqual([row('Bob', 'Bob', '', 'Silver', '200.00', '200.00', '0.00')]);
  });

  it('writes every point entry', async () => {
    const entries = await rowsOf(await generated({ type: 'points' }));
    expect(Object.keys(entries[0])).toEqual(['transaction_id', 'customer_id', 'type', 'points', 'reason', 'balance_after', 'created_at']);
    expect(entries.every((entry) => V1_TIME.test(entry.created_at) && entry.transaction_id.length > 0)).toBe(true);
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    // Each customer's entries: type, points and the balance after each, in the order they were written.
    const byCustomer: Record<string, string[]> = {};
    for (const entry of entries) (byCustomer[names[entry.customer_id]] ??= []).push(`${entry.type} ${entry.points} -> ${entry.balance_after}`);
    expect(Object.fromEntries(Object.entries(byCustomer).map(([name, lines]) => [name, lines.sort()]))).toEqual({
      Alice: ['earned 100.00 -> 100.00', 'earned 100.00 -> 200.00', 'earned 50.00 -> 250.00', 'earned 150.00 -> 400.00', 'redeemed 100.00 -> 300.00'].sort(),
      Bob: ['earned 30.00 -> 30.00', 'earned 20.00 -> 50.00', 'earned 40.00 -> 90.00', 'earned 60.00 -> 150.00', 'earned 50.00 -> 200.00'].sort(),
      Carol: ['earned 200.00 -> 200.00', 'redeemed 50.00 -> 150.00'].sort(),
      Dave: ['earned 30.00 -> 30.00', 'expired 30.00 -> 0.00', 'earned 5.00 -> 5.00'].sort(),
    });
    expect(entries.filter((entry) => entry.reason === 'Welcome').map((entry) => names[entry.customer_id]).sort()).toEqual(['Alice', 'Bob', 'Dave']);
    expect(entries.filter((entry) => entry.reason === 'Bonus').map((entry) => `${names[entry.customer_id]} ${entry.points}`)).toEqual(['Dave 5.00']);
  });

  it('writes the campaigns and the reward claims', async () => {
    const campaign = await ok('GET', `/api/v1/campaigns/${ids.campaign}`);
    expect(await rowsOf(await generated({ type: 'campaigns' }))).toEqual([
      {
        campaign_id: ids.campaign,
        name: 'Autumn',
        type: 'promotion',
        status: 'active',
        start_date: campaign.start_date,
        end_date: campaign.end_date,
        participants: '2',
        conversions: '1',
      },
    ]);
    expect(await rowsOf(await generated({ type: 'rewards' }))).toEqual([
      { claim_id: ids.claim, reward_id: ids.catalog, customer_id: ids.Alice, points: '100.00', claimed_at: expect.stringMatching(new RegExp(`^${TODAY}T`)), redeemed_at: expect.stringMatching(new RegExp(`^${TODAY}T`)) },
    ]);
  });

  it('refuses a changed or expired URL, and removes the file when the report expires', async () => {
    const report = await generated({ type: 'campaigns' });
    // A signature one hex digit off (always another digit than the one there).
    const tampered = report.download_url.replace(/signature=(.)/, (_: string, digit: string) => `signature=${digit === '0' ? '1' : '0'}`);
    expect(tampered).not.toBe(report.download_url);
    expect((await download(tampered)).status).toBe(403);
    const signer = new UrlSigner(platform.config.jwtSecret, REPORT_DOWNLOAD.purpose);
    const stale = signer.sign(platform.config.publicUrl, REPORT_DOWNLOAD.path(report.report_id), new Date(Date.now() - 1000));
    expect((await download(stale)).status).toBe(403);
    expect((await download(report.download_url)).status).toBe(200);

    await platform.sql.query(`update analytics.report set expires_at = now() - interval '1 second' where id = $1`, [report.report_id]);
    const orm = await openModuleOrm(analyticsModule, platform.databaseUrl);
    try {
      expect(await removeExpiredReports({ orm, storage: objectStorageIn(platform.config.dataDir) })).toBeGreaterThanOrEqual(1);
    } finally {
      await orm.close();
    }
    expect(await ok('GET', `${BASE}/reports/${report.report_id}`)).toMatchObject({ status: 'expired', download_url: null });
    const gone = await download(report.download_url);
    expect([gone.status, JSON.parse(gone.text).error.code]).toEqual([404, 'REPORT_NOT_FOUND']);
  });

  it('marks a report failed once its job has failed every try', async () => {
    // The reports' directory is a file for a while: every write fails.
    const directory = join(platform.config.dataDir, 'objects', 'reports');
    await mkdir(directory, { recursive: true });
    await rename(directory, `${directory}.kept`);
    await writeFile(directory, 'not a directory');
    try {
      const report = await settled(await accepted({ type: 'rewards' }));
      expect(report).toMatchObject({ status: 'failed', download_url: null, expires_at: null, row_count: null });
    } finally {
      await rm(directory);
      await rename(`${directory}.kept`, directory);
    }
    expect((await generated({ type: 'rewards' })).row_count).toBe(1);
  });

  it('validates the request: bad fields, years before 1900 and days that do not exist are 400 on the field', async () => {
    const bad = await api('POST', `${BASE}/reports/generate`, { type: 'orders', format: 'xlsx', date_from: 'soon', filters: { segment_id: 'x' } });
    expect([bad.status, fieldsOf(bad)]).toEqual([400, ['date_from', 'filters.segment_id', 'format', 'type']]);
    for (const [body, fields] of [
      [{ date_from: '0000-01-01' }, ['date_from']],
      [{ date_from: '0001-01-01T00:00:00Z', date_to: '2026-02-30' }, ['date_from', 'date_to']],
      [{ date_to: '2026-04-31T10:00:00+07:00' }, ['date_to']],
    ] as const) {
      const refused = await api('POST', `${BASE}/reports/generate`, { type: 'transactions', ...body });
      expect([body, refused.status, fieldsOf(refused)]).toEqual([body, 400, fields]);
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await api('GET', `${BASE}/reports/${id}`);
      expect([id, missing.status, missing.body.error?.code]).toEqual([id, 404, 'REPORT_NOT_FOUND']);
    }
  });

  it('needs the analytics and write scopes to ask for one, and shows a report only to its requester and admins', async () => {
    expect((await api('POST', `${BASE}/reports/generate`, { type: 'customers' }, tenant.token)).status).toBe(403);
    const key = async (scopes: string[]) => {
      const created = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId: await platform.roleId('admin'), scopes } });
      expect(created.status).toBe(201);
      return created.body.data.apiKey as string;
    };
    const analyticsOnly = await platform.api('POST', `${BASE}/reports/generate`, { headers: { 'x-api-key': await key(['analytics']) }, body: { type: 'customers' } });
    expect([analyticsOnly.status, analyticsOnly.body.error]).toEqual([403, 'insufficient_scope']);
    expect(analyticsOnly.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="analytics write"');
    expect((await platform.api('POST', `${BASE}/reports/generate`, { headers: { 'x-api-key': await key(['analytics', 'write']) }, body: { type: 'campaigns' } })).status).toBe(202);

    // Marketing asks; another marketing user is answered 404 on REST and GraphQL; the admin reads it.
    const id = await accepted({ type: 'customers' }, marketing.token);
    const report = await settled(id, marketing.token);
    expect(report).toMatchObject({ report_id: id, status: 'completed', row_count: 4 });
    const colleague = await platform.createStaff('marketing');
    const hidden = await api('GET', `${BASE}/reports/${id}`, undefined, colleague.token);
    expect([hidden.status, hidden.body.error?.code]).toEqual([404, 'REPORT_NOT_FOUND']);
    const viaGraphql = await platform.graphql(`query ($id: ID!) { report(id: $id) { reportId } }`, { id }, colleague.token);
    expect(viaGraphql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await ok('GET', `${BASE}/reports/${id}`)).toMatchObject({ report_id: id, status: 'completed', download_url: expect.any(String) });
    // GraphQL asks for analytics:report to generate (tenant holds neither it nor analytics:read).
    const tenantAsks = await platform.graphql(`mutation { generateReport(input: { type: "customers" }) { reportId } }`, {}, tenant.token);
    expect(tenantAsks.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
