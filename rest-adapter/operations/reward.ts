/** The GraphQL documents behind the /reward/api routes; CI validates each against the supergraph. */

const PAGE_META = 'meta { page limit total totalPages }';
const REWARD_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type discountType benefitValue imageUrl
  stock stockType stockInfinite rewardCatalogId storeIds condition { minimumSpend timeUseWithIn window { start end } }
  isActive createdAt updatedAt deletedAt`;
const REWARD_STATS = 'stats @include(if: $includeStats) { redeemed used total remaining }';
const CATALOG_LINK = `rewardCatalog @include(if: $includeLink) { id name_en name_th name_cn imageUrl redeemRule { pointUsage limitPerUser }
  window { start end } isActive }`;

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
};
