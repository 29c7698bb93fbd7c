import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { AnalyticsContext } from '../context';
import { ANALYTICS } from '../contract';
import {
  CampaignReport,
  CustomerActivity,
  CustomerActivityArgs,
  CustomerSegments,
  Dashboard,
  DashboardArgs,
  GroupedPeriodArgs,
  LoyaltyPoints,
  LoyaltyRewards,
  SalesSummary,
  SalesSummaryArgs,
  SalesTrends,
} from '../types/analytics.types';
import { GenerateReportInput, ReportView } from '../types/report.types';

/** Part 3's analytics figures, for staff with analytics:read (admin, marketing); reports need analytics:report to ask for. */
@Resolver()
export class AnalyticsResolver {
  @Authorized(ANALYTICS.permissions.read)
  @Query(() => CustomerActivity, { description: 'Active users, registrations, check-ins and purchases, in total and by day, week or month' })
  customerActivity(@Args() args: CustomerActivityArgs, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.customerActivity(args);
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => CustomerSegments, { description: 'Customers, and how many of them each segment holds' })
  customerSegmentsBreakdown(@Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.customerSegments();
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => SalesSummary, { description: 'Sales, transactions, average basket and growth against the previous period, by store and category' })
  salesSummary(@Args() args: SalesSummaryArgs, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.salesSummary(args);
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => SalesTrends, { description: 'Sales by day, week or month' })
  salesTrends(@Args() args: GroupedPeriodArgs, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.salesTrends(args);
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => LoyaltyPoints, { description: 'Points earned, redeemed, expired and held, by tier' })
  loyaltyPoints(@Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.loyaltyPoints();
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => LoyaltyRewards, { description: 'Rewards claimed and used, redemption rate, points spent, top rewards' })
  loyaltyRewards(@Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.loyaltyRewards();
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => CampaignReport, { description: "One campaign's reach, participants, conversions, revenue and ROI, by segment" })
  campaignPerformance(@Args() { id }: IdArgs, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.campaign(id);
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => Dashboard, { description: 'Counters of activity, sales, loyalty and campaigns for today, 7 or 30 days' })
  analyticsDashboard(@Args() args: DashboardArgs, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.analytics.dashboard(args);
  }

  @Authorized(ANALYTICS.permissions.report)
  @Mutation(() => ReportView, { description: 'Asks for a CSV report: answered processing, written by a job; needs analytics:report' })
  generateReport(@Arg('input') input: GenerateReportInput, @Caller() caller: Principal, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.reports.generate(input, caller);
  }

  @Authorized(ANALYTICS.permissions.read)
  @Query(() => ReportView, { description: "A report's status and, once completed, its signed download URL: its requester's, or any with analytics:manage (others: not found)" })
  report(@Args() { id }: IdArgs, @Caller() caller: Principal, @Ctx() ctx: AnalyticsContext) {
    return ctx.services.reports.get(id, caller);
  }
}
