import { REWARD } from '../../subgraphs/reward/contract';
import { Principal } from '../../core/auth/principal';
import { RouteInput, withPermission } from '../../core/rest/route';
import { LegacyRoute } from './legacy';

const BASE = '/reward/api';

/** The image upload of a reward or catalog, stored as its imageUrl (it wins over a text imageUrl). */
const REWARD_IMAGE = { name: 'image' };
const REWARD_MANAGE = withPermission(REWARD.permissions.manage);
const stockChange = ({ params, body }: RouteInput) => ({ id: params.id, amount: body.amount });
/** The body of a reward or catalog write, its image upload as imageUrl. */
const withImage = ({ body, uploads }: RouteInput) => ({ ...body, imageUrl: uploads.image ?? body.imageUrl });

const CATALOG = `${BASE}/reward-catalogs`;
const CODE = `${BASE}/reward-codes`;
/** Redemption: members for themselves, reward:manage for the member named in the body. */
const REDEEMER = (principal: Principal) => principal.kind === 'member' || principal.can(REWARD.permissions.manage);

/** Spec Part 1, reward service: reads are public; writes answer `message` beside `data`. */
export const REWARD_ROUTES: LegacyRoute[] = [
  { method: 'get', path: `${BASE}/rewards`, operation: 'Rewards', envelope: 'data', public: true },
  { method: 'get', path: `${BASE}/rewards/:id`, operation: 'Reward', envelope: 'data', public: true },
  {
    method: 'post',
    path: `${BASE}/rewards`,
    operation: 'CreateReward',
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward created',
  },
  {
    method: 'put',
    path: `${BASE}/rewards/:id`,
    operation: 'UpdateReward',
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ id: input.params.id, input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward updated',
  },
  { method: 'post', path: `${BASE}/rewards/:id/increase-stock`, operation: 'IncreaseRewardStock', variables: stockChange, envelope: 'dataWithMessage', message: 'Stock increased' },
  { method: 'post', path: `${BASE}/rewards/:id/decrease-stock`, operation: 'DecreaseRewardStock', variables: stockChange, envelope: 'dataWithMessage', message: 'Stock decreased' },
  { method: 'delete', path: `${BASE}/rewards/:id`, operation: 'DeleteReward', envelope: 'dataWithMessage', message: 'Reward deleted' },
  {
    method: 'patch',
    path: `${BASE}/rewards/:id/set-active`,
    operation: 'SetRewardActive',
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'dataWithMessage',
    message: 'Reward status updated',
  },
  { method: 'get', path: CATALOG, operation: 'RewardCatalogs', envelope: 'data', public: true },
  { method: 'get', path: `${CATALOG}/:id`, operation: 'RewardCatalog', envelope: 'data', public: true },
  {
    method: 'post',
    path: CATALOG,
    operation: 'CreateRewardCatalog',
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward catalog created',
    status: 201,
  },
  {
    method: 'put',
    path: `${CATALOG}/:id`,
    operation: 'UpdateRewardCatalog',
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ id: input.params.id, input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward catalog updated',
  },
  { method: 'delete', path: `${CATALOG}/:id`, operation: 'DeleteRewardCatalog', envelope: 'dataWithMessage', message: 'Reward catalog deleted' },
  {
    method: 'patch',
    path: `${CATALOG}/:id/set-active`,
    operation: 'SetRewardCatalogActive',
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'dataWithMessage',
    message: 'Reward catalog status updated',
  },
  { method: 'get', path: CODE, operation: 'RewardCodes', envelope: 'data' },
  { method: 'get', path: `${CODE}/me`, operation: 'MyRewardCodes', envelope: 'data' },
  {
    method: 'post',
    path: `${CODE}/check`,
    operation: 'CheckRewardCode',
    variables: ({ body }) => ({ code: body.code }),
    payload: ({ checkRewardCode: { message: _message, ...check } }) => check,
    envelope: 'dataWithMessage',
    message: (data) => data.checkRewardCode.message,
  },
  { method: 'get', path: `${CODE}/:id`, operation: 'RewardCode', envelope: 'data' },
  {
    method: 'post',
    path: `${CODE}/:id/use`,
    operation: 'UseRewardCode',
    variables: ({ params, body, query }) => ({ id: params.id, code: body.code, locale: query.locale }),
    envelope: 'dataWithMessage',
    message: 'Reward code used',
  },
  { method: 'get', path: `${CATALOG}/:id/can-redeem`, operation: 'CanRedeemRewardCatalog', authorize: REDEEMER, envelope: 'data' },
  {
    method: 'post',
    path: `${CATALOG}/:id/redeem`,
    operation: 'RedeemRewardCatalog',
    authorize: REDEEMER,
    variables: ({ params, body, headers, query }) => ({ id: params.id, memberId: body.memberId, idempotencyKey: headers['idempotency-key'], locale: query.locale }),
    envelope: 'dataWithMessage',
    message: 'Reward redeemed',
    status: 201,
  },
];
