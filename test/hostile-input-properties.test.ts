import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

/**
 * Property: whatever a client sends, the platform answers its own status for it (2xx, 4xx), never a
 * 5xx, and GraphQL never an internal error. Hostile strings (NUL, unpaired surrogates, prototype keys,
 * SQL and array-literal syntax), huge and fractional numbers, explicit nulls, arrays where objects go,
 * objects where strings go, against a representative set of Part 1-2 and v1 routes and of GraphQL
 * operations. A fixed seed and a bounded number of runs keep it repeatable and inside the CI budget;
 * FUZZ_SEED and FUZZ_RUNS explore further on a developer's machine.
 */
const { platform, admin, member } = usePlatform({ staff: ['admin'], members: 1 });

const SEED = Number(process.env.FUZZ_SEED ?? 24);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

/** Characters and words that have broken something somewhere: what PostgreSQL refuses first. */
const special = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff') },
  { weight: 2, arbitrary: fc.constantFrom('\ufffe', '\u202e', '__proto__', 'constructor', 'NULL', 'null', '%00', '{', '"', '\\', "'; --", ',', ' ') },
);
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), special, fc.string({ maxLength: 12 })).map(([before, char, after]) => `${before}${char}${after}`) },
  { weight: 2, arbitrary: fc.constantFrom('', 'x'.repeat(5000), '1e400', '-0', '99999999999999999999999', '2026-02-30', 'not-a-uuid') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1e-7, 0.001, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, 1e21, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/** Keys a client may put in an object it sends, prototype names among them. */
const hostileKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'a', 'points', 'name'), hostileString);
const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 3 }, hostileString, hostileNumber, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
}));
/**
 * Values for some of the route's fields: one or two of them (so that the others do not stop the
 * request first and it goes as deep as it can), or any number.
 */
function fieldsOf<T>(fields: string[], value: fc.Arbitrary<T>): fc.Arbitrary<Partial<Record<string, T>>> {
  if (fields.length === 0) return fc.constant({});
  return fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...fields), value, { minKeys: 1, maxKeys: 2 }) },
    { weight: 1, arbitrary: fc.record(Object.fromEntries(fields.map((field) => [field, value])), { requiredKeys: [] }) },
  );
}
const nullOrHostile = fc.oneof(fc.constant(null), hostileValue);
/** A body as sent (`body`), or the fields that replace those of the route's valid body (`overrides`). */
type Given = { body?: unknown; overrides?: Record<string, unknown> };
type Strings = Partial<Record<string, string>>;
/** A body: a valid one with fields made null or hostile, the route's fields alone, or not an object at all. */
const bodyOf = (fields: string[]): fc.Arbitrary<Given> =>
  fc.oneof(
    { weight: 3, arbitrary: fieldsOf(fields, nullOrHostile).map((overrides): Given => ({ overrides })) },
    { weight: 2, arbitrary: fieldsOf(fields, nullOrHostile).map((body): Given => ({ body })) },
    { weight: 1, arbitrary: hostileValue.map((body): Given => ({ body })) },
  );

interface RestCase {
  method: string;
  /** `:member` stands for the test's customer, `:id` for an id nothing has. */
  path: string;
  body?: string[];
  /** A body (or form) the route accepts, for hostile values to replace fields of. */
  valid?: () => Record<string, unknown>;
  query?: string[];
  form?: string[];
  public?: boolean;
}

