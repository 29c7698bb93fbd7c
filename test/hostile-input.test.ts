import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

/** Issue 24, items 7 and 9: what a hostile or careless client sends is a 4xx naming what is wrong, never a 5xx. */
const { platform, admin, marketing, members } = usePlatform({ staff: ['admin', 'marketing'], members: 2 });
const [alice, bob] = [0, 1].map((index) => ({ get id() { return members[index].id; }, get token() { return members[index].token; } }));

/** A REST call, as admin unless another token (or `null`: none) is given. */
const api = (method: string, path: string, body?: unknown, token: string | null = admin.token) => platform.api(method, path, { token: token ?? undefined, body });
const v1Fields = (body: { error: { details?: Array<{ field: string }> } }) => (body.error.details ?? []).map((detail) => detail.field).sort();
const fieldsOf = (body: { data: { errors?: Array<{ field: string }> } }) => (body.data.errors ?? []).map((error) => error.field).sort();
const codesOf = (body: { errors?: Array<{ extensions?: { code?: string } }> }) => (body.errors ?? []).map((error) => error.extensions?.code);
const graphqlFields = (body: { errors?: Array<{ extensions?: { errors?: Array<{ field: string }> } }> }) => (body.errors ?? []).flatMap((error) => error.extensions?.errors ?? []).map((error) => error.field).sort();
const memberRow = async (id: string) => (await platform.sql.query('select name, email, phone_number, address, updated_at from auth.member where id = $1', [id])).rows[0];
const membersNamed = async (name: string) => Number((await platform.sql.query('select count(*) from auth.member where name = $1', [name])).rows[0].count);

/** A multipart form as the admin UI sends one. */
async function sendForm(method: string, path: string, fields: Record<string, string | string[]>, token = marketing.token) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) form.append(name, item);
  const response = await fetch(`${platform.restUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

/** A JSON body as it is written (for what JSON.stringify would not write, such as a `__proto__` key). */
async function sendRaw(method: string, path: string, json: string, token = admin.token) {
  const response = await fetch(`${platform.restUrl}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: json });
  return { status: response.status, body: (await response.json()) as any };
}

