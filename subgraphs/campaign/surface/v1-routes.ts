import { Route, V1_BASE } from '../../../core/rest/route';
import { arrayOf, dateOrTimestamp, dateQuery, id, integer, NOT_BLANK, nullable, number, object, oneOf, ref, string, timestamp } from '../../../core/rest/json-schema';
import { CAMPAIGN_TYPES } from '../entities/campaign';
import { MAX_AMOUNT, MAX_NAME, MAX_TEXT } from '../services/campaign-input';
import { campaignFailure } from './v1-campaigns';

const CAMPAIGN_SELECTION = 'id name description type status startDate endDate targetSegment { id name: name_en } reward rules content participantCount conversionRate createdAt updatedAt';
const PARTICIPANT_SELECTION = 'id campaignId customerId status joinedAt completedAt rewardClaimed progress { current target percentage }';
const METRICS_SELECTION = 'participants conversions conversionRate revenue averageOrderValue';

const BASE = `${V1_BASE}/campaigns`;

const WHOLE = { minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const CAMPAIGN_FIELDS = {
  name: string({ ...NOT_BLANK, maxLength: MAX_NAME }),
  description: nullable(string({ maxLength: MAX_TEXT })),
  type: oneOf(...CAMPAIGN_TYPES),
  start_date: dateOrTimestamp({ description: 'ISO 8601 timestamp or YYYY-MM-DD' }),
  end_date: dateOrTimestamp({ description: 'ISO 8601 timestamp or YYYY-MM-DD (a bare date: the end of that day, UTC); after start_date' }),
  target_segment_id: nullable(id({ description: 'a live segment' })),
  reward: nullable(
    object(
      {
        type: oneOf('points', 'reward'),
        value: { anyOf: [integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'points' }), string({ minLength: 1, maxLength: 256, description: 'a reward id' })] },
        unit: nullable(string({ description: 'points (of points), anything of a reward' })),
      },
      ['type', 'value'],
      { additionalProperties: false },
    ),
  ),
  rules: nullable(
    object(
      {
        min_purchase: nullable(number({ exclusiveMinimum: 0, maximum: MAX_AMOUNT, description: 'at most 2 decimals' })),
        max_uses: nullable(integer(WHOLE)),
        per_customer_limit: nullable(integer({ ...WHOLE, default: 1 })),
      },
      [],
      { additionalProperties: false, description: 'a key null (or rules null): its default (none, none, 1)' },
    ),
  ),
  content: nullable(object({ banner: nullable(string({ maxLength: MAX_TEXT })), terms: nullable(string({ maxLength: MAX_TEXT })) }, [], { additionalProperties: false })),
};
const METRICS_FIELDS = { participants: integer(), conversions: integer(), conversion_rate: number({ description: '0 to 1' }), revenue: number(), average_order_value: number() };
const METRICS = object(METRICS_FIELDS, Object.keys(METRICS_FIELDS));
const CREATED = object({ id: id(), name: string(), status: oneOf('draft'), created_at: timestamp() }, ['id', 'name', 'status', 'created_at']);
const JOIN_RULES = {
  CAMPAIGN_NOT_ACTIVE: 'the campaign is not active, or outside its window',
  NOT_ELIGIBLE: 'the customer is not in the target segment, or has joined per_customer_limit times',
  CAMPAIGN_FULL: 'max_uses completions reached',
};

/**
 * Part 3 campaigns (CONTRACT-v1 sections 2 and 5): writes need `write` and campaign:manage (marketing,
 * admin); reads any staff role with campaign:read and customers (no drafts); a customer joins for itself.
 */
