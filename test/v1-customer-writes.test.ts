import { randomUUID } from 'node:crypto';
import { PublicEventLookup } from '../core/rest/surface';
import { platformSurface } from '../subgraphs/registry';
import { CHATAPP_APP_ID } from './support/fake-chatapp';
import { unique } from './support/test-platform';
import { announceTiers } from './support/tier-catalog';
import { useModuleJobs } from './support/module-jobs';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';
import { clusterModule } from '../subgraphs/cluster/module';
import { expireMemberTier } from '../subgraphs/cluster/services/tiering.service';

const BASE = '/api/v1/customers';
const V1_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

// A database of its own: new customers start in the lowest active tier, so the tiers are exactly these.
const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 2 });
const clusterJobs = useModuleJobs(clusterModule);
const tiers = {
  vip: { id: randomUUID(), name: 'VIP', level: 0, active: true, special: true },
  old: { id: randomUUID(), name: 'Old', level: 1, active: false, special: false },
  bronze: { id: randomUUID(), name: 'Bronze', level: 2, active: true, special: false },
  silver: { id: randomUUID(), name: 'Silver', level: 3, active: true, special: false },
  gold: { id: randomUUID(), name: 'Gold', level: 4, active: true, special: false },
};

beforeAll(async () => {
  for (const tier of Object.values(tiers)) {
    await platform.sql.query(
      `insert into cluster.tier (id, name_en, name_th, description_en, level, requirement, is_active, is_special, created_at, updated_at)
       values ($1, $2, $3, 'fixture', $4, '{}', $5, $6, now(), now())`,
      [tier.id, tier.name, `${tier.name} th`, tier.level, tier.active, tier.special],
    );
  }
  await announceTiers(platform.sql, Object.values(tiers).map((tier) => tier.id));
});

type Body = Record<string, unknown>;
const call = (method: string, path: string, body?: unknown, token: string | null = admin.token) => platform.api(method, path, { token: token ?? undefined, body });
const create = (body: Body, token: string | null = admin.token) => call('POST', BASE, body, token);
/** The fields a 400 names (a field failing several rules is named once per rule). */
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();

