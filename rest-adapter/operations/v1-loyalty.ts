/** The GraphQL documents behind the /api/v1 loyalty routes; CI validates each against the supergraph. */

const CLAIM_FIELDS = 'id code memberId rewardCatalogId qrCode status expiredAt createdAt';
const CATALOG_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl isActive status tierCondition tierRequirement
  redeemRule { pointUsage } reward { type imageUrl stock stockType deletedAt }`;
/** Every tier's name, for `tier_required` (a catalog names its tiers by id). */
const TIER_NAMES = 'tierNames: tiers(limit: 100, includeInActive: true) { data { id level name_en name_th name_cn } }';
const TIER_FIELDS = 'id level name_en name_th name_cn requirement { purchaseAmountHit } benefit { name_en name_th name_cn }';

export const V1_LOYALTY_OPERATIONS = {
  V1Rewards: `query V1Rewards($page: Int, $limit: Int, $rewardType: RewardType, $eligibleTierId: String, $pointUsageMin: Float, $pointUsageMax: Float, $available: Boolean) {
    rewards: rewardCatalogs(page: $page, limit: $limit, rewardType: $rewardType, eligibleTierId: $eligibleTierId, pointUsageMin: $pointUsageMin, pointUsageMax: $pointUsageMax, available: $available) {
      meta { page limit total } data { ${CATALOG_FIELDS} } }
    ${TIER_NAMES} }`,
  V1Reward: `query V1Reward($id: ID!) { reward: rewardCatalog(id: $id) { ${CATALOG_FIELDS} } ${TIER_NAMES} }`,
  V1Tiers: `query V1Tiers($page: Int, $limit: Int) { tiers(page: $page, limit: $limit) { meta { page limit total } data { ${TIER_FIELDS} } } }`,
  V1Tier: `query V1Tier($id: ID!) { tier(id: $id) { ${TIER_FIELDS} } }`,
  V1ClaimReward: `mutation V1ClaimReward($id: ID!, $memberId: ID, $quantity: Int, $idempotencyKey: String) {
    claim: claimRewardCatalog(id: $id, memberId: $memberId, quantity: $quantity, idempotencyKey: $idempotencyKey) {
      memberId rewardCatalogId quantity pointsSpent pointTransactionId codes { ${CLAIM_FIELDS} } } }`,
  V1CustomerRewards: `query V1CustomerRewards($id: ID!, $status: RewardCodeStatus, $page: Int, $limit: Int) {
    member(id: $id) { id rewardCodes(status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${CLAIM_FIELDS} } } } }`,
};
