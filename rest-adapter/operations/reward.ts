/** The GraphQL documents behind the /reward/api routes; CI validates each against the supergraph. */

const PAGE_META = 'meta { page limit total totalPages }';
const REWARD_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type discountType benefitValue imageUrl
  stock stockType stockInfinite rewardCatalogId storeIds condition { minimumSpend timeUseWithIn window { start end } }
  isActive createdAt updatedAt deletedAt`;
const REWARD_STATS = 'stats @include(if: $includeStats) { redeemed used total remaining }';
const CATALOG_LINK = `rewardCatalog @include(if: $includeLink) { id name_en name_th name_cn imageUrl redeemRule { pointUsage limitPerUser }
  window { start end } isActive }`;

const CATALOG_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl rewardId
  redeemRule { pointUsage limitPerUser } quota { type numberInPeriod limitPerPeriod } window { start end }
  tierCondition tierRequirement status isActive createdAt updatedAt deletedAt`;

const CODE_FIELDS = `id code rewardId rewardCatalogId memberId staffId usedAt expiredAt expirationNotifiedAt createdAt updatedAt status
  reward(locale: $locale) { id name_en name_th name_cn type discountType benefitValue imageUrl }`;
const CODE_LINKS = `rewardCatalog(locale: $locale) @include(if: $includeLink) { id name_en name_th name_cn imageUrl redeemRule { pointUsage limitPerUser } }
  member @include(if: $includeMember) { id name nickName phoneNumber status }`;
const CODE_FILTERS = `$page: Int, $limit: Int, $rewardId: ID, $rewardCatalogId: ID, $staffId: ID, $search: String, $start: DateTimeISO,
  $end: DateTimeISO, $status: RewardCodeStatus, $includeMember: Boolean = false, $includeLink: Boolean = false, $locale: Locale`;
const CODE_FILTER_ARGS = 'page: $page, limit: $limit, rewardId: $rewardId, rewardCatalogId: $rewardCatalogId, staffId: $staffId, search: $search, start: $start, end: $end, status: $status';

export const REWARD_OPERATIONS = {
  Rewards: `query Rewards($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeStats: Boolean = false, $includeLink: Boolean = false, $type: RewardType, $locale: Locale) {
    rewards(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, type: $type, locale: $locale) {
      ${PAGE_META} data { ${REWARD_FIELDS} ${REWARD_STATS} ${CATALOG_LINK} } } }`,
  Reward: `query Reward($id: ID!, $locale: Locale, $includeStats: Boolean = false) { reward(id: $id, locale: $locale) { ${REWARD_FIELDS} ${REWARD_STATS} } }`,
  CreateReward: `mutation CreateReward($input: CreateRewardInput!) { createReward(input: $input) { ${REWARD_FIELDS} } }`,
  UpdateReward: `mutation UpdateReward($id: ID!, $input: UpdateRewardInput!) { updateReward(id: $id, input: $input) { ${REWARD_FIELDS} } }`,
  IncreaseRewardStock: `mutation IncreaseRewardStock($id: ID!, $amount: Int!) { increaseRewardStock(id: $id, amount: $amount) { id stock stockInfinite stockType } }`,
  DecreaseRewardStock: `mutation DecreaseRewardStock($id: ID!, $amount: Int!) { decreaseRewardStock(id: $id, amount: $amount) { id stock stockInfinite stockType } }`,
  DeleteReward: `mutation DeleteReward($id: ID!) { deleteReward(id: $id) { id } }`,
  SetRewardActive: `mutation SetRewardActive($id: ID!, $isActive: Boolean!) { setRewardActive(id: $id, isActive: $isActive) { id isActive } }`,
  RewardCatalogs: `query RewardCatalogs($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeStats: Boolean = false, $status: RewardCatalogStatus, $advancedRules: RewardCatalogAdvancedRules, $dateRangeStart: DateTimeISO,
    $dateRangeEnd: DateTimeISO, $tierRequirementIds: [String!], $tierCondition: RewardTierCondition, $sortBy: RewardCatalogSortBy,
    $sortOrder: SortDirection, $pointUsageMin: Float, $pointUsageMax: Float, $storeIds: [String!], $locale: Locale) {
    rewardCatalogs(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt,
      status: $status, advancedRules: $advancedRules, dateRangeStart: $dateRangeStart, dateRangeEnd: $dateRangeEnd,
      tierRequirementIds: $tierRequirementIds, tierCondition: $tierCondition, sortBy: $sortBy, sortOrder: $sortOrder,
      pointUsageMin: $pointUsageMin, pointUsageMax: $pointUsageMax, storeIds: $storeIds, locale: $locale) {
      ${PAGE_META} data { ${CATALOG_FIELDS} ${REWARD_STATS} } } }`,
  RewardCatalog: `query RewardCatalog($id: ID!, $locale: Locale, $includeStats: Boolean = false) {
    rewardCatalog(id: $id, locale: $locale) { ${CATALOG_FIELDS} ${REWARD_STATS} } }`,
  CreateRewardCatalog: `mutation CreateRewardCatalog($input: CreateRewardCatalogInput!) { createRewardCatalog(input: $input) { ${CATALOG_FIELDS} } }`,
  UpdateRewardCatalog: `mutation UpdateRewardCatalog($id: ID!, $input: UpdateRewardCatalogInput!) { updateRewardCatalog(id: $id, input: $input) { ${CATALOG_FIELDS} } }`,
  DeleteRewardCatalog: `mutation DeleteRewardCatalog($id: ID!) { deleteRewardCatalog(id: $id) { id } }`,
  SetRewardCatalogActive: `mutation SetRewardCatalogActive($id: ID!, $isActive: Boolean!) { setRewardCatalogActive(id: $id, isActive: $isActive) { id isActive } }`,
  RewardCodes: `query RewardCodes(${CODE_FILTERS}, $memberId: ID) {
    rewardCodes(${CODE_FILTER_ARGS}, memberId: $memberId) { ${PAGE_META} data { ${CODE_FIELDS} ${CODE_LINKS} } } }`,
  MyRewardCodes: `query MyRewardCodes(${CODE_FILTERS}) { myRewardCodes(${CODE_FILTER_ARGS}) { ${PAGE_META} data { ${CODE_FIELDS} ${CODE_LINKS} } } }`,
  RewardCode: `query RewardCode($id: ID!, $includeMember: Boolean = false, $includeLink: Boolean = false, $locale: Locale) {
    rewardCode(id: $id) { ${CODE_FIELDS} ${CODE_LINKS} } }`,
  UseRewardCode: `mutation UseRewardCode($id: ID!, $code: String!, $locale: Locale) { useRewardCode(id: $id, code: $code) { ${CODE_FIELDS} } }`,
  CheckRewardCode: `query CheckRewardCode($code: String!) {
    checkRewardCode(code: $code) { valid message rewardCode { id code rewardId expiredAt } reward { id name_en type } } }`,
  CanRedeemRewardCatalog: `query CanRedeemRewardCatalog($id: ID!, $memberId: ID) { canRedeemRewardCatalog(id: $id, memberId: $memberId) { canRedeem reasons { code message } } }`,
  RedeemRewardCatalog: `mutation RedeemRewardCatalog($id: ID!, $memberId: ID, $idempotencyKey: String!, $locale: Locale) {
    redeemRewardCatalog(id: $id, memberId: $memberId, idempotencyKey: $idempotencyKey) { ${CODE_FIELDS} } }`,
};
