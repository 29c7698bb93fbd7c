import { CLUSTER } from '../contract';
import { Route, RouteInput, withPermission } from '../../../core/rest/route';

const BASE = '/cluster/api';

const PAGE_META = 'meta { page limit total totalPages }';
const TIER_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl background level
  requirement { purchaseAmountHit }
  benefit { name_en name_th name_cn description_en description_th description_cn condition_en condition_th condition_cn type imageUrl }
  isActive isSpecial createdAt updatedAt deletedAt`;

// Members' tiers (projections and history)
const PROJECTION_FIELDS = 'id memberId tierId tierEndAt createdAt updatedAt';
const TIER_SUMMARY = 'id name_en name_th name_cn level';
const MEMBER_SUMMARY = 'member @include(if: $includeMember) { id name nickName phoneNumber status }';
const HISTORY_FIELDS = `id memberId changeType snapshot createdAt
  fromTier(locale: $locale) { id name_en name_th name_cn } toTier(locale: $locale) { id name_en name_th name_cn }`;
const HISTORY_FILTERS = '$page: Int, $limit: Int, $start: String, $end: String, $actionType: TierChangeType, $locale: Locale';
const HISTORY_ARGS = 'page: $page, limit: $limit, start: $start, end: $end, actionType: $actionType';

/** The tier uploads: the logo (stored as the tier's imageUrl) and the benefit logos (see subgraphs/cluster/DECISIONS.md). */
const TIER_LOGO = { name: 'tierLogo' };
const BENEFIT_LOGOS = { name: 'benefitLogos', maxCount: 19 };
const TIER_MANAGE = withPermission(CLUSTER.permissions.tierManage);
const tierInput = ({ body, uploads }: RouteInput) => ({
  ...body,
  imageUrl: uploads.tierLogo ?? body.imageUrl,
  benefitLogoUrls: uploads.benefitLogos,
});

/** Spec Part 2, cluster service. Tier reads are public; literal segments (bulk, level, members) before :id. */
export const TIER_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/tiers`,
    document: `query Tiers($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean, $locale: Locale) {
    tiers(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, locale: $locale) {
      ${PAGE_META} data { ${TIER_FIELDS} } } }`,
    envelope: 'nested',
    message: 'Tier list',
    public: true,
  },
  {
    method: 'post',
    path: `${BASE}/tiers/bulk`,
    document: `query TiersByIds($ids: [ID!]!, $locale: Locale) { tiersByIds(ids: $ids, locale: $locale) { ${TIER_FIELDS} } }`,
    variables: ({ body, query }) => ({ ...query, ids: body.ids }),
    envelope: 'nested',
    message: 'Tiers found',
  },
  {
    method: 'get',
    path: `${BASE}/tiers/members/counts`,
    document: `query TierMemberCounts { tierMemberCounts { tierId count } }`,
    envelope: 'nested',
    message: 'Member counts per tier',
  },
  {
    method: 'get',
    path: `${BASE}/tiers/level/:level`,
    document: `query TierByLevel($level: Int!, $locale: Locale) { tierByLevel(level: $level, locale: $locale) { ${TIER_FIELDS} } }`,
    envelope: 'nested',
    message: 'Tier found',
    public: true,
  },
  {
    method: 'get',
    path: `${BASE}/tiers/:id`,
    document: `query Tier($id: ID!, $locale: Locale) { tier(id: $id, locale: $locale) { ${TIER_FIELDS} } }`,
    envelope: 'nested',
    message: 'Tier found',
    public: true,
  },
  {
    method: 'post',
    path: `${BASE}/tiers`,
    document: `mutation CreateTier($input: CreateTierInput!) { createTier(input: $input) { id name_en level isActive } }`,
    authorize: TIER_MANAGE,
    upload: [{ ...TIER_LOGO, required: true }, BENEFIT_LOGOS],
    variables: (input) => ({ input: tierInput(input) }),
    envelope: 'nested',
    message: 'Tier created',
    status: 201,
  },
  {
    method: 'put',
    path: `${BASE}/tiers/:id`,
    document: `mutation UpdateTier($id: ID!, $input: UpdateTierInput!) { updateTier(id: $id, input: $input) { ${TIER_FIELDS} } }`,
    authorize: TIER_MANAGE,
    upload: [TIER_LOGO, BENEFIT_LOGOS],
    variables: (input) => ({ id: input.params.id, input: tierInput(input) }),
    envelope: 'nested',
    message: 'Tier updated',
  },
  {
    method: 'delete',
    path: `${BASE}/tiers/:id`,
    document: `mutation DeleteTier($id: ID!) { deleteTier(id: $id) { id } }`,
    envelope: 'message',
    message: 'Tier deleted',
  },
  {
    method: 'patch',
    path: `${BASE}/tiers/:id/set-active`,
    document: `mutation SetTierActive($id: ID!, $isActive: Boolean!) { setTierActive(id: $id, isActive: $isActive) { id } }`,
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'message',
    message: 'Tier status updated',
  },
  {
    method: 'get',
    path: `${BASE}/tiers/:id/members/count`,
    document: `query TierMemberCount($id: ID!) { tierMemberCount(id: $id) { tierId count } }`,
    envelope: 'nested',
    message: 'Member count',
  },
];

