import { EntityManager } from '@mikro-orm/postgresql';
import { arrayLiteral } from '../../../core/db/array-literal';
import { notFound, validationError } from '../../../core/errors';
import { isRecordId } from '../../../core/ids';
import {
  ActivityMetrics,
  CampaignReport,
  CustomerActivity,
  CustomerActivityArgs,
  CustomerSegments,
  Dashboard,
  DashboardArgs,
  GroupBy,
  GroupedPeriodArgs,
  LoyaltyPoints,
  LoyaltyRewards,
  SalesFigures,
  SalesSummary,
  SalesSummaryArgs,
  SalesTrends,
  TimeRange,
} from '../types/analytics.types';
import { AnalyticsSupergraph } from './analytics-supergraph';
import { DayRange, dayRange, periodStarts, previousRange, timeRangeDays } from './periods';

/** part / whole with 4 decimals (0 when nothing to divide by); figures have at most 2 decimals, so `part × 10000` is exact. */
const ratio = (part: number, whole: number): number => (whole !== 0 ? Math.round((part * 10000) / whole) / 10000 : 0);
const money = (value: string | null | undefined): number => Number(value ?? 0);

interface SalesRow {
  total: string;
  transactions: string;
  average: string;
}
const salesFigures = (row: SalesRow | undefined): SalesFigures => ({
  totalSales: money(row?.total),
  transactionCount: Number(row?.transactions ?? 0),
  averageBasketSize: money(row?.average),
});
/** Net sales (purchases less the refunds made) of `sales_day` rows and the average basket, as exact decimals (PostgreSQL numerics). */
const SALES_SUMS = `coalesce(sum(gross) - sum(refunded), 0)::numeric(16,2)::text as total, coalesce(sum(transactions), 0)::text as transactions,
  coalesce(round((sum(gross) - sum(refunded)) / nullif(sum(transactions), 0), 2), 0)::text as average`;

/**
 * The dashboard's statements, in order (`?` parameters): sums of at most 30 daily rows and the customers
 * active since `from` (the period ends today) by their latest active day; the period's sales; the active
 * campaigns and the period's completions. The bench's baseline runs the same statements straight on a pool.
 */
export const dashboardStatements = (range: DayRange): Array<{ sql: string; params: string[] }> => [
  {
    sql: `select coalesce(sum(registrations), 0)::text as registrations, coalesce(sum(check_ins), 0)::text as check_ins,
                 coalesce(sum(purchases), 0)::text as purchases, coalesce(sum(bookings), 0)::text as bookings,
                 coalesce(sum(points_earned), 0)::text as earned, coalesce(sum(points_redeemed), 0)::text as redeemed,
                 coalesce(sum(rewards_claimed), 0)::text as claimed, coalesce(sum(rewards_redeemed), 0)::text as used, coalesce(sum(campaign_joins), 0)::text as joins,
                 coalesce(sum(referrals_created), 0)::text as referrals_created, coalesce(sum(referrals_completed), 0)::text as referrals_completed,
                 (select count(*) from analytics.customer where last_active_day between ? and ?)::text as active
            from analytics.day_total where day between ? and ?`,
    params: [range.from, range.to, range.from, range.to],
  },
  { sql: `select ${SALES_SUMS} from analytics.sales_day where day between ? and ?`, params: [range.from, range.to] },
  {
    sql: `select (select count(*) from analytics.campaign where status = 'active')::text as active,
                 (select count(*) from analytics.campaign_participant
                   where completed_at >= ?::date::timestamp at time zone 'UTC' and completed_at < (?::date + 1)::timestamp at time zone 'UTC')::text as conversions`,
    params: [range.from, range.to],
  },
];

/** The rows of the dashboard's statements, in their order. */
export type DashboardRows = [Record<string, string>, SalesRow, Record<string, string>];

/** The dashboard from its statements' rows. */
export const dashboardOf = (timeRange: TimeRange, range: DayRange, [day, sales, campaigns]: DashboardRows): Dashboard => ({
  timeRange,
  period: { dateFrom: range.from, dateTo: range.to },
  customerActivity: {
    activeUsers: Number(day.active),
    newRegistrations: Number(day.registrations),
    checkIns: Number(day.check_ins),
    purchases: Number(day.purchases),
    bookings: Number(day.bookings),
  },
  sales: salesFigures(sales),
  loyalty: {
    pointsEarned: money(day.earned),
    pointsRedeemed: money(day.redeemed),
    rewardsClaimed: Number(day.claimed),
    rewardsRedeemed: Number(day.used),
    referralsCreated: Number(day.referrals_created),
    referralsCompleted: Number(day.referrals_completed),
  },
  campaigns: { activeCampaigns: Number(campaigns.active), participantsJoined: Number(day.joins), conversions: Number(campaigns.conversions) },
});

