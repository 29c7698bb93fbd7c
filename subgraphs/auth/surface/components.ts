import { JsonSchema, arrayOf, date, id, integer, nullable, number, object, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';

const address = object({ street: nullable(string()), city: nullable(string()), postal_code: nullable(string()) });

/** The body of a chat-app login or link, as the operations' variables: the provider's code, and the app it is for. */
export const CHATAPP_CODE_BODY = { code: 'code', app_id: 'appId' };

/** The v1 resources of customers and chat-app logins, as the routes answer them (snake_case). */
export const AUTH_COMPONENTS: Record<string, JsonSchema> = {
  Customer: object(
    {
      id: id(),
      name: nullable(string()),
      email: nullable(string({ format: 'email' })),
      phone: nullable(string()),
      date_of_birth: nullable(date()),
      gender: nullable(string()),
      address: nullable(address),
      language: nullable(string({ description: 'locale tag' })),
      tier: {
        anyOf: [string({ description: 'the tier name (lists)' }), record({ id: id(), name: nullable(string()), level: integer() }), { type: 'null' }],
      },
      points_balance: integer(),
      status: oneOf('active', 'inactive'),
      points: record({ balance: integer(), lifetime_earned: nullable(integer()), lifetime_redeemed: nullable(integer()) }),
      rewards: arrayOf(record({ id: id(), name: nullable(string()), status: string() })),
      campaigns: arrayOf(
        record({
          id: id(),
          name: string(),
          type: oneOf('promotion', 'challenge', 'event'),
          status: oneOf('draft', 'active', 'ended'),
          participation: record({ id: id(), status: oneOf('active', 'completed', 'dropped'), joined_at: timestamp(), progress: record({ current: number(), target: number(), percentage: number() }) }),
        }),
      ),
      chatapp: record({ openid: nullable(string()), unionid: nullable(string()), nickname: nullable(string()), avatar: nullable(string()) }),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    ['id', 'name', 'email', 'phone', 'tier', 'points_balance', 'status', 'created_at', 'updated_at'],
  ),
  ChatappLogin: record({
    access_token: string(),
    token_type: oneOf('Bearer'),
    expires_in: integer(),
    refresh_token: string(),
    user: record({ id: id(), openid: nullable(string()), unionid: nullable(string()), nickname: nullable(string()), avatar: nullable(string()) }),
  }),
};
