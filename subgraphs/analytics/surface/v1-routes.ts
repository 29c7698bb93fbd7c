import { Route, V1_BASE } from '../../../core/rest/route';
import { arrayOf, date, dateQuery, id, integer, nullable, number, object, oneOf, string, timestamp } from '../../../core/rest/json-schema';

const ACTIVITY_SELECTION = 'activeUsers newRegistrations checkIns purchases';
const SALES_SELECTION = 'totalSales transactionCount averageBasketSize';
const PERIOD_SELECTION = 'period { dateFrom dateTo groupBy }';
const REPORT_SELECTION = 'reportId type format status downloadUrl estimatedCompletion expiresAt rowCount createdAt completedAt';

const BASE = `${V1_BASE}/analytics`;

const required = (properties: Record<string, Record<string, unknown>>) => object(properties, Object.keys(properties));
const PERIOD = object({ date_from: date(), date_to: date(), group_by: nullable(oneOf('day', 'week', 'month')) }, ['date_from', 'date_to']);
const ACTIVITY = { active_users: integer(), new_registrations: integer(), check_ins: integer(), purchases: integer() };
const SALES = { total_sales: number({ description: 'purchases less the refunds made in the period' }), transaction_count: integer(), average_basket_size: number() };
const RANGE_QUERY = {
  date_from: dateQuery('from this UTC day (default: 29 days before date_to)'),
  date_to: dateQuery('up to this UTC day, included (default: today)'),
};
const GROUP_QUERY = { group_by: oneOf('day', 'week', 'month') };
const REPORT = required({
  report_id: id(),
  type: oneOf('customers', 'points', 'transactions', 'campaigns', 'rewards'),
  format: oneOf('csv'),
  status: oneOf('processing', 'completed', 'failed', 'expired'),
  download_url: nullable(string({ format: 'uri', description: 'signed; works without a token until expires_at; answers text/csv with a header row' })),
  estimated_completion: nullable(timestamp()),
  expires_at: nullable(timestamp()),
  row_count: nullable(integer({ description: 'rows written, the header not counted' })),
  created_at: timestamp(),
  completed_at: nullable(timestamp()),
});
const CAMPAIGN_FIGURES = { participants: integer(), conversions: integer(), conversion_rate: number({ description: '0 to 1' }) };

/**
 * Part 3 analytics (CONTRACT-v1 section 2: `/analytics/*` needs the `analytics` scope, a POST `write`
 * too; the subgraph needs analytics:read, analytics:report to ask for a report). Figures come from the
 * analytics read model, by UTC day.
 */
