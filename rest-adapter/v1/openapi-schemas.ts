/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the v1 resources, and small builders for route docs. */
export type JsonSchema = Record<string, unknown>;

export const string = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const integer = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
/** The bounds of GraphQL's `Int`: a signed 32-bit integer. */
export const INT32 = { format: 'int32', minimum: -2147483648, maximum: 2147483647 };
export const number = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const boolean = (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const oneOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
export const timestamp = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'date-time', ...extra });
export const date = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', format: 'date', ...extra });
export const id = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const arrayOf = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** A regular expression as a JSON Schema `pattern`, which has no flags: one that needs a flag is left to the description. */
export const patternOf = (pattern: RegExp): JsonSchema => (pattern.flags.replace('u', '') === '' ? { pattern: pattern.source } : {});
/** A string matching the expression the server checks it with. */
export const matching = (pattern: RegExp, extra: JsonSchema = {}): JsonSchema => string({ ...patternOf(pattern), ...extra });
/** Not blank: a character other than white space (what `value.trim()` checks). */
export const NOT_BLANK = { minLength: 1, pattern: '\\S' };
/** A date `YYYY-MM-DD` or an ISO 8601 timestamp. */
export const dateOrTimestamp = (extra: JsonSchema = {}): JsonSchema => string({ anyOf: [{ format: 'date' }, { format: 'date-time' }], ...extra });
export const ref = (component: keyof typeof V1_COMPONENTS): JsonSchema => ({ $ref: `#/components/schemas/${component}` });
/** An object of these properties; `required` names those always present (answers) or needed (requests). */
export const object = (properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  ...extra,
});
/** Every property present in answers (possibly null). */
const record = (properties: Record<string, JsonSchema>): JsonSchema => object(properties, Object.keys(properties));

/** The body of a chat-app login or link, as the operations' variables: the provider's code, and the app it is for. */
export const CHATAPP_CODE_BODY = { code: 'code', app_id: 'appId' };

/** A date or timestamp in a query string (`date_from`, `date_to`). */
export const dateQuery = (description: string): JsonSchema => dateOrTimestamp({ description, examples: ['2026-11-01', '2026-11-23T06:36:33Z'] });

const address = object({ street: nullable(string()), city: nullable(string()), postal_code: nullable(string()) });

