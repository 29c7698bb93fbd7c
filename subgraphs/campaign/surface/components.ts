import { JsonSchema, boolean, id, integer, nullable, number, object, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';

/** The v1 resources of campaigns and their participants, as the routes answer them (snake_case). */
export const CAMPAIGN_COMPONENTS: Record<string, JsonSchema> = {
  Campaign: record({
    id: id(),
    name: string(),
    description: nullable(string()),
    type: oneOf('promotion', 'challenge', 'event'),
    status: oneOf('draft', 'active', 'ended'),
    start_date: timestamp(),
    end_date: timestamp(),
    target_segment: nullable(object({ id: id(), name: nullable(string({ description: 'as named when it was set' })) }, ['id', 'name'])),
    reward: nullable(object({ type: oneOf('points', 'reward'), value: { anyOf: [integer({ description: 'points' }), string({ description: 'a reward id' })] }, unit: nullable(string()) }, ['type', 'value', 'unit'])),
    rules: object({ min_purchase: nullable(number()), max_uses: nullable(integer()), per_customer_limit: integer() }, ['min_purchase', 'max_uses', 'per_customer_limit']),
    content: nullable(object({ banner: nullable(string()), terms: nullable(string()) })),
    participant_count: integer(),
    conversion_rate: number({ description: 'completed participations / participations, 0 to 1' }),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
  Participant: record({
    id: id(),
    campaign_id: id(),
    customer_id: id(),
    status: oneOf('active', 'completed', 'dropped'),
    joined_at: timestamp(),
    completed_at: nullable(timestamp()),
    reward_claimed: boolean(),
    progress: object({ current: number(), target: number(), percentage: number({ description: '0 to 100' }) }, ['current', 'target', 'percentage']),
  }),
};