const REST_CASES: RestCase[] = [
  // Part 1
  { method: 'POST', path: '/auth/api/staffs/login', body: ['email', 'password'], public: true, valid: () => ({ email: 'nobody@example.com', password: 'wrong' }) },
  { method: 'POST', path: '/auth/api/staffs/request-reset-password-by-email', body: ['email', 'locale'], public: true, valid: () => ({ email: admin.email, locale: 'en' }) },
  { method: 'GET', path: '/auth/api/members', query: ['page', 'limit', 'search', 'birthdayFrom', 'includePointBalance', 'includeTier', 'locale'] },
  { method: 'PUT', path: '/auth/api/members/:member', body: ['nickName', 'avatarUrl', 'birthDate', 'name', 'gender', 'phoneNumber', 'address'], valid: () => ({ nickName: 'Nick', name: 'Name' }) },
  { method: 'GET', path: '/reward/api/reward-catalogs', query: ['page', 'limit', 'search', 'status', 'sortBy', 'sortOrder', 'pointUsageMin', 'tierRequirementIds', 'storeIds', 'dateRangeStart'], public: true },
  { method: 'POST', path: '/reward/api/rewards', form: ['name_en', 'description_en', 'type', 'stock', 'stockType', 'benefitValue', 'discountType', 'storeIds', 'condition', 'rewardCatalogId'], valid: () => ({ name_en: 'Reward', description_en: 'What it is', type: 'POINT', storeIds: '["store"]' }) },
  // Part 2
  { method: 'POST', path: '/notification/api/in-apps', body: ['memberId', 'type', 'pointSubtype', 'tierSubtype', 'format', 'metadata', 'title_en', 'content_en'], valid: () => ({ memberId: member.id, type: 'news', title_en: 'Title', content_en: 'Content', metadata: { priority: 'low' } }) },
  { method: 'POST', path: '/notification/api/in-apps/points/received', body: ['memberId', 'points', 'source', 'transactionId', 'receiptImageUrl'], valid: () => ({ memberId: member.id, points: 5 }) },
  { method: 'POST', path: '/point/api/earn', body: ['memberId', 'amount', 'purchaseAmount', 'shopId', 'categoryId', 'note', 'sourceBy'], valid: () => ({ memberId: member.id, amount: 1 }) },
  { method: 'GET', path: '/point/api/history', query: ['memberIds', 'startDate', 'endDate', 'actionType', 'sourceBy', 'includeMember', 'page', 'limit'] },
  { method: 'GET', path: '/cluster/api/tier-projections/summary/yearly', query: ['year', 'locale'] },
  { method: 'POST', path: '/cluster/api/segments', body: ['name_en', 'type', 'rule', 'description_en'], valid: () => ({ name_en: unique('Segment '), type: 'manual' }) },
  // v1
  { method: 'GET', path: '/api/v1/customers', query: ['page', 'limit', 'sort', 'filter[tier]', 'filter[status]', 'search', 'date_from', 'date_to', 'include'] },
  { method: 'POST', path: '/api/v1/customers', body: ['name', 'email', 'phone', 'date_of_birth', 'gender', 'address', 'language', 'chatapp'], valid: () => ({ name: 'Name', email: `${unique('fuzz')}@example.com` }) },
  { method: 'PATCH', path: '/api/v1/customers/:member', body: ['name', 'email', 'phone', 'date_of_birth', 'gender', 'address', 'language'], valid: () => ({ name: 'Name' }) },
  { method: 'POST', path: '/api/v1/customers/:member/points/award', body: ['points', 'reason', 'transaction_id', 'metadata'], valid: () => ({ points: 1, reason: 'fuzz' }) },
  { method: 'POST', path: '/api/v1/customers/:member/points/redeem', body: ['reward_id', 'quantity'], valid: () => ({ reward_id: randomUUID(), quantity: 1 }) },
  { method: 'POST', path: '/api/v1/customers/:member/rewards/claim', body: ['reward_id', 'quantity'], valid: () => ({ reward_id: randomUUID(), quantity: 1 }) },
  { method: 'PATCH', path: '/api/v1/customers/:member/notifications/preferences', body: ['channels', 'categories', 'quiet_hours'], valid: () => ({ channels: { email: true }, quiet_hours: { enabled: false } }) },
  { method: 'POST', path: '/api/v1/points/batch-award', body: ['awards'], valid: () => ({ awards: [{ customer_id: member.id, points: 1, reason: 'fuzz' }] }) },
  { method: 'POST', path: '/api/v1/transactions', body: ['customer_id', 'amount', 'store_id', 'category', 'external_id', 'occurred_at'], valid: () => ({ customer_id: member.id, amount: 10 }) },
  { method: 'GET', path: '/api/v1/transactions/:id', query: ['include'] },
  { method: 'POST', path: '/api/v1/bookings', body: ['customer_id', 'venue_id', 'type', 'date', 'time', 'duration', 'guests', 'special_requests'], valid: () => ({ customer_id: member.id, venue_id: randomUUID(), type: 'table', date: '2030-01-07', time: '10:00', guests: 2 }) },
  { method: 'POST', path: '/api/v1/campaigns', body: ['name', 'description', 'type', 'start_date', 'end_date', 'target_segment_id', 'reward', 'rules', 'content'], valid: () => ({ name: 'Campaign', type: 'promotion', start_date: '2030-01-01', end_date: '2030-02-01' }) },
  { method: 'POST', path: '/api/v1/notifications/templates', body: ['name', 'title', 'body', 'channel', 'variables'], valid: () => ({ name: unique('template'), title: 'Title {{a}}', body: 'Body', channel: 'in_app', variables: ['a'] }) },
  { method: 'POST', path: '/api/v1/webhooks', body: ['url', 'events', 'secret'] },
];

