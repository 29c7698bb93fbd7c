import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import PgBoss from 'pg-boss';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { createLogger } from '../core/logger';
import { openModuleOrm } from '../core/module';
import { analyticsModule } from '../subgraphs/analytics/module';
import { ANALYTICS_EVENT_SOURCES, ANALYTICS_READ_MODEL_QUEUE, applyAnalyticsEvent } from '../subgraphs/analytics/services/read-model';
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
const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'] });

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
  for (const name of ['Alice', 'Bob', 'Carol']) ids[name] = (await ok('POST', '/api/v1/customers', { name, email: `${unique(name.toLowerCase())}@example.com` }, 201)).id;
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
  const used = await platform.graphql(`mutation ($id: ID!, $code: String!) { useRewardCode(id: $id, code: $code) { id } }`, { id: claimed.id, code: claimed.voucher_code }, admin.token);
  if (used.body.errors) throw new Error(JSON.stringify(used.body.errors));

  // Carol books a table starting soon (check-in opens shortly before the start) and checks in.
  const venue = await ok('POST', '/api/v1/venues', { name: 'Riverside', type: 'restaurant', address: '1 River Road', phone: '021234567', capacity: 10, ...OPEN_ALL_DAY }, 201);
  const booking = await ok('POST', '/api/v1/bookings', { customer_id: ids.Carol, venue_id: venue.id, type: 'table', ...slotSoon(), duration: 5, guests: 2 }, 201);
  await ok('POST', `/api/v1/bookings/${booking.id}/checkin`, { check_in_code: booking.check_in_code });

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
  for (const customer of ['Alice', 'Bob', 'Carol']) {
    const balance = await ok('GET', `/api/v1/customers/${ids[customer]}/points/balance`);
    points = { earned: points.earned + balance.lifetime_earned, redeemed: points.redeemed + balance.lifetime_redeemed, balance: points.balance + balance.balance };
  }
}, 120_000);

const zeros = { active_users: 0, new_registrations: 0, check_ins: 0, purchases: 0 };

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

  it("counts today's registrations, check-ins and purchases, and narrows to a segment's members", async () => {
    expect(await ok('GET', `${BASE}/customers/activity?date_from=${TODAY}&date_to=${TODAY}`)).toEqual({
      period: { date_from: TODAY, date_to: TODAY, group_by: 'day' },
      metrics: { active_users: 3, new_registrations: 3, check_ins: 1, purchases: 1 },
      by_date: [{ date: TODAY, active_users: 3, new_registrations: 3, check_ins: 1, purchases: 1 }],
    });
    const vip = await ok('GET', `${BASE}/customers/activity?date_from=${TODAY}&date_to=${TODAY}&segment_id=${ids.segment}`);
    expect(vip.metrics).toEqual({ active_users: 1, new_registrations: 1, check_ins: 0, purchases: 1 });
  });

  it('refuses bad parameters with 400 naming each field', async () => {
    const bad = await api('GET', `${BASE}/customers/activity?date_from=yesterday&group_by=year`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['date_from', 'group_by']);
    const reversed = await api('GET', `${BASE}/customers/activity?date_from=2026-10-02&date_to=2026-10-01`);
    expect([reversed.status, reversed.body.error.details[0].field]).toEqual([400, 'date_to']);
  });
});