export const V1_ANALYTICS_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/customers/activity`,
    document: `query V1CustomerActivity($dateFrom: String, $dateTo: String, $groupBy: String, $segmentId: ID) {
    customerActivity(dateFrom: $dateFrom, dateTo: $dateTo, groupBy: $groupBy, segmentId: $segmentId) { ${PERIOD_SELECTION} metrics { ${ACTIVITY_SELECTION} } byDate { date ${ACTIVITY_SELECTION} } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Active users, new registrations, check-ins and purchases, in total and by period (periods without activity show zeros)',
      query: { ...RANGE_QUERY, ...GROUP_QUERY, segment_id: id({ description: "only the segment's members" }) },
      response: required({ period: PERIOD, metrics: required(ACTIVITY), by_date: arrayOf(required({ date: date(), ...ACTIVITY })) }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/customers/segments`,
    document: `query V1SegmentsBreakdown { customerSegmentsBreakdown { totalCustomers bySegment { segmentId segmentName count percentage } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Customers, and how many of them each segment holds',
      response: required({
        total_customers: integer(),
        by_segment: arrayOf(required({ segment_id: id(), segment_name: nullable(string()), count: integer(), percentage: number({ description: '0 to 100' }) })),
      }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/sales/summary`,
    document: `query V1SalesSummary($dateFrom: String, $dateTo: String, $storeId: String, $category: String) {
    salesSummary(dateFrom: $dateFrom, dateTo: $dateTo, storeId: $storeId, category: $category) {
      ${PERIOD_SELECTION} metrics { ${SALES_SELECTION} growthRate } byStore { storeId ${SALES_SELECTION} } byCategory { category ${SALES_SELECTION} } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Sales, transaction count, average basket and growth against the previous period of equal length, by store and category',
      query: { ...RANGE_QUERY, store_id: string(), category: string() },
      response: required({
        period: PERIOD,
        metrics: required({ ...SALES, growth_rate: nullable(number({ description: '(this − previous) / previous; null when the previous period had no sales' })) }),
        by_store: arrayOf(required({ store_id: nullable(string()), ...SALES })),
        by_category: arrayOf(required({ category: nullable(string()), ...SALES })),
      }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/sales/trends`,
    document: `query V1SalesTrends($dateFrom: String, $dateTo: String, $groupBy: String) {
    salesTrends(dateFrom: $dateFrom, dateTo: $dateTo, groupBy: $groupBy) { ${PERIOD_SELECTION} byDate { date ${SALES_SELECTION} } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Sales by day, week or month (periods without sales show zeros)',
      query: { ...RANGE_QUERY, ...GROUP_QUERY },
      response: required({ period: PERIOD, by_date: arrayOf(required({ date: date(), ...SALES })) }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/loyalty/points`,
    document: `query V1LoyaltyPoints { loyaltyPoints { metrics { pointsEarned pointsRedeemed pointsExpired activeBalance } byTier { tierId tierName customers activeBalance } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Points earned, redeemed and expired (all time) and the balances held now, by tier',
      response: required({
        metrics: required({ points_earned: number(), points_redeemed: number(), points_expired: number(), active_balance: number() }),
        by_tier: arrayOf(required({ tier_id: nullable(id()), tier_name: nullable(string()), customers: integer(), active_balance: number() })),
      }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/loyalty/rewards`,
    document: `query V1LoyaltyRewards { loyaltyRewards { metrics { rewardsClaimed rewardsRedeemed redemptionRate totalValue } topRewards { rewardId claimed redeemed totalValue } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Rewards claimed and used, redemption rate, points spent on claims, the 10 most claimed rewards',
      response: required({
        metrics: required({ rewards_claimed: integer(), rewards_redeemed: integer(), redemption_rate: number({ description: '0 to 1' }), total_value: number({ description: 'points' }) }),
        top_rewards: arrayOf(required({ reward_id: id(), claimed: integer(), redeemed: integer(), total_value: number() })),
      }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/campaigns/:id`,
    document: `query V1CampaignPerformance($id: ID!) { campaignPerformance(id: $id) {
    campaignId name metrics { reach participants conversions conversionRate revenue roi } bySegment { segmentId segmentName participants conversions conversionRate } } }`,
    envelope: 'v1',
    scope: 'analytics',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: {
      summary: "One campaign's reach, participants, conversions, revenue and ROI, by segment",
      response: required({
        campaign_id: id(),
        name: string(),
        metrics: required({ reach: integer(), ...CAMPAIGN_FIGURES, revenue: number(), roi: nullable(number()) }),
        by_segment: arrayOf(required({ segment_id: id(), segment_name: nullable(string()), ...CAMPAIGN_FIGURES })),
      }),
    },
  },
  {
    method: 'get',
    path: `${BASE}/dashboard`,
    document: `query V1AnalyticsDashboard($timeRange: String) { analyticsDashboard(timeRange: $timeRange) {
    timeRange period { dateFrom dateTo } customerActivity { ${ACTIVITY_SELECTION} bookings } sales { ${SALES_SELECTION} }
    loyalty { pointsEarned pointsRedeemed rewardsClaimed rewardsRedeemed referralsCreated referralsCompleted } campaigns { activeCampaigns participantsJoined conversions } } }`,
    envelope: 'v1',
    scope: 'analytics',
    doc: {
      summary: 'Counters of customer activity, sales, loyalty and campaigns for today, the last 7 or 30 UTC days',
      query: { time_range: oneOf('today', '7d', '30d') },
      response: required({
        time_range: oneOf('today', '7d', '30d'),
        period: object({ date_from: date(), date_to: date() }, ['date_from', 'date_to']),
        customer_activity: required({ ...ACTIVITY, bookings: integer() }),
        sales: required(SALES),
        loyalty: required({
          points_earned: number(),
          points_redeemed: number(),
          rewards_claimed: integer(),
          rewards_redeemed: integer(),
          referrals_created: integer({ description: 'sign-ups accepted as referrals' }),
          referrals_completed: integer({ description: 'referrals completed by a qualifying transaction' }),
        }),
        campaigns: required({ active_campaigns: integer(), participants_joined: integer(), conversions: integer() }),
      }),
    },
  },
  {
    method: 'post',
    path: `${BASE}/reports/generate`,
    document: `mutation V1GenerateReport($input: GenerateReportInput!) { generateReport(input: $input) { ${REPORT_SELECTION} } }`,
    envelope: 'v1',
    status: 202,
    // Contract section 2: a POST needs `write`, and /analytics/* needs `analytics`.
    scope: ['analytics', 'write'],
    doc: {
      summary: 'Asks for a CSV report; a job writes it (GET the report for its status and download_url); needs the analytics and write scopes',
      response: REPORT,
    },
  },
  {
    method: 'get',
    path: `${BASE}/reports/:id`,
    document: `query V1Report($id: ID!) { report(id: $id) { ${REPORT_SELECTION} } }`,
    envelope: 'v1',
    scope: 'analytics',
    notFound: 'REPORT_NOT_FOUND',
    doc: { summary: "A report's status, its signed download_url once completed, and expires_at: the requester's own reports (admin: every report; others' are 404)", response: REPORT },
  },
];