/**
 * The figures of Part 3's Analytics table, read from the analytics read model only (its own schema),
 * by UTC day; segments, which the cluster domain evaluates, through the gateway.
 */
export class AnalyticsService {
  constructor(
    private readonly em: EntityManager,
    private readonly supergraph: AnalyticsSupergraph | undefined,
    private readonly pointValue: string,
  ) {}

  private segments(): AnalyticsSupergraph {
    if (!this.supergraph) throw new Error('The analytics service has no gateway');
    return this.supergraph;
  }

  /** A segment's members now; 400 on `segmentId` for an unknown segment. */
  private async segmentMembers(segmentId: string): Promise<string[]> {
    const segment = await this.segments().segment(segmentId);
    if (!segment) throw validationError([{ field: 'segmentId', message: 'segment_id is not a live segment' }]);
    return this.segments().memberIds(segment.id);
  }

  async customerActivity(args: CustomerActivityArgs): Promise<CustomerActivity> {
    const range = dayRange(args);
    const unit = (args.groupBy ?? 'day') as GroupBy;
    const members = args.segmentId !== undefined ? await this.segmentMembers(args.segmentId) : undefined;
    const only = members ? `and customer_id = any(?::uuid[])` : '';
    const onlyParams = members ? [arrayLiteral(members)] : [];
    const activity: Array<{ period: string; active: string; check_ins: string; purchases: string }> = await this.em.execute(
      `select to_char(date_trunc(?, day::timestamp), 'YYYY-MM-DD') as period, count(distinct customer_id) filter (where actions > 0)::text as active,
              sum(check_ins)::text as check_ins, sum(purchases)::text as purchases
         from analytics.customer_day where day between ? and ? ${only} group by 1`,
      [unit, range.from, range.to, ...onlyParams],
    );
    const registrations: Array<{ period: string; count: string }> = await this.em.execute(
      `select to_char(date_trunc(?, (registered_at at time zone 'UTC')::date::timestamp), 'YYYY-MM-DD') as period, count(*)::text as count
         from analytics.customer where (registered_at at time zone 'UTC')::date between ? and ? ${only} group by 1`,
      [unit, range.from, range.to, ...onlyParams],
    );
    const [{ active }] = await this.em.execute(
      `select count(distinct customer_id)::text as active from analytics.customer_day where day between ? and ? and actions > 0 ${only}`,
      [range.from, range.to, ...onlyParams],
    );
    const activityBy = new Map(activity.map((row) => [row.period, row]));
    const registrationsBy = new Map(registrations.map((row) => [row.period, Number(row.count)]));
    const byDate = periodStarts(range, unit).map((date) => {
      const row = activityBy.get(date);
      return {
        date,
        activeUsers: Number(row?.active ?? 0),
        newRegistrations: registrationsBy.get(date) ?? 0,
        checkIns: Number(row?.check_ins ?? 0),
        purchases: Number(row?.purchases ?? 0),
      };
    });
    const metrics: ActivityMetrics = {
      activeUsers: Number(active),
      newRegistrations: byDate.reduce((sum, entry) => sum + entry.newRegistrations, 0),
      checkIns: byDate.reduce((sum, entry) => sum + entry.checkIns, 0),
      purchases: byDate.reduce((sum, entry) => sum + entry.purchases, 0),
    };
    return { period: { dateFrom: range.from, dateTo: range.to, groupBy: unit }, metrics, byDate };
  }

  async customerSegments(): Promise<CustomerSegments> {
    const [{ total }] = await this.em.execute(`select count(*)::text as total from analytics.customer where deleted_at is null and registered_at is not null`);
    const totalCustomers = Number(total);
    const bySegment = [];
    for (const segment of await this.segments().segments()) {
      const members = await this.segments().memberIds(segment.id);
      const [{ count }] = await this.em.execute(
        `select count(*)::text as count from analytics.customer where deleted_at is null and registered_at is not null and customer_id = any(?::uuid[])`,
        [arrayLiteral(members)],
      );
      const share = Number(count);
      bySegment.push({ segmentId: segment.id, segmentName: segment.name, count: share, percentage: totalCustomers > 0 ? Math.round((share * 10000) / totalCustomers) / 100 : 0 });
    }
    return { totalCustomers, bySegment };
  }