/** Percent-encoded as a hostile client would: an unpaired surrogate as the three bytes UTF-8 would give it (encodeURIComponent refuses it). */
const percentEncoded = (text: string) =>
  [...text]
    .map((char) => {
      if (!/^[\ud800-\udfff]$/.test(char)) return encodeURIComponent(char);
      const unit = char.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    })
    .join('');

/** The query string of hostile values (a NUL arrives as %00). */
const queryString = (query: Strings) =>
  Object.entries(query)
    .map(([key, value]) => `${percentEncoded(key)}=${percentEncoded(value ?? '')}`)
    .join('&');

/**
 * What every route is tried with first, whatever the generator draws: each field of its body, query
 * string and form alone made a NUL, an unpaired surrogate or null (the body's other fields valid).
 */
function examplesOf(rest: RestCase): Array<[Given, Strings, Strings, boolean]> {
  const poisons = ['a\u0000b', 'a\ud800'];
  return [
    ...(rest.body ?? []).flatMap((field) => [...poisons, null].map((value): [Given, Strings, Strings, boolean] => [{ overrides: { [field]: value } }, {}, {}, false])),
    ...(rest.query ?? []).flatMap((field) => poisons.map((value): [Given, Strings, Strings, boolean] => [{ overrides: {} }, { [field]: value }, {}, false])),
    ...(rest.form ?? []).map((field): [Given, Strings, Strings, boolean] => [{ overrides: {} }, {}, { [field]: poisons[0] }, false]),
  ];
}

