import { IsIn, IsOptional, ValidateBy } from 'class-validator';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';

export const GROUPS = ['day', 'week', 'month'] as const;
export type GroupBy = (typeof GROUPS)[number];
export const TIME_RANGES = ['today', '7d', '30d'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
/** The years a period or a report's bounds may name: PostgreSQL has no year 0, and a period 3 years long looks 3 years further back. */
export const YEARS = { first: 1900, last: 9999 } as const;
const DAY_OR_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?(Z|[+-](\d{2}):?(\d{2})))?$/;

/**
 * A date `YYYY-MM-DD` or an ISO 8601 timestamp with its offset, that names a day of the calendar
 * (2026-02-30 does not) in the years YEARS, at a time of that day (hours 00 to 23).
 */
export function isDayOrTimestamp(value: unknown): value is string {
  const match = typeof value === 'string' ? DAY_OR_TIMESTAMP.exec(value) : null;
  if (!match) return false;
  const [year, month, day] = [match[1], match[2], match[3]].map(Number);
  if (year < YEARS.first || year > YEARS.last) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  if (!match[4]) return true;
  const within = (part: string | undefined, max: number) => part === undefined || Number(part) <= max;
  return within(match[5], 23) && within(match[6], 59) && within(match[8], 59) && within(match[11], 23) && within(match[12], 59) && !Number.isNaN(Date.parse(match[0]));
}

/** `isDayOrTimestamp`, as a field rule (400 on the field). */
export const IsDayOrTimestamp = (field: string): PropertyDecorator =>
  ValidateBy({
    name: 'isDayOrTimestamp',
    validator: {
      validate: (value: unknown) => isDayOrTimestamp(value),
      defaultMessage: () => `${field} is a date YYYY-MM-DD or an ISO 8601 timestamp, of a real day in the years ${YEARS.first} to ${YEARS.last}`,
    },
  });

@ArgsType()
export class PeriodArgs {
  @Field(() => String, { nullable: true, description: 'From this UTC day (a timestamp counts its day); default: 29 days before date_to' })
  @IsOptional()
  @IsDayOrTimestamp('date_from')
  dateFrom?: string;
  @Field(() => String, { nullable: true, description: 'Up to this UTC day, included; default: today' })
  @IsOptional()
  @IsDayOrTimestamp('date_to')
  dateTo?: string;
}

@ArgsType()
export class GroupedPeriodArgs extends PeriodArgs {
  @Field(() => String, { nullable: true, description: 'day (default), week (from Monday) or month, in UTC' })
  @IsOptional()
  @IsIn(GROUPS, { message: `group_by must be one of ${GROUPS.join(', ')}` })
  groupBy?: string;
}

@ArgsType()
export class CustomerActivityArgs extends GroupedPeriodArgs {
  @Field(() => ID, { nullable: true, description: "Only the segment's members (as the segment is now)" }) @IsOptional() segmentId?: string;
}

@ArgsType()
export class SalesSummaryArgs extends PeriodArgs {
  @Field(() => String, { nullable: true }) @IsOptional() storeId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() category?: string;
}

@ArgsType()
export class DashboardArgs {
  @Field(() => String, { nullable: true, description: 'today (default), 7d or 30d: that many UTC days up to today' })
  @IsOptional()
  @IsIn(TIME_RANGES, { message: `time_range must be one of ${TIME_RANGES.join(', ')}` })
  timeRange?: string;
}

@ObjectType({ description: 'The UTC days a figure covers, both included' })
export class AnalyticsPeriod {
  @Field(() => String) dateFrom: string;
  @Field(() => String) dateTo: string;
  @Field(() => String, { nullable: true }) groupBy?: string | null;
}

@ObjectType()
export class ActivityMetrics {
  @Field(() => Int, { description: 'Customers who did something (purchase, booking, check-in, claim, use of a reward, campaign join, notification read)' })
  activeUsers: number;
  @Field(() => Int) newRegistrations: number;
  @Field(() => Int) checkIns: number;
  @Field(() => Int) purchases: number;
}

@ObjectType()
export class ActivityDate extends ActivityMetrics {
  @Field(() => String, { description: "The period's first day, YYYY-MM-DD" }) date: string;
}

@ObjectType()
export class CustomerActivity {
  @Field(() => AnalyticsPeriod) period: AnalyticsPeriod;
  @Field(() => ActivityMetrics) metrics: ActivityMetrics;
  @Field(() => [ActivityDate], { description: 'Every period, those without activity with zeros' }) byDate: ActivityDate[];
}

@ObjectType()
export class SegmentShare {
  @Field(() => ID) segmentId: string;
  @Field(() => String, { nullable: true }) segmentName: string | null;
  @Field(() => Int) count: number;
  @Field(() => Float, { description: 'count / total_customers × 100, 2 decimals' }) percentage: number;
}

@ObjectType()
export class CustomerSegments {
  @Field(() => Int) totalCustomers: number;
  @Field(() => [SegmentShare]) bySegment: SegmentShare[];
}

@ObjectType()
export class SalesFigures {
  @Field(() => Float, { description: 'Purchases less the refunds made in the period' }) totalSales: number;
  @Field(() => Int) transactionCount: number;
  @Field(() => Float, { description: 'total_sales / transaction_count, 2 decimals' }) averageBasketSize: number;
}

