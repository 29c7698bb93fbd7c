import { JsonSchema, boolean, id, integer, nullable, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';

/** The v1 resources of rewards and claims, as the routes answer them (snake_case). */
export const REWARD_COMPONENTS: Record<string, JsonSchema> = {
  Reward: record({
    id: id(),
    name: nullable(string()),
    description: nullable(string()),
    category: nullable(string({ description: 'the reward type in lower case' })),
    points_required: integer(),
    tier_required: nullable(string({ description: 'the lowest required tier\'s name' })),
    image: nullable(string()),
    available: boolean(),
    stock: nullable(integer({ description: 'null: unlimited' })),
  }),
  Claim: record({
    id: id(),
    customer_id: id(),
    reward_id: id(),
    voucher_code: string(),
    qr_code: string({ description: 'a data URL (SVG)' }),
    status: oneOf('available', 'used', 'expired'),
    expires_at: nullable(timestamp()),
    created_at: timestamp(),
  }),
};