/** Members' tiers (projections): `me`, `history/*` and `summary/yearly` are matched before `:memberId`. */
export const TIER_PROJECTION_ROUTES: Route[] = [
  {
    method: 'post',
    path: `${BASE}/tiers/assign`,
    document: `mutation AssignTier($input: AssignTierInput!) { assignTier(input: $input) { id memberId tierId tierEndAt createdAt } }`,
    envelope: 'nested',
    message: 'Tier assigned',
    status: 201,
  },
  {
    method: 'get',
    path: `${BASE}/tier-projections/me`,
    document: `query MyTierProjection($locale: Locale) { myTierProjection { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/tier-projections/history/me`,
    document: `query MyTierHistory(${HISTORY_FILTERS}) { myTierHistory(${HISTORY_ARGS}) { ${PAGE_META} data { ${HISTORY_FIELDS} } } }`,
    envelope: 'nested',
    message: 'Tier history',
  },
  {
    method: 'get',
    path: `${BASE}/tier-projections/history/:memberId`,
    document: `query TierHistory($memberId: ID!, ${HISTORY_FILTERS}) {
    tierHistory(memberId: $memberId, ${HISTORY_ARGS}) { ${PAGE_META} data { ${HISTORY_FIELDS} } } }`,
    envelope: 'nested',
    message: 'Tier history',
  },
  {
    method: 'get',
    path: `${BASE}/tier-projections/summary/yearly`,
    document: `query TierYearlySummary($year: Int) {
    tierYearlySummary(year: $year) { year tierDistribution { tierId tierName_en memberCount } upgrades downgrades expiries } }`,
    envelope: 'nested',
    message: 'Yearly tier summary',
  },
  {
    method: 'get',
    path: `${BASE}/tier-projections`,
    document: `query TierProjections($page: Int, $limit: Int, $search: String, $tierId: ID, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeMember: Boolean = false, $locale: Locale) {
    tierProjections(page: $page, limit: $limit, search: $search, tierId: $tierId, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt) {
      ${PAGE_META} data { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } ${MEMBER_SUMMARY} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/tier-projections/:memberId`,
    document: `query TierProjection($memberId: ID!, $locale: Locale) {
    tierProjection(memberId: $memberId) { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } } }`,
    envelope: 'data',
  },
  {
    method: 'put',
    path: `${BASE}/tier-projections/:memberId`,
    document: `mutation UpdateTierProjection($memberId: ID!, $input: UpdateTierProjectionInput!) {
    updateTierProjection(memberId: $memberId, input: $input) { success projection { ${PROJECTION_FIELDS} tier { ${TIER_SUMMARY} } } } }`,
    envelope: 'nested',
    message: 'Tier projection updated',
  },
];