describe('segments', () => {
  it('counts the customers and each segment’s share', async () => {
    const data = await ok('GET', `${BASE}/customers/segments`);
    expect(data.total_customers).toBe(3);
    expect(data.by_segment).toEqual([{ segment_id: ids.segment, segment_name: expect.stringMatching(/^VIP /), count: 1, percentage: 33.33 }]);
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

  it('narrows to a store and a category; a period without previous sales has no growth rate', async () => {
    const food = await ok('GET', `${BASE}/sales/summary?date_from=2026-10-01&date_to=2026-10-31&store_id=S1&category=food`);
    expect(food.metrics).toEqual({ total_sales: 130, transaction_count: 2, average_basket_size: 65, growth_rate: 0.3 });
    const september = await ok('GET', `${BASE}/sales/summary?date_from=2026-09-01&date_to=2026-09-30`);
    expect(september.metrics).toEqual({ total_sales: 100, transaction_count: 1, average_basket_size: 100, growth_rate: null });
  });

  it('nets the refunds made in the period', async () => {
    const week = await ok('GET', `${BASE}/sales/summary?date_from=${daysAgo(6).slice(0, 10)}&date_to=${TODAY}`);
    expect(week.metrics).toMatchObject({ total_sales: 210, transaction_count: 2, average_basket_size: 105 });
  });

  it('answers trends by month and by day, periods without sales with zeros', async () => {
    expect((await ok('GET', `${BASE}/sales/trends?date_from=2026-09-01&date_to=2026-10-31&group_by=month`)).by_date).toEqual([
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
  it("agrees with the point domain's balances: earned, redeemed and held, by tier", async () => {
    // 150 + 40 awarded, 50 for the campaign, 560 for the purchases (a point per whole unit); 100 spent on the
    // claim and 50 taken back by the refund.
    expect(points).toEqual({ earned: 800, redeemed: 150, balance: 650 });
    const data = await ok('GET', `${BASE}/loyalty/points`);
    expect(data.metrics).toEqual({ points_earned: points.earned, points_redeemed: points.redeemed, points_expired: 0, active_balance: points.balance });
    expect(data.by_tier.reduce((sum: number, tier: { customers: number }) => sum + tier.customers, 0)).toBe(3);
    expect(data.by_tier.reduce((sum: number, tier: { active_balance: number }) => sum + tier.active_balance, 0)).toBe(points.balance);
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
    expect(await ok('GET', `${BASE}/campaigns/${ids.campaign}`)).toEqual({
      campaign_id: ids.campaign,
      name: 'Autumn',
      metrics: { reach: 3, participants: 2, conversions: 1, conversion_rate: 0.5, revenue: 60, roi: 119 },
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
  it('counts today, 7 and 30 days', async () => {
    const today = await ok('GET', `${BASE}/dashboard?time_range=today`);
    expect(today).toEqual({
      time_range: 'today',
      period: { date_from: TODAY, date_to: TODAY },
      customer_activity: { active_users: 3, new_registrations: 3, check_ins: 1, purchases: 1, bookings: 1 },
      sales: { total_sales: 10, transaction_count: 1, average_basket_size: 10 },
      loyalty: { points_earned: points.earned, points_redeemed: points.redeemed, rewards_claimed: 1, rewards_redeemed: 1 },
      campaigns: { active_campaigns: 1, participants_joined: 2, conversions: 1 },
    });
    for (const range of ['7d', '30d']) {
      const data = await ok('GET', `${BASE}/dashboard?time_range=${range}`);
      expect(data.customer_activity).toEqual({ active_users: 3, new_registrations: 3, check_ins: 1, purchases: 2, bookings: 1 });
      expect(data.sales).toEqual({ total_sales: 210, transaction_count: 2, average_basket_size: 105 });
    }
    const bad = await api('GET', `${BASE}/dashboard?time_range=1y`);
    expect([bad.status, bad.body.error.details[0].field]).toEqual([400, 'time_range']);
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
      campaignPerformance: { metrics: { reach: 3, participants: 2, conversions: 1, revenue: 60, roi: 119 } },
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
  return Promise.all(paths.map((path) => ok('GET', `${BASE}/${path}`)));
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

  it('changes nothing when events are delivered again, in or out of their chain, or applied again', async () => {
    const before = await allFigures();
    const events = [...(await outboxEvents('point')), ...(await outboxEvents('reward')), ...(await outboxEvents('campaign'))];
    expect(events.length).toBeGreaterThan(20);
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
    expect(await allFigures()).not.toEqual(before);
    const result = await rebuildReadModel(orm);
    expect(result.applied).toBe(await publishedEvents());
    expect(await allFigures()).toEqual(before);
  });

  it('rebuilds through `npm run analytics:rebuild`', async () => {
    const before = await allFigures();
    await platform.sql.query(`truncate analytics.customer, analytics.purchase`);
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
  async function generated(body: Record<string, unknown>): Promise<any> {
    const accepted = await api('POST', `${BASE}/reports/generate`, body);
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toMatchObject({ status: 'processing', download_url: null, expires_at: null, estimated_completion: expect.stringMatching(V1_TIME) });
    const id = accepted.body.data.report_id;
    return waitFor(async () => {
      const report = await ok('GET', `${BASE}/reports/${id}`);
      return report.status === 'completed' && report;
    }, `report ${id}`);
  }
  /** The URL is under PUBLIC_URL (the address clients know); the test reaches the adapter itself. */
  const download = async (url: string) => {
    expect(url.startsWith(`${platform.config.publicUrl}/analytics/reports/`)).toBe(true);
    const { pathname, search } = new URL(url);
    const response = await fetch(`${platform.restUrl}${pathname}${search}`);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  it('writes the transactions of a period to a CSV file behind a signed URL that needs no token', async () => {
    const report = await generated({ type: 'transactions', format: 'csv', date_from: '2026-10-01', date_to: '2026-10-31' });
    expect(report).toMatchObject({ type: 'transactions', format: 'csv', row_count: '4', expires_at: expect.stringMatching(V1_TIME) });
    const hours = (Date.parse(report.expires_at) - Date.parse(report.completed_at)) / 3_600_000;
    expect(hours).toBe(24);
    const file = await download(report.download_url);
    expect([file.status, file.type]).toEqual([200, 'text/csv; charset=utf-8']);
    const rows = parse(file.text, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0])).toEqual(['transaction_id', 'customer_id', 'amount', 'refunded', 'status', 'store_id', 'category', 'points_earned', 'occurred_at']);
    expect(rows.map(({ customer_id, amount, store_id, category, occurred_at }) => ({ customer_id, amount, store_id, category, occurred_at })).sort((a, b) => a.occurred_at.localeCompare(b.occurred_at))).toEqual([
      { customer_id: ids.Alice, amount: '100.00', store_id: 'S1', category: 'food', occurred_at: '2026-10-05T09:00:00Z' },
      { customer_id: ids.Bob, amount: '30.00', store_id: 'S1', category: 'food', occurred_at: '2026-10-06T08:00:00Z' },
      { customer_id: ids.Alice, amount: '50.50', store_id: 'S2', category: 'drinks', occurred_at: '2026-10-06T23:30:00Z' },
      { customer_id: ids.Bob, amount: '20.00', store_id: 'S1', category: '', occurred_at: '2026-10-14T12:00:00Z' },
    ]);
  });

  it("narrows customers to a segment's members, and writes points, campaigns and rewards", async () => {
    const vip = await generated({ type: 'customers', filters: { segment_id: ids.segment } });
    const customers = parse((await download(vip.download_url)).text, { columns: true }) as Array<Record<string, string>>;
    expect(customers).toEqual([
      { customer_id: ids.Bob, name: 'Bob', email: expect.stringMatching(/@example\.com$/), phone: '', tier: '', points_balance: '200.00', points_earned: '200.00', points_redeemed: '0.00', registered_at: expect.stringMatching(V1_TIME) },
    ]);
    const counts: Record<string, number> = {};
    for (const type of ['points', 'campaigns', 'rewards']) {
      const report = await generated({ type });
      counts[type] = (parse((await download(report.download_url)).text, { columns: true }) as unknown[]).length;
      expect(report.row_count).toBe(String(counts[type]));
    }
    // 7 purchases' points, 2 awards, the campaign's points, the claim and the refund's take-back.
    expect(counts).toEqual({ points: 12, campaigns: 1, rewards: 1 });
  });

  it('refuses a changed or expired URL, and removes the file when the report expires', async () => {
    const report = await generated({ type: 'campaigns' });
    expect((await download(report.download_url.replace(/signature=./, 'signature=0'))).status).toBe(403);
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

  it('validates the request, answers REPORT_NOT_FOUND, and needs the analytics scope', async () => {
    const bad = await api('POST', `${BASE}/reports/generate`, { type: 'orders', format: 'xlsx', date_from: 'soon', filters: { segment_id: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['date_from', 'filters.segment_id', 'format', 'type']);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await api('GET', `${BASE}/reports/${id}`);
      expect([id, missing.status, missing.body.error?.code]).toEqual([id, 404, 'REPORT_NOT_FOUND']);
    }
    expect((await api('POST', `${BASE}/reports/generate`, { type: 'customers' }, tenant.token)).status).toBe(403);
  });
});
