/** The GraphQL documents behind the /api/v1 campaign routes; CI validates each against the supergraph. */

const CAMPAIGN = `id name description type status startDate endDate targetSegment { id name: name_en } reward rules content participantCount conversionRate createdAt updatedAt`;
const PARTICIPANT = `id campaignId customerId status joinedAt completedAt rewardClaimed progress { current target percentage }`;

const METRICS = 'participants conversions conversionRate revenue averageOrderValue';

export const V1_CAMPAIGN_OPERATIONS = {
  V1CreateCampaign: `mutation V1CreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id name status createdAt } }`,
  V1Campaigns: `query V1Campaigns($status: String, $type: String, $dateFrom: String, $dateTo: String, $page: Int, $limit: Int) {
    campaigns(status: $status, type: $type, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, limit: $limit) { meta { page limit total } data { ${CAMPAIGN} } } }`,
  V1Campaign: `query V1Campaign($id: ID!) { campaign(id: $id) { ${CAMPAIGN} } }`,
  V1UpdateCampaign: `mutation V1UpdateCampaign($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN} } }`,
  V1ActivateCampaign: `mutation V1ActivateCampaign($id: ID!) { activateCampaign(id: $id) { ${CAMPAIGN} } }`,
  V1EndCampaign: `mutation V1EndCampaign($id: ID!) { endCampaign(id: $id) { ${CAMPAIGN} } }`,
  V1JoinCampaign: `mutation V1JoinCampaign($campaignId: ID!, $customerId: ID) { joinCampaign(campaignId: $campaignId, customerId: $customerId) { ${PARTICIPANT} } }`,
  V1CampaignParticipants: `query V1CampaignParticipants($campaignId: ID!, $status: String, $page: Int, $limit: Int) {
    campaignParticipants(campaignId: $campaignId, status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${PARTICIPANT} } } }`,
  V1CustomerCampaigns: `query V1CustomerCampaigns($customerId: ID!, $status: String, $page: Int, $limit: Int) {
    member(id: $customerId) { id }
    campaigns: customerCampaigns(customerId: $customerId, status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${PARTICIPANT} campaign { ${CAMPAIGN} } } } }`,
  V1CampaignAnalytics: `query V1CampaignAnalytics($id: ID!, $dateFrom: String, $dateTo: String, $groupBy: String) {
    campaignAnalytics(id: $id, dateFrom: $dateFrom, dateTo: $dateTo, groupBy: $groupBy) {
      campaignId metrics { ${METRICS} } byDate { date ${METRICS} } } }`,
};