  private async sales(range: DayRange, filter: { storeId?: string; category?: string }, groupBy?: string): Promise<Array<SalesRow & { key: string | null }>> {
    const conditions = ['day between ? and ?'];
    const params: unknown[] = [range.from, range.to];
    if (filter.storeId !== undefined) conditions.push('store_id = ?') && params.push(filter.storeId);
    if (filter.category !== undefined) conditions.push('category = ?') && params.push(filter.category);
    return this.em.execute(
      `select ${groupBy ? `nullif(${groupBy}, '')` : 'null'} as key, ${SALES_SUMS} from analytics.sales_day where ${conditions.join(' and ')} ${groupBy ? 'group by 1 order by 1 nulls first' : ''}`,
      params,
    );
  }

  async salesSummary(args: SalesSummaryArgs): Promise<SalesSummary> {
    const range = dayRange(args);
    const filter = { storeId: args.storeId, category: args.category };
    const [[current], growthRate, byStore, byCategory] = [
      await this.sales(range, filter),
      await this.growthRate(range, filter),
      await this.sales(range, filter, 'store_id'),
      await this.sales(range, filter, 'category'),
    ];
    return {
      period: { dateFrom: range.from, dateTo: range.to },
      metrics: { ...salesFigures(current), growthRate },
      byStore: byStore.map((row) => ({ storeId: row.key, ...salesFigures(row) })),
      byCategory: byCategory.map((row) => ({ category: row.key, ...salesFigures(row) })),
    };
  }

  /** (this period's net sales − the previous period's) / the previous's, 4 decimals, in numeric; null when the previous had none. */
  private async growthRate(range: DayRange, filter: { storeId?: string; category?: string }): Promise<number | null> {
    const previous = previousRange(range);
    const conditions = ['day between ? and ?'];
    const params: unknown[] = [range.from, range.from, previous.from, range.to];
    if (filter.storeId !== undefined) conditions.push('store_id = ?') && params.push(filter.storeId);
    if (filter.category !== undefined) conditions.push('category = ?') && params.push(filter.category);
    const [{ growth }] = await this.em.execute(
      `select round((this - before) / nullif(before, 0), 4)::text as growth
         from (select coalesce(sum(gross - refunded) filter (where day >= ?), 0) as this, coalesce(sum(gross - refunded) filter (where day < ?), 0) as before
                 from analytics.sales_day where ${conditions.join(' and ')}) as sums`,
      params,
    );
    return growth === null ? null : Number(growth);
  }

  async salesTrends(args: GroupedPeriodArgs): Promise<SalesTrends> {
    const range = dayRange(args);
    const unit = (args.groupBy ?? 'day') as GroupBy;
    const rows: Array<SalesRow & { period: string }> = await this.em.execute(
      `select to_char(date_trunc(?, day::timestamp), 'YYYY-MM-DD') as period, ${SALES_SUMS} from analytics.sales_day where day between ? and ? group by 1`,
      [unit, range.from, range.to],
    );
    const by = new Map(rows.map((row) => [row.period, row]));
    return { period: { dateFrom: range.from, dateTo: range.to, groupBy: unit }, byDate: periodStarts(range, unit).map((date) => ({ date, ...salesFigures(by.get(date)) })) };
  }

  async loyaltyPoints(): Promise<LoyaltyPoints> {
    const [totals] = await this.em.execute(
      `select coalesce(sum(points_earned), 0)::text as earned, coalesce(sum(points_redeemed), 0)::text as redeemed, coalesce(sum(points_expired), 0)::text as expired
         from analytics.customer_day`,
    );
    const tiers: Array<{ tier_id: string | null; tier_name: string | null; customers: string; balance: string }> = await this.em.execute(
      `select tier_id, tier_name, count(*)::text as customers, coalesce(sum(points_balance), 0)::text as balance
         from analytics.customer where deleted_at is null group by tier_id, tier_name order by tier_name nulls first, tier_id`,
    );
    const [{ balance }] = await this.em.execute(`select coalesce(sum(points_balance), 0)::text as balance from analytics.customer where deleted_at is null`);
    return {
      metrics: { pointsEarned: money(totals.earned), pointsRedeemed: money(totals.redeemed), pointsExpired: money(totals.expired), activeBalance: money(balance) },
      byTier: tiers.map((tier) => ({ tierId: tier.tier_id, tierName: tier.tier_name, customers: Number(tier.customers), activeBalance: money(tier.balance) })),
    };
  }

