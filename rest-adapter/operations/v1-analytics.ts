/** The GraphQL documents behind the /api/v1 analytics routes; CI validates each against the supergraph. */

const ACTIVITY = 'activeUsers newRegistrations checkIns purchases';
const SALES = 'totalSales transactionCount averageBasketSize';
const PERIOD = 'period { dateFrom dateTo groupBy }';

const REPORT = 'reportId type format status downloadUrl estimatedCompletion expiresAt rowCount createdAt completedAt';

export const V1_ANALYTICS_OPERATIONS = {
  V1CustomerActivity: `query V1CustomerActivity($dateFrom: String, $dateTo: String, $groupBy: String, $segmentId: ID) {
    customerActivity(dateFrom: $dateFrom, dateTo: $dateTo, groupBy: $groupBy, segmentId: $segmentId) { ${PERIOD} metrics { ${ACTIVITY} } byDate { date ${ACTIVITY} } } }`,
  V1SegmentsBreakdown: `query V1SegmentsBreakdown { customerSegmentsBreakdown { totalCustomers bySegment { segmentId segmentName count percentage } } }`,
  V1SalesSummary: `query V1SalesSummary($dateFrom: String, $dateTo: String, $storeId: String, $category: String) {
    salesSummary(dateFrom: $dateFrom, dateTo: $dateTo, storeId: $storeId, category: $category) {
      ${PERIOD} metrics { ${SALES} growthRate } byStore { storeId ${SALES} } byCategory { category ${SALES} } } }`,
  V1SalesTrends: `query V1SalesTrends($dateFrom: String, $dateTo: String, $groupBy: String) {
    salesTrends(dateFrom: $dateFrom, dateTo: $dateTo, groupBy: $groupBy) { ${PERIOD} byDate { date ${SALES} } } }`,
  V1LoyaltyPoints: `query V1LoyaltyPoints { loyaltyPoints { metrics { pointsEarned pointsRedeemed pointsExpired activeBalance } byTier { tierId tierName customers activeBalance } } }`,
  V1LoyaltyRewards: `query V1LoyaltyRewards { loyaltyRewards { metrics { rewardsClaimed rewardsRedeemed redemptionRate totalValue } topRewards { rewardId claimed redeemed totalValue } } }`,
  V1CampaignPerformance: `query V1CampaignPerformance($id: ID!) { campaignPerformance(id: $id) {
    campaignId name metrics { reach participants conversions conversionRate revenue roi } bySegment { segmentId segmentName participants conversions conversionRate } } }`,
  V1AnalyticsDashboard: `query V1AnalyticsDashboard($timeRange: String) { analyticsDashboard(timeRange: $timeRange) {
    timeRange period { dateFrom dateTo } customerActivity { ${ACTIVITY} bookings } sales { ${SALES} }
    loyalty { pointsEarned pointsRedeemed rewardsClaimed rewardsRedeemed } campaigns { activeCampaigns participantsJoined conversions } } }`,
  V1GenerateReport: `mutation V1GenerateReport($input: GenerateReportInput!) { generateReport(input: $input) { ${REPORT} } }`,
  V1Report: `query V1Report($id: ID!) { report(id: $id) { ${REPORT} } }`,
};