export const V1_CAMPAIGN_ROUTES: Route[] = [
  {
    method: 'post',
    path: BASE,
    document: `mutation V1CreateCampaign($input: CreateCampaignInput!) { createCampaign(input: $input) { id name status createdAt } }`,
    envelope: 'v1',
    status: 201,
    doc: { summary: 'Creates a campaign as a draft', body: object(CAMPAIGN_FIELDS, ['name', 'type', 'start_date', 'end_date']), response: CREATED },
  },
  {
    method: 'get',
    path: BASE,
    document: `query V1Campaigns($status: String, $type: String, $dateFrom: String, $dateTo: String, $page: Int, $limit: Int) {
    campaigns(status: $status, type: $type, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, limit: $limit) { meta { page limit total } data { ${CAMPAIGN_SELECTION} } } }`,
    envelope: 'v1List',
    customer: 'self',
    doc: {
      summary: 'Campaigns, newest first (a customer sees no drafts)',
      query: {
        status: oneOf('draft', 'active', 'ended'),
        type: oneOf('promotion', 'challenge', 'event'),
        date_from: dateQuery('campaigns ending at or after'),
        date_to: dateQuery('campaigns starting at or before (a bare date covers its day)'),
      },
      response: ref('Campaign'),
    },
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    document: `query V1Campaign($id: ID!) { campaign(id: $id) { ${CAMPAIGN_SELECTION} } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: { summary: 'One campaign with participant_count and conversion_rate', response: ref('Campaign') },
  },
  {
    method: 'patch',
    path: `${BASE}/:id`,
    document: `mutation V1UpdateCampaign($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN_SELECTION} } }`,
    envelope: 'v1',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: {
      summary:
        'Changes some fields of a draft or active campaign (409 INVALID_STATE once ended); fields left out stay, `rules` keys left out stay and a null one clears it (to its default), other body fields (`status`) are ignored',
      body: object(CAMPAIGN_FIELDS, [], { description: 'A field left out stays' }),
      response: ref('Campaign'),
    },
  },
  {
    method: 'post',
    path: `${BASE}/:id/activate`,
    document: `mutation V1ActivateCampaign($id: ID!) { activateCampaign(id: $id) { ${CAMPAIGN_SELECTION} } }`,
    envelope: 'v1',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: { summary: 'Activates a draft (409 INVALID_STATE otherwise, and for a draft whose end_date has passed)', body: object({}), response: ref('Campaign') },
  },
  {
    method: 'post',
    path: `${BASE}/:id/end`,
    document: `mutation V1EndCampaign($id: ID!) { endCampaign(id: $id) { ${CAMPAIGN_SELECTION} } }`,
    envelope: 'v1',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: { summary: 'Ends an active campaign (409 INVALID_STATE otherwise)', body: object({}), response: ref('Campaign') },
  },
  {
    method: 'post',
    path: `${BASE}/:id/join`,
    document: `mutation V1JoinCampaign($campaignId: ID!, $customerId: ID) { joinCampaign(campaignId: $campaignId, customerId: $customerId) { ${PARTICIPANT_SELECTION} } }`,
    envelope: 'v1',
    status: 201,
    customer: 'self',
    notFound: { Campaign: 'CAMPAIGN_NOT_FOUND', Member: 'CUSTOMER_NOT_FOUND' },
    doc: { summary: 'Joins a customer to an active campaign (a customer token for itself)', body: object({ customer_id: id({ description: 'a customer token may leave it out (itself)' }) }, ['customer_id']), response: ref('Participant'), errors: { 422: JOIN_RULES } },
    variables: ({ params, body }) => ({ campaignId: params.id, customerId: body.customerId }),
    v1Failure: campaignFailure,
  },
  {
    method: 'get',
    path: `${BASE}/:id/participants`,
    document: `query V1CampaignParticipants($campaignId: ID!, $status: String, $page: Int, $limit: Int) {
    campaignParticipants(campaignId: $campaignId, status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${PARTICIPANT_SELECTION} } } }`,
    envelope: 'v1List',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: { summary: "A campaign's participants, newest first", query: { status: oneOf('active', 'completed', 'dropped') }, response: ref('Participant') },
    variables: ({ params, query }) => ({ campaignId: params.id, status: query.status, page: query.page, limit: query.limit }),
  },
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/campaigns`,
    document: `query V1CustomerCampaigns($customerId: ID!, $status: String, $page: Int, $limit: Int) {
    member(id: $customerId) { id }
    campaigns: customerCampaigns(customerId: $customerId, status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${PARTICIPANT_SELECTION} campaign { ${CAMPAIGN_SELECTION} } } } }`,
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: "A customer's joined campaigns: each participation with its campaign, newest first",
      query: { status: oneOf('active', 'completed', 'ended') },
      response: { allOf: [ref('Participant'), object({ campaign: ref('Campaign') }, ['campaign'])] },
    },
    variables: ({ params, query }) => ({ customerId: params.id, status: query.status, page: query.page, limit: query.limit }),
    payload: ({ campaigns }) => campaigns,
  },
  {
    method: 'get',
    path: `${BASE}/:id/analytics`,
    document: `query V1CampaignAnalytics($id: ID!, $dateFrom: String, $dateTo: String, $groupBy: String) {
    campaignAnalytics(id: $id, dateFrom: $dateFrom, dateTo: $dateTo, groupBy: $groupBy) {
      campaignId metrics { ${METRICS_SELECTION} } byDate { date ${METRICS_SELECTION} } } }`,
    envelope: 'v1',
    notFound: 'CAMPAIGN_NOT_FOUND',
    doc: {
      summary: "Participants, conversions, conversion rate, and the participants' purchases inside the window (revenue, average order value), in total and by period",
      query: { date_from: dateQuery('from (default: the campaign start)'), date_to: dateQuery('up to (default: the campaign end)'), group_by: oneOf('day', 'week', 'month') },
      response: object({ campaign_id: id(), metrics: METRICS, by_date: arrayOf(object({ date: string({ format: 'date' }), ...METRICS_FIELDS }, ['date', ...Object.keys(METRICS_FIELDS)])) }, ['campaign_id', 'metrics', 'by_date']),
    },
  },
];
