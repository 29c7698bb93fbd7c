import { LegacyRoute } from './legacy';
import { claimAnswerOf, claimFailure, claimOf, claimVariables, customerRewardsVariables, redemptionAnswerOf } from '../v1/claims';
import { V1_BASE } from '../../core/rest/route';
import { arrayOf, boolean, integer, JsonSchema, object, oneOf, ref, string } from '../../core/rest/json-schema';

const CLAIM_BODY = { reward_id: 'id', quantity: 'quantity' };
const REDEMPTION = object({ customer_id: string(), reward_id: string(), quantity: integer(), points_redeemed: integer(), transaction_id: string(), claims: arrayOf(ref('Claim')) });

/** Redeem and claim: the same claim of the reward service (idempotent, a customer for itself), answered each its own way. */
function claimRoute(path: string, summary: string, response: JsonSchema, payload: LegacyRoute['payload']): LegacyRoute {
  return {
    method: 'post',
    path,
    operation: 'V1ClaimReward',
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
import { CatalogRecord, rewardListVariables, rewardOf, tierOf } from '../v1/rewards';

const BASE = `${V1_BASE}/customers/:id/points`;

/**
 * Spec Part 3, loyalty: rewards and tiers (anyone with `read`, customers too: `customer: 'self'` lets a
 * customer token call a route that names no customer), redeeming and claiming, a customer's claims.
 */
export const V1_LOYALTY_ROUTES: LegacyRoute[] = [
  {
    method: 'get',
    path: `${V1_BASE}/rewards`,
    operation: 'V1Rewards',
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
    operation: 'V1Reward',
    envelope: 'v1',
    doc: { summary: 'One reward', response: ref('Reward') },
    customer: 'self',
    notFound: 'REWARD_NOT_FOUND',
    variables: ({ params }) => ({ id: params.id }),
    payload: ({ reward, tierNames }) => rewardOf(reward, tierNames.data),
  },
  {
    method: 'get',
    path: `${V1_BASE}/tiers`,
    operation: 'V1Tiers',
    envelope: 'v1List',
    doc: { summary: 'Membership tiers', response: ref('Tier') },
    customer: 'self',
    payload: ({ tiers }) => ({ ...tiers, data: tiers.data.map(tierOf) }),
  },
  {
    method: 'get',
    path: `${V1_BASE}/tiers/:id`,
    operation: 'V1Tier',
    envelope: 'v1',
    doc: { summary: 'One tier', response: ref('Tier') },
    customer: 'self',
    notFound: 'TIER_NOT_FOUND',
    variables: ({ params }) => ({ id: params.id }),
    payload: ({ tier }) => tierOf(tier),
  },
  claimRoute(`${BASE}/redeem`, 'Redeem points for `quantity` claims of a reward, all or none', REDEMPTION, ({ claim }) => redemptionAnswerOf(claim)),
  claimRoute(
    `${V1_BASE}/customers/:id/rewards/claim`,
    'Claim a reward: one claim, or a list of `quantity` claims, all or none',
    { anyOf: [ref('Claim'), arrayOf(ref('Claim'))] },
    ({ claim }) => claimAnswerOf(claim),
  ),
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/rewards`,
    operation: 'V1CustomerRewards',
    envelope: 'v1List',
    doc: { summary: 'A customer\'s claimed rewards', query: { status: oneOf('available', 'used', 'expired') }, response: ref('Claim') },
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, query }) => customerRewardsVariables(params, query),
    payload: ({ member }) => ({ ...member.rewardCodes, data: member.rewardCodes.data.map(claimOf) }),
  },
];