/** Creates a customer through the API and answers its data. */
async function newCustomer(body: Body = {}): Promise<Record<string, any>> {
  const response = await create({ name: unique('Customer '), ...body });
  if (response.status !== 200) throw new Error(`customer creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

async function eventsOf(schema: 'auth' | 'cluster', type: string, memberId: string): Promise<Array<Record<string, any>>> {
  const rows = await platform.sql.query(`select payload from ${schema}.outbox_event where type = $1 and aggregate_id = $2 order by sequence`, [type, memberId]);
  return rows.rows.map((row) => row.payload);
}

/** The public events of every domain's surface, by internal type; their lookups run on the gateway (the entry tier is public). */
const PUBLIC_EVENTS = Object.fromEntries(platformSurface().publicEvents.map((event) => [event.internal, event]));
const gatewayLookup: PublicEventLookup = async <T,>(query: string, variables?: Record<string, unknown>) => (await platform.graphql(query, variables)).body.data as T;

/** Auth's customer events of a member as Part 3 shows them (what a webhook receives as `data`). */
async function publicEventsOf(type: string, memberId: string): Promise<Array<Record<string, any>>> {
  return Promise.all((await eventsOf('auth', type, memberId)).map((payload) => PUBLIC_EVENTS[type].data(payload, gatewayLookup)));
}

/**
 * The customer's tier name once the cluster has placed it (customer.created is applied asynchronously; reads
 * show the promised tier before, so the cluster's own projection tells).
 */
async function placedTier(id: string): Promise<string> {
  await waitFor(async () => (await platform.sql.query('select 1 from cluster.tier_projection where member_id = $1', [id])).rowCount === 1, `the placement of customer ${id}`);
  return (await call('GET', `${BASE}/${id}`)).body.data.tier;
}

describe('POST /api/v1/customers', () => {
  it('creates an active customer with every v1 field, in the lowest active tier, and announces customer.created', async () => {
    const response = await create({
      name: 'Dana Diaz',
      email: 'Dana.Diaz@Example.com',
      phone: '+66 81 234 5678',
      date_of_birth: '1991-02-03',
      gender: 'female',
      address: { street: '9 Sukhumvit Road', city: 'Bangkok', postal_code: '10110' },
      language: 'th-th',
    });
    expect(response.status).toBe(200);
    const customer = response.body.data;
    expect(customer).toEqual({
      id: expect.any(String),
      name: 'Dana Diaz',
      email: 'Dana.Diaz@Example.com',
      phone: '+66 81 234 5678',
      date_of_birth: '1991-02-03',
      gender: 'female',
      address: { street: '9 Sukhumvit Road', city: 'Bangkok', postal_code: '10110' },
      language: 'th-TH',
      tier: 'Bronze',
      points_balance: 0,
      status: 'active',
      chatapp: { openid: null, unionid: null, nickname: null, avatar: null },
      created_at: expect.stringMatching(V1_TIMESTAMP),
      updated_at: expect.stringMatching(V1_TIMESTAMP),
    });
    // The cluster places the customer in that tier on receiving customer.created.
    expect(await placedTier(customer.id)).toBe('Bronze');
    const read = await call('GET', `${BASE}/${customer.id}?include=tier`);
    expect(read.body.data).toEqual({ ...customer, tier: { id: tiers.bronze.id, name: 'Bronze', level: 2 }, updated_at: expect.stringMatching(V1_TIMESTAMP) });

    expect(await publicEventsOf('customer.created', customer.id)).toEqual([
      { customer: { id: customer.id, name: 'Dana Diaz', email: 'Dana.Diaz@Example.com', phone: '+66 81 234 5678', tier: 'Bronze', points_balance: 0, created_at: expect.any(String) } },
    ]);
    const [placed] = await eventsOf('cluster', 'customer.tier_changed', customer.id);
    expect(placed).toMatchObject({ customer_id: customer.id, from_tier: null, to_tier: { id: tiers.bronze.id, name: 'Bronze', level: 2 }, reason: null, source: 'assign' });
  });

  it('reads its own write: a customer read right after its creation is in the entry tier, every time, and on the tier filter', async () => {
    const bronze = { id: tiers.bronze.id, name: 'Bronze', level: 2 };
    for (let round = 0; round < 15; round++) {
      const created = await create({ name: unique('Instant ') });
      expect(created.status).toBe(200);
      expect(created.body.data.tier).toBe('Bronze');
      const { id } = created.body.data;
      const [included, plain, listed] = await Promise.all([
        call('GET', `${BASE}/${id}?include=tier`),
        call('GET', `${BASE}/${id}`),
        call('GET', `${BASE}?filter[tier]=${tiers.bronze.id}&search=${encodeURIComponent(created.body.data.name)}`),
      ]);
      expect([round, included.body.data.tier, plain.body.data.tier, listed.body.data.map((item: { id: string }) => item.id)]).toEqual([round, bronze, 'Bronze', [id]]);
    }
  });

  it('shows the promised tier only until the cluster has placed the customer: a tier ended since is not shown again', async () => {
    const customer = await newCustomer();
    expect(await placedTier(customer.id)).toBe('Bronze');
    // The tier ends with nothing below it (the expiry job): the member has no tier any more.
    await platform.sql.query(`update cluster.tier_projection set tier_end_at = now() - interval '1 second' where member_id = $1`, [customer.id]);
    expect(await clusterJobs.em().transactional((em) => expireMemberTier(em, customer.id))).toBe(true);
    const authTier = () => platform.sql.query('select tier_id from auth.member_tier where member_id = $1', [customer.id]);
    await waitFor(async () => (await authTier()).rowCount === 0, "auth's projection to follow the expiry");
    expect((await call('GET', `${BASE}/${customer.id}?include=tier`)).body.data.tier).toBeNull();
    // Auth's projection lagging behind (as it may, for a moment): the ended tier is still not shown again.
    await platform.sql.query('insert into auth.member_tier (member_id, tier_id, changed_at) values ($1, $2, now())', [customer.id, tiers.bronze.id]);
    expect((await call('GET', `${BASE}/${customer.id}?include=tier`)).body.data.tier).toBeNull();
  });

  it('is described as answering 200 (Part 3), not 201, in the OpenAPI document', async () => {
    const responses = Object.keys((await platform.api('GET', '/api/v1/openapi.json')).body.paths['/api/v1/customers'].post.responses);
    expect([responses.includes('200'), responses.includes('201')]).toEqual([true, false]);
  });

  it('needs only a name, and names every bad field at once', async () => {
    const minimal = await create({ name: 'Eve' });
    expect(minimal.status).toBe(200);
    expect(minimal.body.data).toMatchObject({ name: 'Eve', email: null, phone: null, address: null, language: null, tier: 'Bronze', points_balance: 0 });

    const bad = await create({
      email: 'not-an-email',
      phone: 'call me',
      date_of_birth: '1991-02-30',
      gender: 'robot',
      address: { street: 'x', postal_code: '!!' },
      language: 'not a locale',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(bad.body)).toEqual(['address.postal_code', 'date_of_birth', 'email', 'gender', 'language', 'name', 'phone']);
  });

  it('refuses an e-mail another customer has, whatever its case: 409 DUPLICATE on email', async () => {
    const email = `${unique('dup')}@example.com`;
    await newCustomer({ email });
    const found = await call('GET', `${BASE}?search=${encodeURIComponent(email.slice(0, 8).toUpperCase())}`);
    expect(found.body.data.map((item: { email: string }) => item.email)).toEqual([email]);
    const again = await create({ name: 'Copy', email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: { code: 'DUPLICATE', message: expect.any(String), details: [{ field: 'email', message: expect.any(String) }] } });
  });

  it('lets one of two simultaneous creations with the same e-mail through, the other 409 DUPLICATE', async () => {
    const email = `${unique('race')}@example.com`;
    const answers = await Promise.all([create({ name: 'First', email }), create({ name: 'Second', email: email.toUpperCase() })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('DUPLICATE');
  });

  it('links the chat-app identity of chatapp.code at creation; a refused code is 400 on chatapp.code, a linked one 409', async () => {
    const code = unique('create');
    const linked = await newCustomer({ chatapp: { code } });
    expect(linked.chatapp).toEqual({ openid: `openid-${code}`, unionid: `union-${code}`, nickname: null, avatar: null });

    const refused = await create({ name: 'Refused', chatapp: { code: 'bad-code' } });
    expect(refused.status).toBe(400);
    expect(detailFields(refused.body)).toEqual(['chatapp.code']);

    const taken = await create({ name: 'Taken', chatapp: { code } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('DUPLICATE');
    expect(detailFields(taken.body)).toEqual(['chatapp.code']);
  });

  it('needs write: a tenant (read only) and a customer token are 403', async () => {
    for (const token of [tenant.token, members[0].token]) {
      const refused = await create({ name: 'Nope' }, token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
    }
    expect((await create({ name: 'Marketing made' }, marketing.token)).status).toBe(200);
  });

  it('takes an API key created with write, and refuses one with read only', async () => {
    const roleId = await platform.roleId('admin');
    const key = async (scopes: string[]) => {
      const generated = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId, scopes } });
      expect(generated.status).toBe(201);
      return generated.body.data.apiKey as string;
    };
    const writer = await platform.api('POST', BASE, { headers: { 'x-api-key': await key(['read', 'write']) }, body: { name: 'Partner made' } });
    expect(writer.status).toBe(200);
    expect(writer.body.data.tier).toBe('Bronze');
    const reader = await platform.api('POST', BASE, { headers: { 'x-api-key': await key(['read']) }, body: { name: 'Nope' } });
    expect(reader.status).toBe(403);
    expect(reader.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write"');
  });
});

describe('PATCH /api/v1/customers/{id}', () => {
  it('changes only the given fields, clears a field given null, and announces customer.updated with what changed', async () => {
    const customer = await newCustomer({ email: `${unique('p')}@example.com`, phone: '0800000000', address: { street: '1 Road', city: 'Chiang Mai', postal_code: '50000' } });
    const response = await call('PATCH', `${BASE}/${customer.id}`, { phone: null, language: 'en', address: { postal_code: '50200' } });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: customer.id,
      name: customer.name,
      email: customer.email,
      phone: null,
      language: 'en',
      address: { street: '1 Road', city: 'Chiang Mai', postal_code: '50200' },
    });
    const [updated] = await publicEventsOf('customer.updated', customer.id);
    expect(updated.changed.sort()).toEqual(['address', 'language', 'phone']);
    expect(updated.customer).toMatchObject({ id: customer.id, phone: null, language: 'en', address: { street: '1 Road', city: 'Chiang Mai', postal_code: '50200' }, status: 'active' });
    // Nothing changed, nothing announced.
    expect((await call('PATCH', `${BASE}/${customer.id}`, { language: 'en' })).status).toBe(200);
    expect(await eventsOf('auth', 'customer.updated', customer.id)).toHaveLength(1);
  });

  it('lets a customer token change its own profile only', async () => {
    const [own, other] = members;
    const mine = await call('PATCH', `${BASE}/${own.id}`, { name: 'Self Made', gender: 'other', date_of_birth: '2000-01-31' }, own.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ id: own.id, name: 'Self Made', gender: 'other', date_of_birth: '2000-01-31' });
    const refused = await call('PATCH', `${BASE}/${other.id}`, { name: 'Hijack' }, own.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
  });

  it("does not tell a customer that the e-mail it asks for is someone else's: a 400 on email saying nothing of whose it is", async () => {
    const email = `${unique('owned')}@example.com`;
    await newCustomer({ email });
    const self = await platform.loginMember();
    const own = `${unique('mine')}@example.com`;
    expect((await call('PATCH', `${BASE}/${self.id}`, { email: own }, self.token)).status).toBe(200);
    const refused = await call('PATCH', `${BASE}/${self.id}`, { email: email.toUpperCase(), name: 'Prober' }, self.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: [{ field: 'email', message: expect.any(String) }] } });
    expect(JSON.stringify(refused.body)).not.toMatch(/another|in use|already|exists|taken|belongs|duplicate|customer/i);
    // Nothing changed; staff (member:manage) are still told 409 DUPLICATE.
    const after = (await call('GET', `${BASE}/${self.id}`)).body.data;
    expect([after.email, after.name === 'Prober']).toEqual([own, false]);
    const staff = await call('PATCH', `${BASE}/${self.id}`, { email });
    expect(staff.status).toBe(409);
    expect(staff.body.error.code).toBe('DUPLICATE');
  });

  it('answers 409 DUPLICATE for a taken e-mail, 400 naming bad fields, 404 CUSTOMER_NOT_FOUND for an unknown customer', async () => {
    const email = `${unique('taken')}@example.com`;
    await newCustomer({ email });
    const customer = await newCustomer();
    const duplicate = await call('PATCH', `${BASE}/${customer.id}`, { email: email.toUpperCase() });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('DUPLICATE');
    const bad = await call('PATCH', `${BASE}/${customer.id}`, { name: '', address: { postal_code: '#' } });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['address.postal_code', 'name']);
    for (const id of [randomUUID(), 'not-an-id']) {
      const missing = await call('PATCH', `${BASE}/${id}`, { name: 'Ghost' });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    }
  });

  it('announces customer.updated from the Part 1 member writes too', async () => {
    const member = await platform.loginMember();
    const created = await publicEventsOf('customer.created', member.id);
    expect(created).toEqual([{ customer: expect.objectContaining({ id: member.id, tier: null, points_balance: 0 }) }]);
    const direct = await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: admin.token, body: { name: 'Direct Name' } });
    expect(direct.status).toBe(200);
    const [updated] = await publicEventsOf('customer.updated', member.id);
    expect(updated).toMatchObject({ customer: { id: member.id, name: 'Direct Name' }, changed: ['name'] });
  });
});

describe('PATCH /api/v1/customers/{id}/tier', () => {
  it('moves the customer by tier name or by tier_id, keeping the reason in the tier history and the event', async () => {
    const customer = await newCustomer();
    await placedTier(customer.id);
    const byName = await call('PATCH', `${BASE}/${customer.id}/tier`, { tier: 'gold', reason: 'VIP guest' });
    expect(byName.status).toBe(200);
    expect(byName.body.data).toMatchObject({ id: customer.id, tier: { id: tiers.gold.id, name: 'Gold', level: 4 } });
    const byId = await call('PATCH', `${BASE}/${customer.id}/tier`, { tier_id: tiers.silver.id, reason: 'Back to silver' });
    expect(byId.status).toBe(200);
    expect(byId.body.data.tier).toEqual({ id: tiers.silver.id, name: 'Silver', level: 3 });
    expect((await call('GET', `${BASE}/${customer.id}`)).body.data.tier).toBe('Silver');

    const history = await platform.sql.query('select change_type, reason, from_tier_id, to_tier_id from cluster.tier_history where member_id = $1 order by created_at', [customer.id]);
    expect(history.rows).toEqual([
      { change_type: 'upgrade', reason: 'VIP guest', from_tier_id: tiers.bronze.id, to_tier_id: tiers.gold.id },
      { change_type: 'downgrade', reason: 'Back to silver', from_tier_id: tiers.gold.id, to_tier_id: tiers.silver.id },
    ]);
    const events = await eventsOf('cluster', 'customer.tier_changed', customer.id);
    expect(events.slice(1)).toEqual([
      expect.objectContaining({ customer_id: customer.id, from_tier: { id: tiers.bronze.id, name: 'Bronze', level: 2 }, to_tier: { id: tiers.gold.id, name: 'Gold', level: 4 }, reason: 'VIP guest', source: 'manual', changed_at: expect.any(String) }),
      expect.objectContaining({ from_tier: { id: tiers.gold.id, name: 'Gold', level: 4 }, to_tier: { id: tiers.silver.id, name: 'Silver', level: 3 }, reason: 'Back to silver', changeType: 'downgrade' }),
    ]);
    // The same tier again changes nothing.
    expect((await call('PATCH', `${BASE}/${customer.id}/tier`, { tier_id: tiers.silver.id, reason: 'again' })).status).toBe(200);
    expect(await eventsOf('cluster', 'customer.tier_changed', customer.id)).toHaveLength(3);
  });

  it('answers 404 TIER_NOT_FOUND for an unknown or inactive tier, 404 CUSTOMER_NOT_FOUND for an unknown customer, 400 without a tier or reason', async () => {
    const customer = await newCustomer();
    for (const body of [{ tier: 'Platinum', reason: 'x' }, { tier_id: randomUUID(), reason: 'x' }, { tier_id: 'nope', reason: 'x' }, { tier: 'Old', reason: 'x' }]) {
      const response = await call('PATCH', `${BASE}/${customer.id}/tier`, body);
      expect([body, response.status, response.body.error.code]).toEqual([body, 404, 'TIER_NOT_FOUND']);
    }
    for (const id of [randomUUID(), 'not-an-id']) {
      const unknown = await call('PATCH', `${BASE}/${id}/tier`, { tier: 'Gold', reason: 'x' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    }
    const neither = await call('PATCH', `${BASE}/${customer.id}/tier`, {});
    expect(neither.status).toBe(400);
    expect(detailFields(neither.body)).toEqual(['reason', 'tier', 'tier_id']);
    const both = await call('PATCH', `${BASE}/${customer.id}/tier`, { tier: 'Gold', tier_id: tiers.gold.id, reason: 'x' });
    expect(both.status).toBe(400);
  });

  it('is for staff with write: customer tokens and tenants are 403', async () => {
    const own = members[0];
    const refused = await call('PATCH', `${BASE}/${own.id}/tier`, { tier: 'Gold', reason: 'me' }, own.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
    expect((await call('PATCH', `${BASE}/${own.id}/tier`, { tier: 'Gold', reason: 'me' }, tenant.token)).status).toBe(403);
  });
});

describe('POST /api/v1/customers/{id}/chatapp/link', () => {
  it('links the identity of a code to the customer; the same identity again changes nothing', async () => {
    const customer = await newCustomer();
    const code = unique('link');
    const linked = await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code, app_id: CHATAPP_APP_ID });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({ id: customer.id, chatapp: { openid: `openid-${code}`, unionid: `union-${code}`, nickname: null, avatar: null } });
    expect((await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code })).status).toBe(200);
    // The linked identity now logs in as this customer.
    const login = await call('POST', '/api/v1/auth/chatapp/login', { code, app_id: CHATAPP_APP_ID }, null);
    expect(login.body.data.user.id).toBe(customer.id);

    const other = await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code: unique('other') });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('INVALID_STATE');
  });

  it("refuses another member's identity (409 DUPLICATE), another app id (400 on app_id) and a refused code (401 INVALID_CODE)", async () => {
    const customer = await newCustomer();
    const owner = await platform.loginMember(unique('owned'));
    const ownerCode = (await platform.sql.query('select open_id from auth.member where id = $1', [owner.id])).rows[0].open_id.replace(/^openid-/, '');
    const duplicate = await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code: ownerCode });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ error: { code: 'DUPLICATE', message: expect.any(String), details: [{ field: 'code', message: expect.any(String) }] } });
    const wrongApp = await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code: unique('c'), app_id: 'another-app' });
    expect(wrongApp.status).toBe(400);
    expect(detailFields(wrongApp.body)).toEqual(['app_id']);
    const refused = await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code: 'bad-code' });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 'INVALID_CODE', message: expect.any(String) } });
    expect((await call('POST', `${BASE}/${customer.id}/chatapp/link`, {})).status).toBe(400);
    expect((await call('POST', `${BASE}/${randomUUID()}/chatapp/link`, { code: unique('c') })).body.error.code).toBe('CUSTOMER_NOT_FOUND');
  });

  it('lets a customer link to its own profile only', async () => {
    const customer = await newCustomer();
    const member = members[1];
    expect((await call('POST', `${BASE}/${customer.id}/chatapp/link`, { code: unique('c') }, member.token)).status).toBe(403);
  });
});

describe('GET /api/v1/customers/{id}/segments', () => {
  it('answers the segments the customer is in as {id, name, type}: manual, or ai for computed (rule) segments', async () => {
    const customer = await newCustomer();
    await placedTier(customer.id);
    const segment = (body: Body) => platform.api('POST', '/cluster/api/segments', { token: marketing.token, body });
    const manual = await segment({ name_en: unique('Picked '), type: 'manual' });
    expect(manual.status).toBe(201);
    const manualId = manual.body.data.data.id;
    expect((await platform.api('POST', `/cluster/api/segments/${manualId}/members`, { token: marketing.token, body: { memberIds: [customer.id] } })).status).toBeLessThan(300);
    const rule = await segment({ name_en: unique('Bronze rule '), type: 'rule', rule: { tierIds: [tiers.bronze.id] } });
    expect(rule.status).toBe(201);

    const response = await call('GET', `${BASE}/${customer.id}/segments`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(
      expect.arrayContaining([
        { id: manualId, name: manual.body.data.data.name_en, type: 'manual' },
        { id: rule.body.data.data.id, name: rule.body.data.data.name_en, type: 'ai' },
      ]),
    );
    expect(response.body.data).toHaveLength(2);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown customer; a customer reads its own only, tenants are 403', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await call('GET', `${BASE}/${id}/segments`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    }
    const [own, other] = members;
    const mine = await call('GET', `${BASE}/${own.id}/segments`, undefined, own.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual((await call('GET', `${BASE}/${own.id}/segments`)).body.data);
    const theirs = await call('GET', `${BASE}/${other.id}/segments`, undefined, own.token);
    expect(theirs.status).toBe(403);
    expect(theirs.body.error).toBe('insufficient_scope');
    expect((await call('GET', `${BASE}/${own.id}/segments`, undefined, tenant.token)).status).toBe(403);
  });
});

describe('GET /api/v1/customers/{id}?include=rewards,campaigns and filter[tier]', () => {
  it('includes the reward codes as {id, name, status}, newest first, and campaigns as []', async () => {
    const customer = await newCustomer();
    const name_en = unique('Include reward ');
    const reward = await platform.graphql(
      `mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`,
      { input: { name_en, description_en: 'd', type: 'POINT', benefitValue: 10, stock: 10 } },
      marketing.token,
    );
    expect(reward.body.errors).toBeUndefined();
    const rewardId = reward.body.data.createReward.id;
    const catalog = await platform.graphql(
      `mutation ($input: CreateRewardCatalogInput!) { createRewardCatalog(input: $input) { id } }`,
      { input: { name_en: unique('Include catalog '), rewardId, redeemRule: { pointUsage: 5 } } },
      marketing.token,
    );
    expect(catalog.body.errors).toBeUndefined();
    const code = async (letters: string, createdAt: string, used: boolean) => {
      const id = randomUUID();
      await platform.sql.query(
        `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, expired_at, created_at, updated_at, staff_id, used_at)
         values ($1, $2, $3, $4, $5, now() + interval '30 days', $6, $6, $7::text, case when $7::text is null then null else now() end)`,
        [id, letters, rewardId, catalog.body.data.createRewardCatalog.id, customer.id, createdAt, used ? admin.id : null],
      );
      return id;
    };
    // Codes are 6 characters of an alphabet without look-alikes; an unused one is unique among unused codes.
    const letters = () => Array.from({ length: 6 }, () => 'ABCDEFGHJKMNPQRSTVWXYZ23456789'[Math.floor(Math.random() * 30)]).join('');
    const older = await code(letters(), '2026-01-01T00:00:00Z', true);
    const newer = await code(letters(), '2026-02-01T00:00:00Z', false);

    const response = await call('GET', `${BASE}/${customer.id}?include=rewards,campaigns`);
    expect(response.status).toBe(200);
    expect(response.body.data.rewards).toEqual([
      { id: newer, name: name_en, status: 'available' },
      { id: older, name: name_en, status: 'used' },
    ]);
    expect(response.body.data.campaigns).toEqual([]);
    // A list takes only include=tier: rewards are read per customer.
    const listed = await call('GET', `${BASE}?include=rewards`);
    expect(listed.status).toBe(400);
    expect(detailFields(listed.body)).toEqual(['include']);
  });

  it('lists the customers of a tier by name or id, following manual changes', async () => {
    const customer = await newCustomer();
    await placedTier(customer.id);
    const onTier = (tier: string) => call('GET', `${BASE}?filter[tier]=${encodeURIComponent(tier)}&limit=100`).then((response) => response.body.data.map((item: { id: string }) => item.id));
    await waitFor(async () => (await onTier('bronze')).includes(customer.id), 'the new customer on the bronze filter');
    expect(await onTier(tiers.gold.id)).not.toContain(customer.id);
    expect((await call('PATCH', `${BASE}/${customer.id}/tier`, { tier_id: tiers.gold.id, reason: 'promotion' })).status).toBe(200);
    await waitFor(async () => (await onTier(tiers.gold.id)).includes(customer.id), 'the customer on the gold filter');
    expect(await onTier('Bronze')).not.toContain(customer.id);
    expect(await onTier('Gold th')).toContain(customer.id);
  });
});

describe('DELETE /api/v1/customers/{id}', () => {
  it('deletes a customer (204): erases its personal data, ends its sessions, announces customer.deleted; a second delete is 404', async () => {
    const code = unique('deleted');
    const login = await call('POST', '/api/v1/auth/chatapp/login', { code, app_id: CHATAPP_APP_ID }, null);
    const id = login.body.data.user.id as string;
    const refreshToken = login.body.data.refresh_token as string;
    const name = unique('Gone ');
    const email = `${unique('gone')}@example.com`;
    const updated = await call('PATCH', `${BASE}/${id}`, { name, email, phone: '+66 81 000 0000', date_of_birth: '1990-01-02', gender: 'male', address: { street: '1 Road', city: 'Bangkok' }, language: 'th' });
    expect(updated.status).toBe(200);
    expect((await call('GET', `${BASE}?search=${encodeURIComponent(email)}`)).body.pagination.total).toBe(1);

    const response = await call('DELETE', `${BASE}/${id}`);
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();

    // Absent everywhere: read, list, search; a second delete.
    expect((await call('GET', `${BASE}/${id}`)).body).toEqual({ error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } });
    expect((await call('GET', `${BASE}?search=${encodeURIComponent(name)}`)).body.data).toEqual([]);
    expect((await call('GET', `${BASE}?search=${encodeURIComponent(email)}`)).body.pagination.total).toBe(0);
    expect((await call('GET', `${BASE}/${id}/points/balance`)).status).toBe(404);
    // Its access token is revoked with it (docs/security.md).
    expect((await call('GET', `${BASE}/me`, undefined, login.body.data.access_token)).status).toBe(401);
    const again = await call('DELETE', `${BASE}/${id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('CUSTOMER_NOT_FOUND');

    // Personal data erased, the row kept under its id.
    const [row] = (await platform.sql.query('select * from auth.member where id = $1', [id])).rows;
    expect(row).toMatchObject({
      name: null, nick_name: null, avatar_url: null, phone_number: null, email: null, birth_day: null, gender: null,
      address: null, language: null, open_id: null, union_id: null, status: 'INACTIVE', deleted_at: expect.any(Date),
    });

    // Sessions end: the refresh token no longer works.
    const refreshed = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken } });
    expect(refreshed.status).toBe(401);
    const live = await platform.sql.query(`select count(*)::int as n from auth.refresh_token where subject_id = $1 and revoked_at is null`, [id]);
    expect(live.rows[0].n).toBe(0);

    // customer.deleted, once, in the outbox.
    expect(await eventsOf('auth', 'customer.deleted', id)).toEqual([{ memberId: id, deletedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }]);
    expect(new Date((await eventsOf('auth', 'customer.deleted', id))[0].deletedAt).getTime()).toBe(row.deleted_at.getTime());
  });

  it('does not bring a deleted customer back: its chat-app identity logs in as a new customer', async () => {
    const code = unique('returning');
    const first = await call('POST', '/api/v1/auth/chatapp/login', { code, app_id: CHATAPP_APP_ID }, null);
    const oldId = first.body.data.user.id as string;
    expect((await call('DELETE', `${BASE}/${oldId}`)).status).toBe(204);
    const back = await call('POST', '/api/v1/auth/chatapp/login', { code, app_id: CHATAPP_APP_ID }, null);
    expect(back.status).toBe(200);
    expect(back.body.data.user.id).not.toBe(oldId);
    expect((await call('GET', `${BASE}/${back.body.data.user.id}`)).body.data).toMatchObject({ chatapp: { openid: `openid-${code}` }, points_balance: 0 });
    expect((await call('GET', `${BASE}/${oldId}`)).status).toBe(404);
  });

  it('needs the admin scope (marketing, tenants and customers 403), and answers 404 CUSTOMER_NOT_FOUND for unknown ids', async () => {
    const customer = await newCustomer();
    for (const token of [marketing.token, tenant.token, members[0].token]) {
      const refused = await call('DELETE', `${BASE}/${customer.id}`, undefined, token);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="admin"');
    }
    const self = await platform.loginMember();
    expect((await call('DELETE', `${BASE}/${self.id}`, undefined, self.token)).status).toBe(403);
    expect((await call('GET', `${BASE}/${customer.id}`)).status).toBe(200);
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await call('DELETE', `${BASE}/${id}`);
      expect([id, response.status, response.body]).toEqual([id, 404, { error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } }]);
    }
  });

  it('deletes once when two deletions race', async () => {
    const customer = await newCustomer();
    const answers = await Promise.all([0, 1].map(() => call('DELETE', `${BASE}/${customer.id}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 404]);
    expect(await eventsOf('auth', 'customer.deleted', customer.id)).toHaveLength(1);
  });
});