  async loyaltyRewards(): Promise<LoyaltyRewards> {
    const [totals] = await this.em.execute(
      `select count(*)::text as claimed, count(redeemed_at)::text as redeemed, coalesce(sum(points), 0)::text as value from analytics.reward_claim`,
    );
    const top: Array<{ reward_id: string; claimed: string; redeemed: string; value: string }> = await this.em.execute(
      `select reward_id, count(*)::text as claimed, count(redeemed_at)::text as redeemed, sum(points)::text as value
         from analytics.reward_claim group by reward_id order by count(*) desc, reward_id limit 10`,
    );
    const claimed = Number(totals.claimed);
    const redeemed = Number(totals.redeemed);
    return {
      metrics: { rewardsClaimed: claimed, rewardsRedeemed: redeemed, redemptionRate: ratio(redeemed, claimed), totalValue: money(totals.value) },
      topRewards: top.map((row) => ({ rewardId: row.reward_id, claimed: Number(row.claimed), redeemed: Number(row.redeemed), totalValue: money(row.value) })),
    };
  }

  async campaign(id: string): Promise<CampaignReport> {
    const [campaign] = isRecordId(id) ? await this.em.execute(`select campaign_id, name, start_date, end_date from analytics.campaign where campaign_id = ?`, [id]) : [];
    if (!campaign) throw notFound('Campaign', id);
    // ROI in numeric, rounded there: (revenue − cost) / cost, null without cost.
    const [figures] = await this.em.execute(
      `select participants::text, conversions::text, revenue::text, reach::text,
              case when cost > 0 then round((revenue - cost) / cost, 4)::text end as roi
         from (select count(*) as participants, count(completed_at) as conversions,
                      (select coalesce(sum(p.amount - p.refunded), 0) from analytics.purchase p
                        where p.occurred_at between ? and ?
                          and exists (select 1 from analytics.campaign_participant cp where cp.campaign_id = ? and cp.customer_id = p.customer_id and cp.joined_at <= p.occurred_at)) as revenue,
                      (select count(distinct customer_id) from analytics.customer_day
                        where day between (?::timestamptz at time zone 'UTC')::date and (?::timestamptz at time zone 'UTC')::date and actions > 0) as reach,
                      ?::numeric * coalesce(sum(reward_points), 0) as cost
                 from analytics.campaign_participant where campaign_id = ?) as sums`,
      [campaign.start_date, campaign.end_date, id, campaign.start_date, campaign.end_date, this.pointValue, id],
    );
    const participants = Number(figures.participants);
    const conversions = Number(figures.conversions);
    const bySegment = [];
    const people: Array<{ customer_id: string; completed: boolean }> = await this.em.execute(
      `select customer_id, completed_at is not null as completed from analytics.campaign_participant where campaign_id = ?`,
      [id],
    );
    if (people.length > 0) {
      for (const segment of await this.segments().segments()) {
        const members = new Set(await this.segments().memberIds(segment.id));
        const inSegment = people.filter((person) => members.has(person.customer_id));
        if (inSegment.length === 0) continue;
        const segmentConversions = inSegment.filter((person) => person.completed).length;
        bySegment.push({
          segmentId: segment.id,
          segmentName: segment.name,
          participants: inSegment.length,
          conversions: segmentConversions,
          conversionRate: ratio(segmentConversions, inSegment.length),
        });
      }
    }
    return {
      campaignId: id,
      name: campaign.name,
      metrics: {
        reach: Number(figures.reach),
        participants,
        conversions,
        conversionRate: ratio(conversions, participants),
        revenue: money(figures.revenue),
        roi: figures.roi === null ? null : Number(figures.roi),
      },
      bySegment,
    };
  }

  async dashboard(args: DashboardArgs): Promise<Dashboard> {
    const timeRange = (args.timeRange ?? 'today') as TimeRange;
    const range = timeRangeDays(timeRange);
    const rows = [];
    for (const { sql, params } of dashboardStatements(range)) rows.push((await this.em.execute(sql, params))[0]);
    return dashboardOf(timeRange, range, rows as DashboardRows);
  }
}
