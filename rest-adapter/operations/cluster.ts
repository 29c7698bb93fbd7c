/** The GraphQL documents behind the /cluster/api routes; CI validates each against the supergraph. */

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

const TIER_PROJECTION_OPERATIONS = {
  AssignTier: `mutation AssignTier($input: AssignTierInput!) { assignTier(input: $input) { id memberId tierId tierEndAt createdAt } }`,
  MyTierProjection: `query MyTierProjection($locale: Locale) { myTierProjection { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } } }`,
  TierProjection: `query TierProjection($memberId: ID!, $locale: Locale) {
    tierProjection(memberId: $memberId) { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } } }`,
  TierProjections: `query TierProjections($page: Int, $limit: Int, $search: String, $tierId: ID, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeMember: Boolean = false, $locale: Locale) {
    tierProjections(page: $page, limit: $limit, search: $search, tierId: $tierId, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt) {
      ${PAGE_META} data { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } ${MEMBER_SUMMARY} } } }`,
  UpdateTierProjection: `mutation UpdateTierProjection($memberId: ID!, $input: UpdateTierProjectionInput!) {
    updateTierProjection(memberId: $memberId, input: $input) { success projection { ${PROJECTION_FIELDS} tier { ${TIER_SUMMARY} } } } }`,
  MyTierHistory: `query MyTierHistory(${HISTORY_FILTERS}) { myTierHistory(${HISTORY_ARGS}) { ${PAGE_META} data { ${HISTORY_FIELDS} } } }`,
  TierHistory: `query TierHistory($memberId: ID!, ${HISTORY_FILTERS}) {
    tierHistory(memberId: $memberId, ${HISTORY_ARGS}) { ${PAGE_META} data { ${HISTORY_FIELDS} } } }`,
  TierYearlySummary: `query TierYearlySummary($year: Int) {
    tierYearlySummary(year: $year) { year tierDistribution { tierId tierName_en memberCount } upgrades downgrades expiries } }`,
};

export const CLUSTER_OPERATIONS = {
  // Tiers
  Tiers: `query Tiers($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean, $locale: Locale) {
    tiers(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, locale: $locale) {
      ${PAGE_META} data { ${TIER_FIELDS} } } }`,
  TiersByIds: `query TiersByIds($ids: [ID!]!, $locale: Locale) { tiersByIds(ids: $ids, locale: $locale) { ${TIER_FIELDS} } }`,
  TierByLevel: `query TierByLevel($level: Int!, $locale: Locale) { tierByLevel(level: $level, locale: $locale) { ${TIER_FIELDS} } }`,
  Tier: `query Tier($id: ID!, $locale: Locale) { tier(id: $id, locale: $locale) { ${TIER_FIELDS} } }`,
  CreateTier: `mutation CreateTier($input: CreateTierInput!) { createTier(input: $input) { id name_en level isActive } }`,
  UpdateTier: `mutation UpdateTier($id: ID!, $input: UpdateTierInput!) { updateTier(id: $id, input: $input) { ${TIER_FIELDS} } }`,
  DeleteTier: `mutation DeleteTier($id: ID!) { deleteTier(id: $id) { id } }`,
  SetTierActive: `mutation SetTierActive($id: ID!, $isActive: Boolean!) { setTierActive(id: $id, isActive: $isActive) { id isActive } }`,
  TierMemberCount: `query TierMemberCount($id: ID!) { tierMemberCount(id: $id) { tierId count } }`,
  TierMemberCounts: `query TierMemberCounts { tierMemberCounts { tierId count } }`,
  ...TIER_PROJECTION_OPERATIONS,
};
