import { LegacyRoute } from './legacy';
import { awardVariables, batchAwardFailure, batchAwardVariables, batchOutcomeOf } from '../v1/awards';
import { claimAnswerOf, claimFailure, claimOf, claimVariables, customerRewardsVariables, redemptionAnswerOf } from '../v1/claims';
import { V1_BASE } from '../../core/rest/route';
import { arrayOf, boolean, dateQuery, integer, JsonSchema, object, oneOf, ref, string } from '../../core/rest/json-schema';
import { MAX_BATCH_AWARDS } from '../v1/awards';

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
import { BalanceRecord, customerIdOf, LedgerEntry, pointBalanceOf, pointHistoryVariables, pointsTransactionOf } from '../v1/points';

const BASE = `${V1_BASE}/customers/:id/points`;

/**
 * Spec Part 3, loyalty: point reads (a customer token reads its own, staff and API keys need `read`),
 * awards (`write`; batch `admin`; customers never), rewards and tiers (anyone with `read`, customers too:
 * `customer: 'self'` lets a customer token call a route that names no customer).
 */
export const V1_LOYALTY_ROUTES: LegacyRoute[] = [
  {
    method: 'get',
    path: `${BASE}/balance`,
    operation: 'V1PointBalance',
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'A customer\'s point balance, lifetime sums and next expiry', response: ref('PointBalance') },
    variables: ({ params }) => ({ id: customerIdOf(params) }),
    payload: (data) => pointBalanceOf(data as BalanceRecord),
  },
  {
    method: 'get',
    path: `${BASE}/history`,
    operation: 'V1PointHistory',
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: 'A customer\'s points transactions, newest first',
      query: { type: oneOf('earned', 'redeemed', 'expired'), date_from: dateQuery('at or after'), date_to: dateQuery('at or before (a bare date covers its day)') },
      response: ref('PointsTransaction'),
    },
    variables: ({ params, query }) => pointHistoryVariables(params, query),
    payload: ({ history }) => ({ ...history, data: history.data.map((entry: LedgerEntry) => pointsTransactionOf(entry)) }),
  },
  {
    method: 'post',
    path: `${BASE}/award`,
    operation: 'V1AwardPoints',
    envelope: 'v1',
    doc: {
      summary: 'Award points (a repeated `transaction_id` answers the first award and awards nothing)',
      input: { omit: ['memberId'] },
      response: ref('PointsTransaction'),
    },
    idempotent: true,
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, body, rawBody }) => awardVariables(params, body, rawBody),
    payload: ({ awardPoints }) => pointsTransactionOf(awardPoints),
  },
  {
    method: 'post',
    path: `${V1_BASE}/points/batch-award`,
    operation: 'V1BatchAwardPoints',
    envelope: 'v1',
    doc: {
      summary: `Award points to up to ${MAX_BATCH_AWARDS} customers, each row on its own`,
      input: { rename: { memberId: 'customerId' } },
      response: ref('BatchAwardReport'),
    },
    scope: 'admin',
    idempotent: true,
    variables: ({ body }) => batchAwardVariables(body),
    payload: ({ awardPointsBatch }) => batchOutcomeOf(awardPointsBatch),
    v1Failure: batchAwardFailure,
  },
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