/** A GraphQL request to the gateway as admin; a string body goes as it is written. */
async function gateway(body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(platform.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}`, ...headers }, body: text });
  return { status: response.status, body: (await response.json()) as any };
}

describe('one 400 names every bad field (item 7)', () => {
  it('POST /api/v1/customers: a type error (address.postal_code as an array) and the rules of the other fields, together', async () => {
    const name = unique('Nobody ');
    const response = await api('POST', '/api/v1/customers', { name: '', email: 'not-an-address', phone: 5, address: { postal_code: ['10110'], street: '1 Road' }, language: 'not a tag!' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(v1Fields(response.body)).toEqual(['address.postal_code', 'email', 'language', 'name', 'phone']);
    const again = await api('POST', '/api/v1/customers', { name, email: `${unique('c')}@example.com`, address: { postal_code: ['10110'] } });
    expect([again.status, v1Fields(again.body)]).toEqual([400, ['address.postal_code']]);
    expect(await membersNamed(name)).toBe(0);
  });

  it('PATCH /api/v1/customers/{id}: the same, and the customer is left as it was', async () => {
    const before = await memberRow(alice.id);
    const response = await api('PATCH', `/api/v1/customers/${alice.id}`, { name: 'Changed', email: 'nope', address: { postal_code: { code: 1 } }, date_of_birth: '1990-02-30' });
    expect(response.status).toBe(400);
    expect(v1Fields(response.body)).toEqual(['address.postal_code', 'date_of_birth', 'email']);
    expect(await memberRow(alice.id)).toEqual(before);
  });

  it('a Part 2 route too: an enum type error beside the rules of the other fields', async () => {
    const response = await api('POST', '/notification/api/in-apps', { memberId: 'not-a-uuid', title_en: 'x'.repeat(300), format: 'markdown' });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['format', 'memberId', 'title_en']);
  });

  it('the check of the rest runs nothing: a GraphQL client asking X-Validate-Only of a valid mutation creates nothing', async () => {
    const name = unique('Checked ');
    const create = 'mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { member { id } } }';
    const checked = await gateway({ query: create, variables: { input: { name, email: `${unique('c')}@example.com` } } }, { 'x-validate-only': 'true' });
    expect(checked.body.data).toBeNull();
    expect(checked.body.errors).toEqual([expect.objectContaining({ message: 'The arguments passed their checks; nothing was run (validate only)', extensions: expect.objectContaining({ code: 'VALIDATION' }) })]);
    expect(await membersNamed(name)).toBe(0);
    const refused = await gateway({ query: create, variables: { input: { name: '', email: 'nope' } } }, { 'x-validate-only': 'true' });
    expect(graphqlFields(refused.body)).toEqual(['email', 'name']);
  });
});

describe('JSON bodies and multipart fields keep their structure (item 7)', () => {
  it('a JSON body\'s list given as a string is 400 naming it (template variables "a,b" are not split)', async () => {
    const name = unique('template');
    const split = await api('POST', '/api/v1/notifications/templates', { name, title: 'Hi {{a}}', body: 'B {{b}}', channel: 'in_app', variables: 'a,b' });
    expect(split.status).toBe(400);
    expect(split.body.error.details).toEqual([{ field: 'variables', message: 'variables must be a list (a JSON array)' }]);
    const listed = await api('POST', '/api/v1/notifications/templates', { name, title: 'Hi {{a}}', body: 'B {{b}}', channel: 'in_app', variables: ['a', 'b'] });
    expect(listed.status).toBe(201);
    expect(listed.body.data.variables).toEqual(['a', 'b']);
  });

  it('a multipart field that should hold JSON and does not (storeIds) is 400 on create and update', async () => {
    const fields = { name_en: unique('Reward '), description_en: 'd', type: 'POINT' };
    for (const storeIds of ['store-a', 'null', '{"a":1}', '[store-a']) {
      const created = await sendForm('POST', '/reward/api/rewards', { ...fields, storeIds });
      expect([storeIds, created.status, fieldsOf(created.body)]).toEqual([storeIds, 400, ['storeIds']]);
    }
    const reward = await sendForm('POST', '/reward/api/rewards', { ...fields, storeIds: '["store-a"]' });
    expect(reward.status).toBe(200);
    const updated = await sendForm('PUT', `/reward/api/rewards/${reward.body.data.id}`, { storeIds: 'null' });
    expect([updated.status, fieldsOf(updated.body)]).toEqual([400, ['storeIds']]);
    const repeated = await sendForm('PUT', `/reward/api/rewards/${reward.body.data.id}`, { storeIds: ['store-b', 'store-c'] });
    expect([repeated.status, repeated.body.data.storeIds]).toEqual([200, ['store-b', 'store-c']]);
  });

  it('stores every store id as it was sent, NULL and spaces included, and reads the reward back', async () => {
    const reward = await sendForm('POST', '/reward/api/rewards', { name_en: unique('Reward '), description_en: 'd', type: 'POINT', storeIds: '["NULL", " a ", "b\\\\c", "{d}"]' });
    expect(reward.status).toBe(200);
    const read = await api('GET', `/reward/api/rewards/${reward.body.data.id}`);
    expect([read.status, read.body.data.storeIds]).toEqual([200, ['NULL', ' a ', 'b\\c', '{d}']]);
  });

  it('a top-level JSON array where an object goes is 400, and changes nothing', async () => {
    const before = await memberRow(bob.id);
    const patched = await api('PATCH', `/api/v1/customers/${bob.id}`, [null, null]);
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([{ field: 'body', message: 'the body must be a JSON object' }]);
    expect(await memberRow(bob.id)).toEqual(before);
    const put = await api('PUT', `/auth/api/members/${bob.id}`, [{ name: 'x' }]);
    expect([put.status, fieldsOf(put.body)]).toEqual([400, ['body']]);
  });

  it('a body or GraphQL variable nested past 32 levels is 400', async () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const award = await sendRaw('POST', `/api/v1/customers/${alice.id}/points/award`, `{"points":1,"reason":"r","metadata":${deep(5000)}}`);
    expect([award.status, v1Fields(award.body)]).toEqual([400, ['body']]);
    const shallow = await sendRaw('POST', `/api/v1/customers/${alice.id}/points/award`, `{"points":1,"reason":"r","metadata":${deep(30)}}`);
    expect(shallow.status).toBe(200);
    const query = JSON.stringify(`mutation ($m: JSONObject) { awardPoints(input: {memberId: "${alice.id}", points: 1, metadata: $m}) { id } }`);
    const graphql = await gateway(`{"query":${query},"variables":{"m":${deep(5000)}}}`);
    expect([graphql.status, codesOf(graphql.body), graphqlFields(graphql.body)]).toEqual([400, ['BAD_USER_INPUT'], ['m']]);
  });
});

describe('POST /notification/api/in-apps without a valid token (item 7)', () => {
  it('answers 401 with a message naming the token: missing, or invalid', async () => {
    const missing = await api('POST', '/notification/api/in-apps', { memberId: alice.id }, null);
    expect(missing).toMatchObject({ status: 401, body: { statusCode: 401, data: { message: 'Unauthorized: missing token (Authorization: Bearer <access token>)' } } });
    const invalid = await api('POST', '/notification/api/in-apps', { memberId: alice.id }, 'not-a-token');
    expect(invalid).toMatchObject({ status: 401, body: { statusCode: 401, data: { message: 'Unauthorized: invalid or expired token' } } });
  });
});

describe('text PostgreSQL cannot store (item 9)', () => {
  it('refuses an unpaired surrogate or a NUL on the public staff endpoints with 400 on email', async () => {
    for (const email of ['\ud800@example.com', `${admin.email}\u0000`]) {
      const login = await api('POST', '/auth/api/staffs/login', { email, password: 'x' }, null);
      expect([login.status, fieldsOf(login.body)]).toEqual([400, ['email']]);
      const reset = await api('POST', '/auth/api/staffs/request-reset-password-by-email', { email }, null);
      expect([reset.status, fieldsOf(reset.body)]).toEqual([400, ['email']]);
    }
  });

  it('names the field in a query string, a JSON body, a multipart field and an object key', async () => {
    const search = await api('GET', '/auth/api/members?search=a%00b');
    expect([search.status, search.body.data.errors]).toEqual([400, [{ field: 'search', message: 'search must not contain the NUL character (U+0000)' }]]);
    const name = unique('Surrogate ');
    const customer = await api('POST', '/api/v1/customers', { name: `${name}\ud800`, email: `${unique('c')}@example.com`, address: { city: 'a\u0000' } });
    expect([customer.status, v1Fields(customer.body)]).toEqual([400, ['address.city', 'name']]);
    expect(customer.body.error.details).toContainEqual({ field: 'name', message: 'name must be well-formed Unicode (it holds an unpaired surrogate, such as \\ud800)' });
    const award = await api('POST', `/api/v1/customers/${alice.id}/points/award`, { points: 1, reason: 'r\u0000', metadata: { ['k\ud800']: 1, list: ['ok', 'x\u0000'] } });
    expect([award.status, v1Fields(award.body)]).toEqual([400, ['metadata', 'metadata.list[1]', 'reason']]);
    const form = await sendForm('POST', '/reward/api/rewards', { name_en: 'a\u0000b', description_en: 'd', type: 'POINT' });
    expect([form.status, fieldsOf(form.body)]).toEqual([400, ['name_en']]);
  });

  it('refuses them in GraphQL variables and inline literals with a VALIDATION error naming the argument', async () => {
    const query = 'query ($search: String) { members(search: $search) { meta { total } } }';
    const variable = await gateway({ query, variables: { search: 'a\u0000' } });
    expect([codesOf(variable.body), graphqlFields(variable.body)]).toEqual([['VALIDATION'], ['search']]);
    const literal = await gateway({ query: '{ members(search: "\\u0000") { meta { total } } }' });
    expect([codesOf(literal.body), graphqlFields(literal.body)]).toEqual([['VALIDATION'], ['search']]);
    const login = await gateway({ query: 'mutation ($email: String!) { staffLogin(input: {email: $email, password: "x"}) { accessToken } }', variables: { email: '\ud800@example.com' } });
    expect([codesOf(login.body), graphqlFields(login.body)]).toEqual([['VALIDATION'], ['email']]);
  });
});

describe('explicit null where a default is declared (item 9)', () => {
  it('refuses quantity: null on claim and redeem with 400 on quantity (leave it out for 1)', async () => {
    for (const path of ['rewards/claim', 'points/redeem']) {
      const response = await api('POST', `/api/v1/customers/${alice.id}/${path}`, { reward_id: randomUUID(), quantity: null });
      expect([path, response.status, response.body.error.code, v1Fields(response.body)]).toEqual([path, 400, 'VALIDATION_ERROR', ['quantity']]);
    }
  });

  it('refuses a null variable where a non-null argument has a default with 400 BAD_USER_INPUT naming it', async () => {
    const response = await gateway({ query: 'mutation ($q: Int) { claimRewardCatalog(id: "x", quantity: $q) { quantity } }', variables: { q: null } });
    expect([response.status, codesOf(response.body), graphqlFields(response.body)]).toEqual([400, ['BAD_USER_INPUT'], ['q']]);
    const absent = await gateway({ query: 'query ($page: Int) { myApiKeys(page: $page) { meta { page } } }', variables: {} });
    expect(absent.body).toEqual({ data: { myApiKeys: { meta: { page: 1 } } } });
  });

  it('takes a null where a service had a default parameter as absent: tierYearlySummary(year: null), reset by e-mail with locale null', async () => {
    const summary = await gateway({ query: '{ tierYearlySummary(year: null) { year } }' });
    expect(summary.body).toEqual({ data: { tierYearlySummary: { year: new Date().getUTCFullYear() } } });
    const staff = await platform.createStaff('tenant');
    const mails = platform.smtp.mails.length;
    const reset = await api('POST', '/auth/api/staffs/request-reset-password-by-email', { email: staff.email, locale: null }, null);
    expect(reset.status).toBe(200);
    expect(platform.smtp.mails.length).toBe(mails + 1);
    expect(platform.smtp.mails.at(-1)!.to).toEqual([staff.email]);
  });
});

describe('prototype keys (item 9)', () => {
  it('reads a __proto__ or constructor key of notification metadata as an unknown field: 400, not "rule is not a function"', async () => {
    const proto = await sendRaw('POST', '/notification/api/in-apps', `{"memberId":"${alice.id}","type":"news","metadata":{"__proto__":1}}`);
    expect([proto.status, proto.body.data.errors]).toEqual([400, [{ field: 'metadata.__proto__', message: 'metadata.__proto__ is not a field of news notifications' }]]);
    const nested = await sendRaw('POST', '/notification/api/in-apps', `{"memberId":"${alice.id}","type":"badge","metadata":{"badgeRule":{"__proto__":{"x":1},"constructor":2}}}`);
    expect([nested.status, fieldsOf(nested.body)]).toEqual([400, ['metadata.badgeRule']]);
  });
});

describe('fields that failed when reached another way (item 9)', () => {
  it('answers a campaign\'s figures through its participants and through a join, not only through the campaign', async () => {
    const campaign = await api('POST', '/api/v1/campaigns', { name: unique('Campaign '), type: 'promotion', start_date: new Date(Date.now() - 86_400_000).toISOString(), end_date: new Date(Date.now() + 5 * 86_400_000).toISOString(), rules: { per_customer_limit: 1 } }, marketing.token);
    const id = campaign.body.data.id;
    expect((await api('POST', `/api/v1/campaigns/${id}/activate`, {}, marketing.token)).status).toBe(200);
    const join = 'mutation ($id: ID!, $customer: ID) { joinCampaign(campaignId: $id, customerId: $customer) { campaign { id participantCount conversionRate } } }';
    const joined = await gateway({ query: join, variables: { id, customer: alice.id } }, { authorization: `Bearer ${marketing.token}` });
    expect(joined.body).toEqual({ data: { joinCampaign: { campaign: { id, participantCount: 1, conversionRate: 0 } } } });
    await gateway({ query: join, variables: { id, customer: bob.id } }, { authorization: `Bearer ${marketing.token}` });
    const listed = await gateway({ query: `{ campaignParticipants(campaignId: "${id}") { data { campaign { id name participantCount conversionRate } } } }` });
    expect(listed.body).toEqual({ data: { campaignParticipants: { data: [1, 2].map(() => ({ campaign: { id, name: campaign.body.data.name, participantCount: 2, conversionRate: 0 } })) } } });
    const read = await api('GET', `/api/v1/campaigns/${id}`);
    expect(read.body.data).toMatchObject({ participant_count: 2, conversion_rate: 0 });
  });

  it('answers purchase(id: "x") as a bad id (400 on id; 404 on the v1 path), not a uuid cast error', async () => {
    const purchase = await gateway({ query: '{ purchase(id: "x") { id } }' });
    expect([codesOf(purchase.body), graphqlFields(purchase.body)]).toEqual([['VALIDATION'], ['id']]);
    const v1 = await api('GET', '/api/v1/transactions/x');
    expect([v1.status, v1.body.error.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
  });
});

describe('the gateway answers a caller\'s own mistakes with 400 and a GraphQL code (item 9)', () => {
  it('an unknown operationName, several operations without a name, a subscription over HTTP', async () => {
    const unknown = await gateway({ query: 'query A { health { ok } }', operationName: 'B' });
    expect([unknown.status, codesOf(unknown.body), unknown.body.errors[0].message]).toEqual([400, ['OPERATION_RESOLUTION_FAILURE'], 'Unknown operation named "B".']);
    const unnamed = await gateway({ query: 'query A { health { ok } } query B { health { ok } }' });
    expect([unnamed.status, codesOf(unnamed.body)]).toEqual([400, ['OPERATION_RESOLUTION_FAILURE']]);
    const named = await gateway({ query: 'query A { health { ok } } query B { health { ok } }', operationName: 'B' });
    expect(named.body).toEqual({ data: { health: { ok: true } } });
    const subscription = await gateway({ query: 'subscription { myNotificationEvents { type } }' });
    expect([subscription.status, codesOf(subscription.body)]).toEqual([400, ['BAD_REQUEST']]);
  });
});
