import { REWARD } from '../../subgraphs/reward/contract';
import { Route, RouteInput, withPermission } from '../route';

const BASE = '/reward/api';

/** The reward image upload, stored as the reward's imageUrl (it wins over a text imageUrl). */
const REWARD_IMAGE = { name: 'image' };
const REWARD_MANAGE = withPermission(REWARD.permissions.manage);
const stockChange = ({ params, body }: RouteInput) => ({ id: params.id, amount: body.amount });
const rewardInput = ({ body, uploads }: RouteInput) => ({ ...body, imageUrl: uploads.image ?? body.imageUrl });

/** Spec Part 1, reward service: reads are public; writes answer `message` beside `data`. */
export const REWARD_ROUTES: Route[] = [
  { method: 'get', path: `${BASE}/rewards`, operation: 'Rewards', envelope: 'data', public: true },
  { method: 'get', path: `${BASE}/rewards/:id`, operation: 'Reward', envelope: 'data', public: true },
  {
    method: 'post',
    path: `${BASE}/rewards`,
    operation: 'CreateReward',
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ input: rewardInput(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward created',
  },
  {
    method: 'put',
    path: `${BASE}/rewards/:id`,
    operation: 'UpdateReward',
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ id: input.params.id, input: rewardInput(input) }),
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
];