const BOOKING_TIME = string({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM' });

/** The v1 resources of Part 3 and CONTRACT-v1, as the routes answer them (snake_case). */
export const V1_COMPONENTS = {
  Error: record({
    error: object(
      {
        code: string({ description: 'VALIDATION_ERROR, <THING>_NOT_FOUND, INVALID_STATE, DUPLICATE, IDEMPOTENCY_KEY_REUSED, INSUFFICIENT_POINTS, RATE_LIMITED, ...' }),
        message: string(),
        details: arrayOf(record({ field: string({ description: 'as the caller spelled it: address.postal_code, awards[2].points' }), message: string() })),
      },
      ['code', 'message'],
    ),
  }),
  OAuthError: object({ error: oneOf('invalid_token', 'insufficient_scope'), error_description: string() }, ['error']),
  Pagination: record({ page: integer({ minimum: 1 }), limit: integer({ minimum: 1, maximum: 100 }), total: integer({ minimum: 0 }) }),
  CustomerPagination: record({
    page: integer({ minimum: 1 }),
    limit: integer({ minimum: 1, maximum: 100 }),
    total: integer({ minimum: 0 }),
    total_pages: integer({ minimum: 0 }),
    has_next: boolean(),
    has_prev: boolean(),
  }),
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
  Segment: record({ id: id(), name: nullable(string()), type: oneOf('manual', 'ai') }),
  PointsTransaction: record({
    id: id(),
    customer_id: id(),
    points: integer({ description: 'negative for redemptions and expiries' }),
    type: oneOf('earned', 'redeemed', 'expired'),
    reason: nullable(string()),
    balance_after: integer(),
    created_at: timestamp(),
  }),
  PointBalance: record({
    customer_id: id(),
    balance: integer(),
    lifetime_earned: integer(),
    lifetime_redeemed: integer(),
    pending_expiration: nullable(record({ points: integer(), expires_at: timestamp() })),
  }),
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
  Tier: record({ id: id(), name: nullable(string()), level: integer(), points_threshold: integer(), benefits: arrayOf(string()) }),
  BatchAwardReport: record({
    processed: integer({ description: 'rows awarded' }),
    failed: integer(),
    results: arrayOf(
      object(
        {
          customer_id: string(),
          success: boolean(),
          transaction_id: nullable(id({ description: 'the ledger entry of the award' })),
          error: object({ code: string({ description: 'CUSTOMER_NOT_FOUND, or INTERNAL_ERROR when the row could not be recorded' }), message: string() }, ['code', 'message'], {
            description: 'why the row was not awarded (only on a failed row)',
          }),
        },
        ['customer_id', 'success', 'transaction_id'],
      ),
    ),
  }),
  ChatappLogin: record({
    access_token: string(),
    token_type: oneOf('Bearer'),
    expires_in: integer(),
    refresh_token: string(),
    user: record({ id: id(), openid: nullable(string()), unionid: nullable(string()), nickname: nullable(string()), avatar: nullable(string()) }),
  }),
  Transaction: record({
    id: id(),
    customer_id: id(),
    amount: number({ description: 'currency units, 2 decimals' }),
    store_id: nullable(string({ description: 'the shop id of the point shop rules' })),
    category: nullable(string()),
    external_id: nullable(string({ description: "the retailer's own id, unique per store" })),
    status: oneOf('completed', 'partially_refunded', 'refunded'),
    points_earned: integer(),
    refunded_amount: number(),
    points_reversed: integer({ description: 'points the refunds took back' }),
    points_unrecovered: integer({ description: 'points the refunds could not take back (already spent)' }),
    occurred_at: timestamp(),
    created_at: timestamp(),
  }),
  Interaction: record({
    id: id(),
    type: oneOf('purchase', 'refund', 'booking', 'visit', 'click', 'campaign_joined'),
    channel: oneOf('api', 'receipt', 'booking', 'campaign'),
    description: string(),
    amount: nullable(number()),
    points_earned: integer({ description: 'negative for points a refund took back' }),
    created_at: timestamp(),
  }),
  Venue: object(
    {
      id: id(),
      name: string(),
      type: oneOf('restaurant', 'event', 'service'),
      address: nullable(string()),
      phone: nullable(string()),
      capacity: integer({ description: 'Guests per slot' }),
      opening_time: BOOKING_TIME,
      closing_time: string({ description: 'HH:MM; at or before opening_time: the next day' }),
      slot_minutes: integer(),
      available_slots: arrayOf(object({ date: date(), times: arrayOf(BOOKING_TIME) }), { description: 'Free slot starts of today and the next 6 days (BOOKING_TIME_ZONE)' }),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    ['id', 'name', 'type', 'capacity', 'opening_time', 'closing_time', 'slot_minutes', 'available_slots'],
  ),
  Booking: object(
    {
      id: id(),
      customer_id: id(),
      venue_id: id(),
      type: oneOf('table', 'slot', 'ticket'),
      date: date({ description: 'The service day (BOOKING_TIME_ZONE)' }),
      time: BOOKING_TIME,
      duration: integer({ description: 'Minutes' }),
      guests: integer(),
      special_requests: nullable(string()),
      status: oneOf('pending', 'confirmed', 'cancelled', 'completed'),
      check_in_code: string(),
      qr_code: string({ description: 'The check-in code as a QR image (SVG data URL)' }),
      cancel_reason: nullable(string()),
      cancelled_at: nullable(timestamp()),
      checked_in_at: nullable(timestamp()),
      completed_at: nullable(timestamp()),
      no_show: boolean({ description: 'Completed without a check-in' }),
      venue: { $ref: '#/components/schemas/Venue' },
      customer: object({ id: id(), name: nullable(string()), email: nullable(string()), phone: nullable(string()) }, [], { description: 'The detail only: the customer as GET /customers/{id} names these fields' }),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    ['id', 'customer_id', 'venue_id', 'type', 'date', 'time', 'duration', 'guests', 'status', 'check_in_code', 'qr_code', 'created_at', 'updated_at'],
  ),
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
} satisfies Record<string, JsonSchema>;