async function send(rest: RestCase, given: Given, query: Strings, form: Strings, token: string | undefined) {
  const body = given.overrides ? { ...rest.valid?.(), ...given.overrides } : given.body;
  const search = queryString(query);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: FormData | string | undefined;
  if (rest.form) {
    payload = new FormData();
    for (const [name, value] of Object.entries({ ...rest.valid?.(), ...form })) payload.append(name, String(value ?? ''));
  } else if (rest.body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const path = rest.path.replace(':member', member.id).replace(':id', randomUUID());
  const response = await fetch(`${platform.restUrl}${path}${search ? `?${search}` : ''}`, { method: rest.method, headers, body: payload });
  return { status: response.status, text: await response.text() };
}

describe('hostile input never answers 5xx', () => {
  it.each(REST_CASES.map((rest) => [`${rest.method} ${rest.path}`, rest] as const))('REST %s', async (_label, rest) => {
    await fc.assert(
      fc.asyncProperty(
        bodyOf(rest.body ?? []),
        fieldsOf(rest.query ?? [], hostileString),
        fieldsOf(rest.form ?? [], hostileString),
        fc.boolean(),
        async (body, query, form, anonymous) => {
          const answer = await send(rest, body, query, form, anonymous && rest.public ? undefined : admin.token);
          expect({ status: answer.status < 500 ? 'below 500' : answer.status, body: answer.status < 500 ? '' : answer.text }).toEqual({ status: 'below 500', body: '' });
        },
      ),
      { seed: SEED, numRuns: RUNS, examples: examplesOf(rest) },
    );
  });

  /** Operations of several domains, each with the variables a client chooses. */
  const OPERATIONS: Array<{ query: string; variables: string[] }> = [
    { query: 'query ($search: String, $page: Int, $limit: Int) { members(search: $search, page: $page, limit: $limit) { meta { total } } }', variables: ['search', 'page', 'limit'] },
    { query: 'mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { member { id } } }', variables: ['input'] },
    { query: 'mutation ($id: ID!, $quantity: Int) { claimRewardCatalog(id: $id, quantity: $quantity) { quantity } }', variables: ['id', 'quantity'] },
    { query: 'query ($year: Int) { tierYearlySummary(year: $year) { year upgrades } }', variables: ['year'] },
    { query: 'query ($id: ID!) { purchase(id: $id) { id } }', variables: ['id'] },
    { query: 'mutation ($input: CreateInAppNotificationInput!) { createInAppNotification(input: $input) { id } }', variables: ['input'] },
    { query: 'query ($campaignId: ID!) { campaignParticipants(campaignId: $campaignId) { data { campaign { name participantCount } } } }', variables: ['campaignId'] },
    { query: 'mutation ($input: PointAwardInput!, $idempotencyKey: String) { awardPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }', variables: ['input', 'idempotencyKey'] },
  ];
  const variablesOf = (names: string[]) => fc.oneof({ weight: 4, arbitrary: fc.record(Object.fromEntries(names.map((name) => [name, hostileValue])), { requiredKeys: [] }) }, { weight: 1, arbitrary: hostileValue });

  const INTERNAL = ['INTERNAL', 'INTERNAL_SERVER_ERROR'];
  async function graphql(body: unknown) {
    const response = await fetch(platform.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` }, body: JSON.stringify(body) });
    const text = await response.text();
    const codes = (() => {
      try {
        return ((JSON.parse(text).errors ?? []) as Array<{ extensions?: { code?: string } }>).map((error) => error.extensions?.code);
      } catch {
        return [];
      }
    })();
    return { status: response.status, internal: codes.some((code) => INTERNAL.includes(code ?? '')), text };
  }

  it('GraphQL operations with hostile variables', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(OPERATIONS.length - 1).chain((index) => fc.tuple(fc.constant(OPERATIONS[index]), variablesOf(OPERATIONS[index].variables))),
        async ([operation, variables]) => {
          const answer = await graphql({ query: operation.query, variables });
          expect({ status: answer.status < 500, internal: answer.internal, text: answer.status < 500 && !answer.internal ? '' : answer.text }).toEqual({ status: true, internal: false, text: '' });
        },
      ),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });

  it('GraphQL requests of hostile shape: literals, operation names, several operations, subscriptions', async () => {
    const documents = fc.oneof(
      hostileString.map((text) => `{ members(search: ${JSON.stringify(text)}) { meta { total } } }`),
      hostileString.map((text) => `mutation { staffLogin(input: {email: ${JSON.stringify(text)}, password: "x"}) { accessToken } }`),
      fc.constantFrom(
        'query A { health { ok } } query B { health { ok } }',
        '{ health { ok } } { health { ok } }',
        'subscription { myNotificationEvents { type } }',
        '{ tierYearlySummary(year: null) { year } }',
        '{ purchase(id: "x") { id } }',
        'query ($q: Int) { myApiKeys(page: $q) { meta { total } } }',
      ),
    );
    await fc.assert(
      fc.asyncProperty(documents, fc.oneof(fc.constant(undefined), hostileString, hostileNumber), fc.oneof(fc.constant(undefined), hostileValue), async (query, operationName, variables) => {
        const answer = await graphql({ query, operationName, variables });
        expect({ status: answer.status < 500, internal: answer.internal, text: answer.status < 500 && !answer.internal ? '' : answer.text }).toEqual({ status: true, internal: false, text: '' });
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });
});
