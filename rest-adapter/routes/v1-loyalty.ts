import { Route } from '../route';
import { awardVariables, batchAwardFailure, batchAwardVariables, batchOutcomeOf } from '../v1/awards';
import { claimAnswerOf, claimFailure, claimOf, claimVariables, customerRewardsVariables, redemptionAnswerOf } from '../v1/claims';
import { V1_BASE } from '../v1/envelope';
import { CatalogRecord, rewardListVariables, rewardOf, tierOf } from '../v1/rewards';
import { BalanceRecord, customerIdOf, LedgerEntry, pointBalanceOf, pointHistoryVariables, pointsTransactionOf } from '../v1/points';

const BASE = `${V1_BASE}/customers/:id/points`;

/**
 * Spec Part 3, loyalty: point reads (a customer token reads its own, staff and API keys need `read`),
 * awards (`write`; batch `admin`; customers never), rewards and tiers (anyone with `read`, customers too:
 * `customer: 'self'` lets a customer token call a route that names no customer).
 */
export const V1_LOYALTY_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/balance`,
    operation: 'V1PointBalance',
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
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
    variables: ({ params, query }) => pointHistoryVariables(params, query),
    payload: ({ history }) => ({ ...history, data: history.data.map((entry: LedgerEntry) => pointsTransactionOf(entry)) }),
  },
  {
    method: 'post',
    path: `${BASE}/award`,
    operation: 'V1AwardPoints',
    envelope: 'v1',
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
    customer: 'self',
    variables: ({ query }) => rewardListVariables(query),
    payload: ({ rewards, tierNames }) => ({ ...rewards, data: rewards.data.map((catalog: CatalogRecord) => rewardOf(catalog, tierNames.data)) }),
  },
  {
    method: 'get',
    path: `${V1_BASE}/rewards/:id`,
    operation: 'V1Reward',
    envelope: 'v1',
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
    customer: 'self',
    payload: ({ tiers }) => ({ ...tiers, data: tiers.data.map(tierOf) }),
  },
  {
    method: 'get',
    path: `${V1_BASE}/tiers/:id`,
    operation: 'V1Tier',
    envelope: 'v1',
    customer: 'self',
    notFound: 'TIER_NOT_FOUND',
    variables: ({ params }) => ({ id: params.id }),
    payload: ({ tier }) => tierOf(tier),
  },
  {
    method: 'post',
    path: `${BASE}/redeem`,
    operation: 'V1ClaimReward',
    envelope: 'v1',
    status: 201,
    idempotent: true,
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, body }) => claimVariables(params, body),
    payload: ({ claim }) => redemptionAnswerOf(claim),
    v1Failure: claimFailure,
  },
  {
    method: 'post',
    path: `${V1_BASE}/customers/:id/rewards/claim`,
    operation: 'V1ClaimReward',
    envelope: 'v1',
    status: 201,
    idempotent: true,
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, body }) => claimVariables(params, body),
    payload: ({ claim }) => claimAnswerOf(claim),
    v1Failure: claimFailure,
  },
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/rewards`,
    operation: 'V1CustomerRewards',
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, query }) => customerRewardsVariables(params, query),
    payload: ({ member }) => ({ ...member.rewardCodes, data: member.rewardCodes.data.map(claimOf) }),
  },
];
