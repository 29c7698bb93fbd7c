import { Route, V1_BASE } from '../../../core/rest/route';
import { arrayOf, boolean, integer, JsonSchema, object, oneOf, ref, string } from '../../../core/rest/json-schema';
import { CLAIM_STATUSES, claimAnswerOf, claimFailure, claimOf, claimVariables, customerRewardsVariables, redemptionAnswerOf } from './v1-claims';
import { CatalogRecord, rewardListVariables, rewardOf } from './v1-rewards';

const CLAIM_FIELDS = 'id code memberId rewardCatalogId qrCode status expiredAt createdAt';
const CATALOG_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl isActive status tierCondition tierRequirement
  redeemRule { pointUsage } reward { type imageUrl stock stockType deletedAt }`;
/** Every tier's name, for `tier_required` (a catalog names its tiers by id). */
const TIER_NAMES = 'tierNames: tiers(limit: 100, includeInActive: true) { data { id level name_en name_th name_cn } }';

const CLAIM_BODY = { reward_id: 'id', quantity: 'quantity' };
const REDEMPTION = object({ customer_id: string(), reward_id: string(), quantity: integer(), points_redeemed: integer(), transaction_id: string(), claims: arrayOf(ref('Claim')) });

/** Redeem and claim: the same claim of the reward service (idempotent, a customer for itself), answered each its own way. */
function claimRoute(path: string, summary: string, response: JsonSchema, payload: Route['payload']): Route {
  return {
    method: 'post',
    path,
    document: `mutation V1ClaimReward($id: ID!, $memberId: ID, $quantity: Int, $idempotencyKey: String) {
    claim: claimRewardCatalog(id: $id, memberId: $memberId, quantity: $quantity, idempotencyKey: $idempotencyKey) {
      memberId rewardCatalogId quantity pointsSpent pointTransactionId codes { ${CLAIM_FIELDS} } } }`,
    envelope: 'v1',
    doc: { summary, bodyVariables: CLAIM_BODY, response },
    status: 201,
    idempotent: true,
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, body }) => claimVariables(params, body),
    payload,
    v1Failure: claimFailure,
  };
}

/**
 * Spec Part 3, loyalty: rewards (anyone with `read`, customers too: `customer: 'self'` lets a customer
 * token call a route that names no customer), redemptions and claims (`write`, a customer for itself).
 */
export const V1_REWARD_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${V1_BASE}/rewards`,
    document: `query V1Rewards($page: Int, $limit: Int, $rewardType: RewardType, $eligibleTierId: String, $pointUsageMin: Float, $pointUsageMax: Float, $available: Boolean) {
    rewards: rewardCatalogs(page: $page, limit: $limit, rewardType: $rewardType, eligibleTierId: $eligibleTierId, pointUsageMin: $pointUsageMin, pointUsageMax: $pointUsageMax, available: $available) {
      meta { page limit total } data { ${CATALOG_FIELDS} } }
    ${TIER_NAMES} }`,
    envelope: 'v1List',
    doc: {
      summary: 'Rewards',
      query: {
        category: string({ description: 'a reward type in lower case' }),
        tier: string({ description: 'a tier id: rewards that tier may redeem' }),
        points_min: integer({ minimum: 0 }),
        points_max: integer({ minimum: 0 }),
        available: boolean(),
      },
      response: ref('Reward'),
    },
    customer: 'self',
    variables: ({ query }) => rewardListVariables(query),
    payload: ({ rewards, tierNames }) => ({ ...rewards, data: rewards.data.map((catalog: CatalogRecord) => rewardOf(catalog, tierNames.data)) }),
  },
  {
    method: 'get',
    path: `${V1_BASE}/rewards/:id`,
    document: `query V1Reward($id: ID!) { reward: rewardCatalog(id: $id) { ${CATALOG_FIELDS} } ${TIER_NAMES} }`,
    envelope: 'v1',
    doc: { summary: 'One reward', response: ref('Reward') },
    customer: 'self',
    notFound: 'REWARD_NOT_FOUND',
    variables: ({ params }) => ({ id: params.id }),
    payload: ({ reward, tierNames }) => rewardOf(reward, tierNames.data),
  },
  claimRoute(`${V1_BASE}/customers/:id/points/redeem`, 'Redeem points for `quantity` claims of a reward, all or none', REDEMPTION, ({ claim }) => redemptionAnswerOf(claim)),
  claimRoute(
    `${V1_BASE}/customers/:id/rewards/claim`,
    'Claim a reward: one claim, or a list of `quantity` claims, all or none',
    { anyOf: [ref('Claim'), arrayOf(ref('Claim'))] },
    ({ claim }) => claimAnswerOf(claim),
  ),
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/rewards`,
    document: `query V1CustomerRewards($id: ID!, $status: RewardCodeStatus, $page: Int, $limit: Int) {
    member(id: $id) { id rewardCodes(status: $status, page: $page, limit: $limit) { meta { page limit total } data { ${CLAIM_FIELDS} } } } }`,
    envelope: 'v1List',
    doc: { summary: 'A customer\'s claimed rewards', query: { status: oneOf(...CLAIM_STATUSES) }, response: ref('Claim') },
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, query }) => customerRewardsVariables(params, query),
    payload: ({ member }) => ({ ...member.rewardCodes, data: member.rewardCodes.data.map(claimOf) }),
  },
];