@ObjectType()
export class SalesMetrics extends SalesFigures {
  @Field(() => Float, { nullable: true, description: 'Against the previous period of equal length: (this − previous) / previous, 4 decimals; null when the previous had none' })
  growthRate: number | null;
}

@ObjectType()
export class StoreSales extends SalesFigures {
  @Field(() => String, { nullable: true }) storeId: string | null;
}

@ObjectType()
export class CategorySales extends SalesFigures {
  @Field(() => String, { nullable: true }) category: string | null;
}

@ObjectType()
export class SalesSummary {
  @Field(() => AnalyticsPeriod) period: AnalyticsPeriod;
  @Field(() => SalesMetrics) metrics: SalesMetrics;
  @Field(() => [StoreSales]) byStore: StoreSales[];
  @Field(() => [CategorySales]) byCategory: CategorySales[];
}

@ObjectType()
export class SalesDate extends SalesFigures {
  @Field(() => String) date: string;
}

@ObjectType()
export class SalesTrends {
  @Field(() => AnalyticsPeriod) period: AnalyticsPeriod;
  @Field(() => [SalesDate], { description: 'Every period, those without sales with zeros' }) byDate: SalesDate[];
}

@ObjectType()
export class PointsMetrics {
  @Field(() => Float) pointsEarned: number;
  @Field(() => Float) pointsRedeemed: number;
  @Field(() => Float) pointsExpired: number;
  @Field(() => Float, { description: "The customers' balances now" }) activeBalance: number;
}

@ObjectType()
export class TierPoints {
  @Field(() => ID, { nullable: true }) tierId: string | null;
  @Field(() => String, { nullable: true }) tierName: string | null;
  @Field(() => Int) customers: number;
  @Field(() => Float) activeBalance: number;
}

@ObjectType()
export class LoyaltyPoints {
  @Field(() => PointsMetrics) metrics: PointsMetrics;
  @Field(() => [TierPoints]) byTier: TierPoints[];
}

@ObjectType()
export class RewardsMetrics {
  @Field(() => Int) rewardsClaimed: number;
  @Field(() => Int) rewardsRedeemed: number;
  @Field(() => Float, { description: 'redeemed / claimed, 4 decimals' }) redemptionRate: number;
  @Field(() => Float, { description: 'Points spent on the claims' }) totalValue: number;
}

@ObjectType()
export class TopReward {
  @Field(() => ID) rewardId: string;
  @Field(() => Int) claimed: number;
  @Field(() => Int) redeemed: number;
  @Field(() => Float) totalValue: number;
}

@ObjectType()
export class LoyaltyRewards {
  @Field(() => RewardsMetrics) metrics: RewardsMetrics;
  @Field(() => [TopReward], { description: 'The 10 most claimed rewards' }) topRewards: TopReward[];
}

@ObjectType()
export class CampaignFigures {
  @Field(() => Int) participants: number;
  @Field(() => Int) conversions: number;
  @Field(() => Float, { description: 'conversions / participants, 4 decimals' }) conversionRate: number;
}

@ObjectType()
export class CampaignResult extends CampaignFigures {
  @Field(() => Int, { description: 'Customers active during the campaign window' }) reach: number;
  @Field(() => Float, { description: "Participants' purchases inside the window at or after joining, less their refunds" }) revenue: number;
  @Field(() => Float, { nullable: true, description: '(revenue − reward points × ANALYTICS_POINT_VALUE) / that cost, 4 decimals; null without cost' })
  roi: number | null;
}

@ObjectType()
export class SegmentCampaignFigures extends CampaignFigures {
  @Field(() => ID) segmentId: string;
  @Field(() => String, { nullable: true }) segmentName: string | null;
}

@ObjectType()
export class CampaignReport {
  @Field(() => ID) campaignId: string;
  @Field(() => String) name: string;
  @Field(() => CampaignResult) metrics: CampaignResult;
  @Field(() => [SegmentCampaignFigures], { description: 'Segments (as they are now) holding participants' }) bySegment: SegmentCampaignFigures[];
}

@ObjectType()
export class DashboardActivity extends ActivityMetrics {
  @Field(() => Int) bookings: number;
}

@ObjectType()
export class DashboardLoyalty {
  @Field(() => Float) pointsEarned: number;
  @Field(() => Float) pointsRedeemed: number;
  @Field(() => Int) rewardsClaimed: number;
  @Field(() => Int) rewardsRedeemed: number;
  @Field(() => Int, { description: 'Sign-ups accepted as referrals' }) referralsCreated: number;
  @Field(() => Int, { description: 'Referrals completed by a qualifying purchase' }) referralsCompleted: number;
}

@ObjectType()
export class DashboardCampaigns {
  @Field(() => Int, { description: 'Active now' }) activeCampaigns: number;
  @Field(() => Int) participantsJoined: number;
  @Field(() => Int) conversions: number;
}

@ObjectType()
export class Dashboard {
  @Field(() => String) timeRange: string;
  @Field(() => AnalyticsPeriod) period: AnalyticsPeriod;
  @Field(() => DashboardActivity) customerActivity: DashboardActivity;
  @Field(() => SalesFigures) sales: SalesFigures;
  @Field(() => DashboardLoyalty) loyalty: DashboardLoyalty;
  @Field(() => DashboardCampaigns) campaigns: DashboardCampaigns;
}
