import { randomUUID } from 'node:crypto';
import { CAMPAIGN_PROGRESS_QUEUE } from '../subgraphs/campaign/services/campaign-progress';
import { sendAndWait, waitFor } from './support/wait-for';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { platformSurface } from '../subgraphs/registry';
import { campaignModule } from '../subgraphs/campaign/module';
import { CampaignService } from '../subgraphs/campaign/services/campaign.service';
import { unique } from './support/test-platform';
import { useModuleJobs } from './support/module-jobs';
import { usePlatform } from './support/use-platform';

const BASE = '/api/v1/campaigns';
const DAY = 24 * 3600 * 1000;
const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

// Webhooks may target the test's receiver on loopback (the events' webhook data below).
const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 2, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let receiver: FakeWebhookReceiver;
beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
});
afterAll(() => receiver.close());

/** The domain's ORM and the job queue, opened by the test itself to run its jobs directly (as the platform's schedule does). */
const jobs = useModuleJobs(campaignModule);

const api = (method: string, path: string, body?: unknown, token: string = marketing.token) => platform.api(method, path, { token, body });
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();
const eventsOf = async (campaignId: string) =>
  (await platform.sql.query(`select type, payload from campaign.outbox_event where aggregate_id = $1 order by sequence`, [campaignId])).rows as Array<{ type: string; payload: any }>;

const draftBody = (extra: Record<string, unknown> = {}) => ({
  name: unique('Campaign '),
  description: 'Spend and earn',
  type: 'promotion',
  start_date: at(-1),
  end_date: at(10),
  reward: { type: 'points', value: 50, unit: 'points' },
  rules: { per_customer_limit: 1 },
  content: { banner: 'https://cdn.example.com/b.png', terms: 'Terms apply' },
  ...extra,
});

async function createCampaign(extra: Record<string, unknown> = {}): Promise<string> {
  const response = await api('POST', BASE, draftBody(extra));
  if (response.status !== 201) throw new Error(`create: ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}
async function activeCampaign(extra: Record<string, unknown> = {}): Promise<string> {
  const id = await createCampaign(extra);
  const activated = await api('POST', `${BASE}/${id}/activate`, {});
  if (activated.status !== 200) throw new Error(`activate: ${JSON.stringify(activated.body)}`);
  return id;
}
async function manualSegment(memberIds: string[]): Promise<string> {
  const created = await api('POST', '/cluster/api/segments', { name_en: unique('Segment '), type: 'manual' });
  expect(created.status).toBe(201);
  const id = created.body.data.data.id;
  if (memberIds.length > 0) expect((await api('POST', `/cluster/api/segments/${id}/members`, { memberIds })).status).toBeLessThan(300);
  return id;
}

describe('POST /api/v1/campaigns', () => {
  it('creates a draft (201 {id, name, status, created_at}) and records campaign.created', async () => {
    const body = draftBody();
    const response = await api('POST', BASE, body);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ data: { id: expect.any(String), name: body.name, status: 'draft', created_at: expect.stringMatching(V1_TIME) } });
    const read = await api('GET', `${BASE}/${response.body.data.id}`);
    expect(read.body.data).toEqual({
      id: response.body.data.id,
      name: body.name,
      description: 'Spend and earn',
      type: 'promotion',
      status: 'draft',
      start_date: expect.stringMatching(V1_TIME),
      end_date: expect.stringMatching(V1_TIME),
      target_segment: null,
      reward: { type: 'points', value: 50, unit: 'points' },
      rules: { min_purchase: null, max_uses: null, per_customer_limit: 1 },
      content: { banner: 'https://cdn.example.com/b.png', terms: 'Terms apply' },
      participant_count: 0,
      conversion_rate: 0,
      created_at: expect.stringMatching(V1_TIME),
      updated_at: expect.stringMatching(V1_TIME),
    });
    expect(await eventsOf(response.body.data.id)).toEqual([
      { type: 'campaign.created', payload: expect.objectContaining({ campaignId: response.body.data.id, name: body.name, status: 'draft' }) },
    ]);
  });

  it('answers 400 VALIDATION_ERROR naming every bad field', async () => {
    const response = await api('POST', BASE, {
      name: '',
      type: 'raffle',
      start_date: '2026-13-01',
      end_date: 'tomorrow',
      reward: { type: 'cash', value: 5 },
      rules: { min_purchase: -1, max_uses: 0, per_customer_limit: 1.5 },
      content: { banner: 5 },
      target_segment_id: 'no-such-segment',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(response.body)).toEqual(
      ['content.banner', 'end_date', 'name', 'reward.type', 'rules.max_uses', 'rules.min_purchase', 'rules.per_customer_limit', 'start_date', 'target_segment_id', 'type'].sort(),
    );
    const backwards = await api('POST', BASE, draftBody({ start_date: at(5), end_date: at(1), reward: { type: 'points', value: 0 } }));
    expect(backwards.status).toBe(400);
    expect(detailFields(backwards.body)).toEqual(['end_date', 'reward.value']);
    expect(detailFields((await api('POST', BASE, {})).body)).toEqual(['end_date', 'name', 'start_date', 'type']);
  });

  it('needs write and the marketing or admin role: tenant and customer tokens are 403 insufficient_scope', async () => {
    expect((await api('POST', BASE, draftBody(), admin.token)).status).toBe(201);
    for (const token of [tenant.token, members[0].token]) {
      const refused = await api('POST', BASE, draftBody(), token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
    }
    expect((await platform.api('POST', BASE, { body: draftBody() })).status).toBe(401);
  });

  it("answers the target segment as {id, name}, the name the cluster's now (federation); an unknown segment is 400 on target_segment_id", async () => {
    const segmentId = await manualSegment([]);
    const id = await createCampaign({ target_segment_id: segmentId });
    const read = await api('GET', `${BASE}/${id}`);
    expect(read.body.data.target_segment).toEqual({ id: segmentId, name: expect.stringMatching(/^Segment /) });
    const renamed = unique('Renamed ');
    expect((await api('PUT', `/cluster/api/segments/${segmentId}`, { name_en: renamed })).status).toBe(200);
    expect((await api('GET', `${BASE}/${id}`)).body.data.target_segment).toEqual({ id: segmentId, name: renamed });
    for (const unknown of ['f0000000-0000-4000-8000-000000000000', 'nope']) {
      const refused = await api('POST', BASE, draftBody({ target_segment_id: unknown }));
      expect([unknown, refused.status, detailFields(refused.body)]).toEqual([unknown, 400, ['target_segment_id']]);
    }
  });

  it("a customer reading a campaign sees its segment's name, not its rule or member count", async () => {
    const segmentId = await manualSegment([]);
    const id = await activeCampaign({ target_segment_id: segmentId });
    const customer = await platform.loginMember();
    const query = `query ($id: ID!) { campaign(id: $id) { targetSegment { id name_en } } }`;
    expect((await platform.graphql(query, { id }, customer.token)).body.data.campaign.targetSegment).toEqual({ id: segmentId, name_en: expect.stringMatching(/^Segment /) });
    for (const field of ['rule { minPoints }', 'memberCount']) {
      const response = await platform.graphql(`query ($id: ID!) { campaign(id: $id) { targetSegment { id ${field} } } }`, { id }, customer.token);
      expect([field, response.body.errors?.[0].extensions.code]).toEqual([field, 'FORBIDDEN']);
      const staff = await platform.graphql(`query ($id: ID!) { campaign(id: $id) { targetSegment { id ${field} } } }`, { id }, marketing.token);
      expect([field, staff.body.errors]).toEqual([field, undefined]);
    }
  });
});

describe('GET /api/v1/campaigns', () => {
  it('lists newest first with pagination, filtered by status, type and dates; customers see no drafts', async () => {
    const type = 'challenge';
    const draft = await createCampaign({ type, start_date: '2031-01-01', end_date: '2031-01-31' });
    const active = await activeCampaign({ type });
    const list = await api('GET', `${BASE}?type=${type}&limit=100`);
    expect(list.status).toBe(200);
    const ids = list.body.data.map((campaign: { id: string }) => campaign.id);
    expect(ids.indexOf(active)).toBeLessThan(ids.indexOf(draft));
    expect(list.body.pagination).toEqual({ page: 1, limit: 100, total: expect.any(Number) });
    const drafts = await api('GET', `${BASE}?type=${type}&status=draft&limit=100`);
    expect(drafts.body.data.every((campaign: { status: string }) => campaign.status === 'draft')).toBe(true);
    const future = await api('GET', `${BASE}?date_from=2031-01-10&date_to=2031-01-12&limit=100`);
    expect(future.body.data.map((campaign: { id: string }) => campaign.id)).toContain(draft);
    expect(future.body.data.map((campaign: { id: string }) => campaign.id)).not.toContain(active);
    const asCustomer = await api('GET', `${BASE}?type=${type}&limit=100`, undefined, members[0].token);
    expect(asCustomer.status).toBe(200);
    expect(asCustomer.body.data.map((campaign: { id: string }) => campaign.id)).toContain(active);
    expect(asCustomer.body.data.map((campaign: { id: string }) => campaign.id)).not.toContain(draft);
    expect((await api('GET', `${BASE}/${draft}`, undefined, members[0].token)).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    expect((await api('GET', `${BASE}/${active}`, undefined, tenant.token)).status).toBe(200);
  });

  it('answers 400 on bad filters and 404 CAMPAIGN_NOT_FOUND for an unknown id or a non-id', async () => {
    const bad = await api('GET', `${BASE}?status=paused&type=x&date_from=nope&limit=500`);
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['date_from', 'limit', 'status', 'type']);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await api('GET', `${BASE}/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    }
  });
});

describe('PATCH, activate and end', () => {
  it('changes some fields; end_date must stay after start_date', async () => {
    const id = await createCampaign();
    const patched = await api('PATCH', `${BASE}/${id}`, { name: 'Renamed', rules: { min_purchase: 100, max_uses: 5 } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Renamed', type: 'promotion', description: 'Spend and earn', rules: { min_purchase: 100, max_uses: 5, per_customer_limit: 1 } });
    const backwards = await api('PATCH', `${BASE}/${id}`, { end_date: at(-5) });
    expect(backwards.status).toBe(400);
    expect(detailFields(backwards.body)).toEqual(['end_date']);
    expect((await api('PATCH', `${BASE}/${id}`, { name: 'x' }, tenant.token)).status).toBe(403);
  });

  it('merges rules: the keys given replace theirs, the others stay, a null one goes back to its default, rules: null to all defaults', async () => {
    const id = await createCampaign({ rules: { min_purchase: 100, per_customer_limit: 3 } });
    const rulesOf = async () => (await api('GET', `${BASE}/${id}`)).body.data.rules;
    const patched = await api('PATCH', `${BASE}/${id}`, { rules: { max_uses: 5 } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.rules).toEqual({ min_purchase: 100, max_uses: 5, per_customer_limit: 3 });
    expect(await rulesOf()).toEqual({ min_purchase: 100, max_uses: 5, per_customer_limit: 3 });
    expect((await api('PATCH', `${BASE}/${id}`, { name: 'Rules untouched' })).body.data.rules).toEqual({ min_purchase: 100, max_uses: 5, per_customer_limit: 3 });
    expect((await api('PATCH', `${BASE}/${id}`, { rules: { min_purchase: null, per_customer_limit: 2 } })).body.data.rules).toEqual({ min_purchase: null, max_uses: 5, per_customer_limit: 2 });
    expect((await api('PATCH', `${BASE}/${id}`, { rules: { per_customer_limit: null } })).body.data.rules).toEqual({ min_purchase: null, max_uses: 5, per_customer_limit: 1 });
    const bad = await api('PATCH', `${BASE}/${id}`, { rules: { max_uses: 0, per_customer_limit: 4, surprise: true } });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['rules.max_uses', 'rules.surprise']);
    expect(await rulesOf()).toEqual({ min_purchase: null, max_uses: 5, per_customer_limit: 1 });
    expect((await api('PATCH', `${BASE}/${id}`, { rules: null })).body.data.rules).toEqual({ min_purchase: null, max_uses: null, per_customer_limit: 1 });
  });

  it('ignores body fields it does not know, as every route does: status moves only through activate and end', async () => {
    const id = await createCampaign();
    const patched = await api('PATCH', `${BASE}/${id}`, { status: 'ended', participant_count: 7, name: 'Still a draft' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Still a draft', status: 'draft', participant_count: 0 });
    expect((await api('GET', `${BASE}/${id}`)).body.data.status).toBe('draft');
    expect((await eventsOf(id)).map((event) => event.type)).toEqual(['campaign.created']);
  });

  it('PATCH, activate and end of an unknown campaign are 404 CAMPAIGN_NOT_FOUND; customer and tenant tokens are 403 insufficient_scope', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [['PATCH', `${BASE}/${unknown}`, { name: 'x' }], ['POST', `${BASE}/${unknown}/activate`, {}], ['POST', `${BASE}/${unknown}/end`, {}]] as const) {
      const missing = await api(method, path, body);
      expect([path, missing.status, missing.body.error.code]).toEqual([path, 404, 'CAMPAIGN_NOT_FOUND']);
    }
    const id = await createCampaign();
    for (const token of [members[0].token, tenant.token]) {
      for (const [method, path, body] of [['PATCH', `${BASE}/${id}`, { name: 'x' }], ['POST', `${BASE}/${id}/activate`, {}], ['POST', `${BASE}/${id}/end`, {}]] as const) {
        const refused = await api(method, path, body, token);
        expect([path, refused.status, refused.body.error]).toEqual([path, 403, 'insufficient_scope']);
      }
    }
    expect((await api('GET', `${BASE}/${id}`)).body.data).toMatchObject({ status: 'draft', name: expect.stringMatching(/^Campaign /) });
  });

  it('refuses to activate a draft whose end_date has passed (409 INVALID_STATE, no campaign.started); a later end_date lets it', async () => {
    const id = await createCampaign({ start_date: at(-5), end_date: at(-1) });
    const refused = await api('POST', `${BASE}/${id}/activate`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'INVALID_STATE', message: expect.stringMatching(/end_date .* has passed/) });
    expect((await api('GET', `${BASE}/${id}`)).body.data.status).toBe('draft');
    expect((await eventsOf(id)).map((event) => event.type)).toEqual(['campaign.created']);
    expect((await api('PATCH', `${BASE}/${id}`, { end_date: at(3) })).status).toBe(200);
    const activated = await api('POST', `${BASE}/${id}/activate`, {});
    expect(activated.status).toBe(200);
    expect(activated.body.data.status).toBe('active');
  });

  it('every campaign route answers a path id that is no id as not found: CAMPAIGN_NOT_FOUND, and CUSTOMER_NOT_FOUND on a customer\'s campaigns', async () => {
    const customer = members[0];
    const routes = [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'x' }],
      ['POST', '/activate', {}],
      ['POST', '/end', {}],
      ['POST', '/join', { customer_id: customer.id }],
      ['GET', '/participants', undefined],
      ['GET', '/analytics', undefined],
    ] as const;
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      for (const [method, tail, body] of routes) {
        const missing = await api(method, `${BASE}/${id}${tail}`, body);
        expect([method, id, tail, missing.status, missing.body.error?.code]).toEqual([method, id, tail, 404, 'CAMPAIGN_NOT_FOUND']);
      }
      const customerMissing = await api('GET', `/api/v1/customers/${id}/campaigns`);
      expect([id, customerMissing.status, customerMissing.body.error?.code]).toEqual([id, 404, 'CUSTOMER_NOT_FOUND']);
    }
  });

  it('moves draft → active → ended with their events; any other move is 409 INVALID_STATE', async () => {
    const id = await createCampaign();
    expect((await api('POST', `${BASE}/${id}/end`, {})).body.error.code).toBe('INVALID_STATE');
    const activated = await api('POST', `${BASE}/${id}/activate`, {});
    expect(activated.status).toBe(200);
    expect(activated.body.data.status).toBe('active');
    const again = await api('POST', `${BASE}/${id}/activate`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    const ended = await api('POST', `${BASE}/${id}/end`, {});
    expect(ended.body.data.status).toBe('ended');
    expect((await api('POST', `${BASE}/${id}/end`, {})).status).toBe(409);
    expect((await api('PATCH', `${BASE}/${id}`, { name: 'late' })).body.error.code).toBe('INVALID_STATE');
    expect((await eventsOf(id)).map((event) => event.type)).toEqual(['campaign.created', 'campaign.started', 'campaign.ended']);
    expect((await api('POST', `${BASE}/00000000-0000-4000-8000-000000000000/activate`, {})).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
  });

  it('the job ends active campaigns whose end date has passed, once each', async () => {
    const id = await activeCampaign();
    await platform.sql.query(`update campaign.campaign set start_date = now() - interval '3 days', end_date = now() - interval '1 minute' where id = $1`, [id]);
    expect(await new CampaignService(jobs.em()).endDue()).toBeGreaterThanOrEqual(1);
    expect((await api('GET', `${BASE}/${id}`)).body.data.status).toBe('ended');
    await new CampaignService(jobs.em()).endDue();
    expect((await eventsOf(id)).filter((event) => event.type === 'campaign.ended')).toHaveLength(1);
  });
});

describe('POST /api/v1/campaigns/{id}/join', () => {
  it('joins a customer for itself (201 participant) and records campaign.participant.joined', async () => {
    const id = await activeCampaign();
    const customer = await platform.loginMember();
    const joined = await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
    expect(joined.status).toBe(201);
    expect(joined.body.data).toEqual({
      id: expect.any(String),
      campaign_id: id,
      customer_id: customer.id,
      status: 'active',
      joined_at: expect.stringMatching(V1_TIME),
      completed_at: null,
      reward_claimed: false,
      progress: { current: 0, target: 1, percentage: 0 },
    });
    const joinedEvent = (await eventsOf(id)).find((event) => event.type === 'campaign.participant.joined');
    expect(Object.keys(joinedEvent!.payload).sort()).toEqual(['campaignId', 'campaignName', 'customerId', 'joinedAt']);
    expect(joinedEvent!.payload).toMatchObject({ campaignId: id, customerId: customer.id });
    const repeat = await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
    expect(repeat.status).toBe(409);
    expect(repeat.body.error.code).toBe('ALREADY_JOINED');
    const read = await api('GET', `${BASE}/${id}`);
    expect(read.body.data).toMatchObject({ participant_count: 1, conversion_rate: 0 });
  });

  it('a customer joins only for itself; staff with campaign:manage for anyone; a missing customer_id is 400; an unknown customer 404', async () => {
    const id = await activeCampaign();
    const [first, second] = members;
    const other = await api('POST', `${BASE}/${id}/join`, { customer_id: second.id }, first.token);
    expect(other.status).toBe(403);
    expect((await api('POST', `${BASE}/${id}/join`, { customer_id: second.id })).status).toBe(201);
    expect((await api('POST', `${BASE}/${id}/join`, { customer_id: first.id }, tenant.token)).status).toBe(403);
    const missing = await api('POST', `${BASE}/${id}/join`, {});
    expect(missing.status).toBe(400);
    expect(detailFields(missing.body)).toEqual(['customer_id']);
    const unknown = await api('POST', `${BASE}/${id}/join`, { customer_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await api('POST', `${BASE}/00000000-0000-4000-8000-000000000000/join`, { customer_id: first.id })).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
  });

  it('refuses 422 CAMPAIGN_NOT_ACTIVE for a draft, an ended campaign and one outside its window', async () => {
    const customer = await platform.loginMember();
    const draft = await createCampaign();
    const ended = await activeCampaign();
    await api('POST', `${BASE}/${ended}/end`, {});
    const future = await activeCampaign({ start_date: at(2), end_date: at(5) });
    for (const id of [ended, future]) {
      const refused = await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    }
    // A customer does not see drafts at all; staff joining someone to a draft is refused as not active.
    expect((await api('POST', `${BASE}/${draft}/join`, { customer_id: customer.id }, customer.token)).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    expect((await api('POST', `${BASE}/${draft}/join`, { customer_id: customer.id })).body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
  });

  it('refuses 422 CAMPAIGN_NOT_ACTIVE once end_date has passed, before the job ends the campaign', async () => {
    const customer = await platform.loginMember();
    const id = await activeCampaign();
    await platform.sql.query(`update campaign.campaign set start_date = now() - interval '3 days', end_date = now() - interval '1 second' where id = $1`, [id]);
    const refused = await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    expect((await api('GET', `${BASE}/${id}/participants`)).body.pagination.total).toBe(0);
  });

  it('refuses 422 NOT_ELIGIBLE outside the target segment and past per_customer_limit; 422 CAMPAIGN_FULL once completions reach max_uses', async () => {
    const inside = await platform.loginMember();
    const outside = await platform.loginMember();
    const segmentId = await manualSegment([inside.id]);
    const targeted = await activeCampaign({ target_segment_id: segmentId });
    expect((await api('POST', `${BASE}/${targeted}/join`, { customer_id: inside.id }, inside.token)).status).toBe(201);
    const refused = await api('POST', `${BASE}/${targeted}/join`, { customer_id: outside.id }, outside.token);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('NOT_ELIGIBLE');

    const once = await activeCampaign({ rules: { per_customer_limit: 1, max_uses: 2 } });
    expect((await api('POST', `${BASE}/${once}/join`, { customer_id: inside.id }, inside.token)).status).toBe(201);
    await platform.sql.query(`update campaign.participant set status = 'completed', completed_at = now() where campaign_id = $1`, [once]);
    const limit = await api('POST', `${BASE}/${once}/join`, { customer_id: inside.id }, inside.token);
    expect(limit.status).toBe(422);
    expect(limit.body.error.code).toBe('NOT_ELIGIBLE');
    await platform.sql.query(`update campaign.campaign set completions = 2 where id = $1`, [once]);
    const full = await api('POST', `${BASE}/${once}/join`, { customer_id: outside.id }, outside.token);
    expect(full.status).toBe(422);
    expect(full.body.error.code).toBe('CAMPAIGN_FULL');
  });

  it('concurrent joins of one customer make one participation', async () => {
    const id = await activeCampaign({ rules: { per_customer_limit: 3 } });
    const customer = await platform.loginMember();
    const answers = await Promise.all(Array.from({ length: 8 }, () => api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.body.error.code === 'ALREADY_JOINED')).toBe(true);
    expect((await platform.sql.query('select count(*)::int as n from campaign.participant where campaign_id = $1', [id])).rows[0].n).toBe(1);
  });
});

describe('participants and a customer\'s campaigns', () => {
  it('lists a campaign\'s participants by status, and a customer\'s joined campaigns (a customer its own)', async () => {
    const id = await activeCampaign();
    const [first, second] = [await platform.loginMember(), await platform.loginMember()];
    await api('POST', `${BASE}/${id}/join`, { customer_id: first.id }, first.token);
    await api('POST', `${BASE}/${id}/join`, { customer_id: second.id }, second.token);
    await platform.sql.query(`update campaign.participant set status = 'completed' where campaign_id = $1 and customer_id = $2`, [id, second.id]);
    const all = await api('GET', `${BASE}/${id}/participants`);
    expect(all.status).toBe(200);
    expect(all.body.pagination.total).toBe(2);
    const completed = await api('GET', `${BASE}/${id}/participants?status=completed`);
    expect(completed.body.data.map((participant: { customer_id: string }) => participant.customer_id)).toEqual([second.id]);
    expect((await api('GET', `${BASE}/${id}/participants?status=gone`)).status).toBe(400);
    expect((await api('GET', `${BASE}/${id}/participants`, undefined, first.token)).status).toBe(403);
    expect((await api('GET', `${BASE}/${id}`)).body.data).toMatchObject({ participant_count: 2, conversion_rate: 0.5 });

    const joined = await waitFor(async () => {
      const response = await api('GET', `/api/v1/customers/${first.id}/interactions?type=campaign_joined`, undefined, first.token);
      return response.body.data?.length === 1 && response.body.data[0];
    }, 'the join was recorded as an interaction');
    const name = (await api('GET', `${BASE}/${id}`)).body.data.name;
    expect(joined).toMatchObject({ type: 'campaign_joined', channel: 'campaign', description: `Joined campaign ${name}`, amount: null, points_earned: 0 });
    const own = await api('GET', `/api/v1/customers/${first.id}/campaigns?status=active`, undefined, first.token);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([expect.objectContaining({ campaign_id: id, status: 'active', campaign: expect.objectContaining({ id, status: 'active' }) })]);
    expect((await api('GET', `/api/v1/customers/${first.id}/campaigns?status=completed`, undefined, first.token)).body.data).toEqual([]);
    expect((await api('GET', `/api/v1/customers/${second.id}/campaigns`, undefined, first.token)).status).toBe(403);
    await api('POST', `${BASE}/${id}/end`, {});
    const ended = await api('GET', `/api/v1/customers/${first.id}/campaigns?status=ended`);
    expect(ended.body.data.map((participant: { campaign_id: string }) => participant.campaign_id)).toEqual([id]);
    for (const unknown of ['f0000000-0000-4000-8000-000000000000', 'nobody']) {
      const missing = await api('GET', `/api/v1/customers/${unknown}/campaigns`);
      expect([unknown, missing.status, missing.body.error?.code]).toEqual([unknown, 404, 'CUSTOMER_NOT_FOUND']);
    }
  });
});

describe('progress from purchases', () => {
  const purchase = async (customerId: string, amount: number) => {
    const response = await api('POST', '/api/v1/transactions', { customer_id: customerId, amount }, admin.token);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };
  const participantOf = async (campaignId: string, customerId: string) =>
    (await api('GET', `${BASE}/${campaignId}/participants`)).body.data.find((participant: { customer_id: string }) => participant.customer_id === customerId);
  const balanceOf = async (customerId: string) => (await api('GET', `/api/v1/customers/${customerId}/points/balance`, undefined, admin.token)).body.data.balance as number;
  const counted = async (transactionId: string) =>
    (await platform.sql.query('select count(*)::int as n from campaign.participant_purchase where transaction_id = $1', [transactionId])).rows[0].n as number;

  it('one purchase after joining completes a count campaign once and awards its points', async () => {
    const id = await activeCampaign({ reward: { type: 'points', value: 50, unit: 'points' } });
    const customer = await platform.loginMember();
    await purchase(customer.id, 3); // before joining: not counted
    expect((await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).status).toBe(201);
    const before = await balanceOf(customer.id);
    await purchase(customer.id, 2);
    const done = await waitFor(async () => {
      const participant = await participantOf(id, customer.id);
      return participant?.status === 'completed' ? participant : null;
    }, 'the participation completed');
    expect(done).toMatchObject({ reward_claimed: true, completed_at: expect.stringMatching(V1_TIME), progress: { current: 1, target: 1, percentage: 100 } });
    expect(await balanceOf(customer.id)).toBe(before + 2 + 50);
    const second = await purchase(customer.id, 4);
    await waitFor(async () => (await balanceOf(customer.id)) === before + 2 + 50 + 4, 'the second purchase was credited');
    // Kept for the revenue; the participation stays completed.
    await waitFor(async () => (await counted(second)) === 1, 'the second purchase was kept');
    expect((await participantOf(id, customer.id)).progress.current).toBe(1);
    expect((await eventsOf(id)).filter((event) => event.type === 'campaign.participant.completed')).toEqual([
      { type: 'campaign.participant.completed', payload: expect.objectContaining({ campaignId: id, customerId: customer.id, reward: { type: 'points', value: 50, unit: 'points' } }) },
    ]);
    expect((await api('GET', `${BASE}/${id}`)).body.data).toMatchObject({ participant_count: 1, conversion_rate: 1 });
  });

  it('a change of min_purchase after joining moves each participation as it joined: counted, or amounts summed', async () => {
    const byCount = await activeCampaign({ reward: { type: 'points', value: 10 } });
    const [early, late] = [await platform.loginMember(), await platform.loginMember()];
    expect((await api('POST', `${BASE}/${byCount}/join`, { customer_id: early.id }, early.token)).body.data.progress).toEqual({ current: 0, target: 1, percentage: 0 });
    expect((await api('PATCH', `${BASE}/${byCount}`, { rules: { min_purchase: 50 } })).status).toBe(200);
    expect((await api('POST', `${BASE}/${byCount}/join`, { customer_id: late.id }, late.token)).body.data.progress).toEqual({ current: 0, target: 50, percentage: 0 });
    const bought = [await purchase(early.id, 10), await purchase(late.id, 10)];
    await waitFor(async () => (await Promise.all(bought.map(counted))).every((n) => n === 1), 'both purchases counted');
    expect(await participantOf(byCount, early.id)).toMatchObject({ status: 'completed', reward_claimed: true, progress: { current: 1, target: 1, percentage: 100 } });
    expect(await participantOf(byCount, late.id)).toMatchObject({ status: 'active', progress: { current: 10, target: 50, percentage: 20 } });

    const byAmount = await activeCampaign({ rules: { min_purchase: 100 } });
    const [before, after] = [await platform.loginMember(), await platform.loginMember()];
    expect((await api('POST', `${BASE}/${byAmount}/join`, { customer_id: before.id }, before.token)).status).toBe(201);
    expect((await api('PATCH', `${BASE}/${byAmount}`, { rules: { min_purchase: null } })).status).toBe(200);
    expect((await api('POST', `${BASE}/${byAmount}/join`, { customer_id: after.id }, after.token)).status).toBe(201);
    const more = [await purchase(before.id, 60), await purchase(after.id, 5)];
    await waitFor(async () => (await Promise.all(more.map(counted))).every((n) => n === 1), 'both purchases counted');
    expect(await participantOf(byAmount, before.id)).toMatchObject({ status: 'active', progress: { current: 60, target: 100, percentage: 60 } });
    expect(await participantOf(byAmount, after.id)).toMatchObject({ status: 'completed', progress: { current: 1, target: 1, percentage: 100 } });
  });

  it('max_uses caps completions: past it a participation reaching its target is dropped without a reward, and joins are 422 CAMPAIGN_FULL', async () => {
    const id = await activeCampaign({ rules: { max_uses: 1 }, reward: { type: 'points', value: 20 } });
    const customers = [await platform.loginMember(), await platform.loginMember()];
    for (const customer of customers) expect((await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).status).toBe(201);
    await Promise.all(customers.map((customer) => purchase(customer.id, 1)));
    const statuses = await waitFor(async () => {
      const list = (await api('GET', `${BASE}/${id}/participants`)).body.data as Array<{ status: string; reward_claimed: boolean }>;
      return list.every((participant) => participant.status !== 'active') && list;
    }, 'both participations settled');
    expect(statuses.map((participant) => participant.status).sort()).toEqual(['completed', 'dropped']);
    expect(statuses.filter((participant) => participant.reward_claimed)).toHaveLength(1);
    const late = await platform.loginMember();
    const full = await api('POST', `${BASE}/${id}/join`, { customer_id: late.id }, late.token);
    expect(full.status).toBe(422);
    expect(full.body.error.code).toBe('CAMPAIGN_FULL');
  });

  it('purchases delivered out of order and twice are applied in order, once: one completion, one award', async () => {
    const id = await activeCampaign({ rules: { min_purchase: 100 }, reward: { type: 'points', value: 30 } });
    const customer = await platform.loginMember();
    expect((await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).status).toBe(201);
    const before = await balanceOf(customer.id);
    // Two purchases of the customer as the point domain's relay would chain them (sequence 1, then 2).
    const at = new Date().toISOString();
    const purchaseEvent = (sequence: number, amount: string) => ({
      id: randomUUID(),
      type: 'transaction.completed',
      source: 'point',
      aggregateId: customer.id,
      sequence: String(sequence),
      previousSequence: sequence === 1 ? null : String(sequence - 1),
      occurredAt: at,
      data: { transactionId: randomUUID(), customerId: customer.id, amount, storeId: null, category: null, externalId: null, status: 'completed', pointsEarned: '0', occurredAt: at, createdAt: at },
    });
    const [first, second] = [purchaseEvent(1, '60.00'), purchaseEvent(2, '40.00')];
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, second); // parked: its predecessor is not applied yet
    expect((await participantOf(id, customer.id)).progress.current).toBe(0);
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, first); // applied, then the parked second
    for (const again of [first, second]) await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, again);
    expect(await participantOf(id, customer.id)).toMatchObject({ status: 'completed', reward_claimed: true, progress: { current: 100, target: 100, percentage: 100 } });
    expect(await balanceOf(customer.id)).toBe(before + 30);
    expect((await eventsOf(id)).filter((event) => event.type === 'campaign.participant.completed')).toHaveLength(1);
  });

  it('sums amounts towards min_purchase; an event delivered again counts nothing and awards nothing twice', async () => {
    const id = await activeCampaign({ rules: { min_purchase: 100 }, reward: { type: 'points', value: 30 } });
    const customer = await platform.loginMember();
    expect((await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).status).toBe(201);
    const first = await purchase(customer.id, 60.5);
    await waitFor(async () => (await participantOf(id, customer.id))?.progress.current === 60.5, 'the first purchase counted');
    expect((await participantOf(id, customer.id)).progress).toEqual({ current: 60.5, target: 100, percentage: 60.5 });

    // The point domain's event, delivered to the campaign queue again as a redelivery would.
    const [row] = (await platform.sql.query(`select id, type, payload, occurred_at from point.outbox_event where type = 'transaction.completed' and payload->>'transactionId' = $1`, [first])).rows;
    const again = { id: row.id, type: row.type, occurredAt: row.occurred_at.toISOString(), data: row.payload };
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, again);
    expect((await participantOf(id, customer.id)).progress.current).toBe(60.5);

    const before = await balanceOf(customer.id);
    const second = await purchase(customer.id, 39.5);
    await waitFor(async () => (await participantOf(id, customer.id))?.status === 'completed', 'the participation completed');
    expect((await participantOf(id, customer.id)).progress).toEqual({ current: 100, target: 100, percentage: 100 });
    const [secondRow] = (await platform.sql.query(`select id, type, payload, occurred_at from point.outbox_event where type = 'transaction.completed' and payload->>'transactionId' = $1`, [second])).rows;
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, { id: secondRow.id, type: secondRow.type, occurredAt: secondRow.occurred_at.toISOString(), data: secondRow.payload });
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, { id: secondRow.id, type: secondRow.type, occurredAt: secondRow.occurred_at.toISOString(), data: secondRow.payload });
    expect(await balanceOf(customer.id)).toBe(before + 39 + 30);
    const awards = await platform.sql.query(`select count(*)::int as n from point.point_transaction where member_id = $1 and note = $2`, [customer.id, `Campaign ${id}`]);
    expect(awards.rows[0].n).toBe(1);
    expect((await eventsOf(id)).filter((event) => event.type === 'campaign.participant.completed')).toHaveLength(1);
  });
});

describe('a reward claim as the reward', () => {
  const purchase = async (customerId: string) => {
    const response = await api('POST', '/api/v1/transactions', { customer_id: customerId, amount: 1 }, admin.token);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };
  const participantOf = async (campaignId: string, customerId: string) =>
    (await api('GET', `${BASE}/${campaignId}/participants`)).body.data.find((participant: { customer_id: string }) => participant.customer_id === customerId);
  const codesOf = async (customerId: string) =>
    (await platform.sql.query('select c.id, r.point_usage::text as point_usage from reward.reward_code c join reward.redemption r on r.id = c.redemption_id where c.member_id = $1', [customerId])).rows;
  async function catalogWithStock(stock: number): Promise<{ id: string; rewardId: string }> {
    const input = { name_en: unique('Reward '), description_en: 'd', type: 'POINT', benefitValue: 10, stock, stockType: 'LIMITED' };
    const created = await platform.graphql(`mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`, { input }, marketing.token);
    if (created.body.errors) throw new Error(JSON.stringify(created.body.errors));
    const rewardId = created.body.data.createReward.id;
    const catalog = await platform.api('POST', '/reward/api/reward-catalogs', { token: marketing.token, body: { name_en: unique('Catalog '), description_en: 'd', rewardId, redeemRule: { pointUsage: 500 } } });
    if (catalog.status !== 201) throw new Error(JSON.stringify(catalog.body));
    return { id: catalog.body.data.id, rewardId };
  }

  it('must name a live reward: another id is 400 on reward.value', async () => {
    for (const value of ['f0000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await api('POST', BASE, draftBody({ reward: { type: 'reward', value } }));
      expect([value, response.status, detailFields(response.body)]).toEqual([value, 400, ['reward.value']]);
    }
  });

  it('completing grants one claim without spending points, once whatever the deliveries; with no stock left the participation completes without it', async () => {
    const catalog = await catalogWithStock(1);
    const id = await activeCampaign({ reward: { type: 'reward', value: catalog.id } });
    const [first, second] = [await platform.loginMember(), await platform.loginMember()];
    for (const customer of [first, second]) expect((await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).status).toBe(201);

    const bought = await purchase(first.id);
    const done = await waitFor(async () => {
      const participant = await participantOf(id, first.id);
      return participant?.status === 'completed' ? participant : null;
    }, 'the first participation completed');
    expect(done.reward_claimed).toBe(true);
    // The catalog costs 500 points the customer does not have: nothing was spent.
    expect(await codesOf(first.id)).toEqual([{ id: expect.any(String), point_usage: '0.00' }]);
    const claims = await api('GET', `/api/v1/customers/${first.id}/rewards`, undefined, first.token);
    expect(claims.body.data.map((claim: { reward_id: string }) => claim.reward_id)).toEqual([catalog.id]);

    const [row] = (await platform.sql.query(`select id, type, payload, occurred_at from point.outbox_event where type = 'transaction.completed' and payload->>'transactionId' = $1`, [bought])).rows;
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, { id: row.id, type: row.type, occurredAt: row.occurred_at.toISOString(), data: row.payload });
    expect(await codesOf(first.id)).toHaveLength(1);

    await purchase(second.id);
    const late = await waitFor(async () => {
      const participant = await participantOf(id, second.id);
      return participant?.status === 'completed' ? participant : null;
    }, 'the second participation completed');
    expect(late.reward_claimed).toBe(false);
    expect(await codesOf(second.id)).toEqual([]);
    expect((await platform.sql.query('select stock from reward.reward where id = $1', [catalog.rewardId])).rows[0].stock).toBe(0);
  });

  it('grantRewardCatalog needs reward:manage: customers and tenants are refused and nothing is issued', async () => {
    const catalog = await catalogWithStock(5);
    const customer = await platform.loginMember();
    const grant = `mutation ($id: ID!, $memberId: ID!) { grantRewardCatalog(id: $id, memberId: $memberId, reference: "test") { redemptionId } }`;
    for (const token of [customer.token, tenant.token]) {
      const response = await platform.graphql(grant, { id: catalog.id, memberId: customer.id }, token);
      expect(response.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    }
    expect(await codesOf(customer.id)).toEqual([]);
    const granted = await platform.graphql(grant, { id: catalog.id, memberId: customer.id }, marketing.token);
    const again = await platform.graphql(grant, { id: catalog.id, memberId: customer.id }, marketing.token);
    expect(again.body.data.grantRewardCatalog.redemptionId).toBe(granted.body.data.grantRewardCatalog.redemptionId);
    expect(await codesOf(customer.id)).toHaveLength(1);
  });
});

/** The public events of every domain's surface, by internal type. */
const PUBLIC_EVENTS = Object.fromEntries(platformSurface().publicEvents.map((event) => [event.internal, event]));
const noLookup = () => Promise.reject(new Error('no lookup expected'));

describe('campaign events on webhooks', () => {
  it('campaign.participant.joined is Part 3\'s {campaign_id, campaign_name, customer_id, joined_at}; the other four are delivered too', async () => {
    const id = await activeCampaign();
    const customer = await platform.loginMember();
    await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
    const joined = (await eventsOf(id)).find((event) => event.type === 'campaign.participant.joined')!;
    const mapping = PUBLIC_EVENTS['campaign.participant.joined'];
    expect(mapping.type).toBe('campaign.participant.joined');
    expect(await mapping.data(joined.payload, noLookup)).toEqual({ campaign_id: id, campaign_name: joined.payload.campaignName, customer_id: customer.id, joined_at: expect.stringMatching(V1_TIME) });
    const started = (await eventsOf(id)).find((event) => event.type === 'campaign.started')!;
    expect(await PUBLIC_EVENTS['campaign.started'].data(started.payload, noLookup)).toMatchObject({ campaign_id: id, status: 'active', start_date: expect.stringMatching(V1_TIME) });
    for (const type of ['campaign.created', 'campaign.ended', 'campaign.participant.completed']) expect(PUBLIC_EVENTS[type]?.type).toBe(type);
  });
});

describe('campaign events delivered to a webhook', () => {
  it('campaign.created, campaign.ended and campaign.participant.completed arrive with their Part 3 data, field by field', async () => {
    const path = `/${unique('campaign-hook')}`;
    const events = ['campaign.created', 'campaign.ended', 'campaign.participant.completed'];
    expect((await api('POST', '/api/v1/webhooks', { url: `${receiver.url}${path}`, events }, admin.token)).status).toBe(201);
    const id = await activeCampaign({ type: 'challenge', reward: { type: 'points', value: 25, unit: 'points' } });
    const campaign = (await api('GET', `${BASE}/${id}`)).body.data;
    const customer = await platform.loginMember();
    const participant = (await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).body.data;
    expect((await api('POST', '/api/v1/transactions', { customer_id: customer.id, amount: 12 }, admin.token)).status).toBe(201);
    const completed = await waitFor(async () => {
      const list = (await api('GET', `${BASE}/${id}/participants`)).body.data as Array<{ id: string; status: string; completed_at: string }>;
      return list.find((row) => row.id === participant.id && row.status === 'completed');
    }, 'the participation completed');
    const ended = await api('POST', `${BASE}/${id}/end`, {});
    expect(ended.status).toBe(200);

    const bodies = await waitFor(async () => {
      const mine = receiver.on(path).map((delivery) => JSON.parse(delivery.body)).filter((body) => body.data.campaign_id === id);
      return mine.length >= 3 && mine;
    }, 'three campaign deliveries');
    expect(bodies.map((body) => body.type).sort()).toEqual([...events].sort());
    const deliveryOf = (type: string) => bodies.find((body) => body.type === type);
    for (const body of bodies) expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(deliveryOf('campaign.created').data).toEqual({
      campaign_id: id,
      name: campaign.name,
      type: 'challenge',
      status: 'draft',
      start_date: campaign.start_date,
      end_date: campaign.end_date,
      occurred_at: campaign.created_at,
    });
    const endedData = deliveryOf('campaign.ended').data;
    expect(endedData).toEqual({
      campaign_id: id,
      name: campaign.name,
      type: 'challenge',
      status: 'ended',
      start_date: campaign.start_date,
      end_date: campaign.end_date,
      occurred_at: expect.stringMatching(V1_TIME),
    });
    expect(Date.parse(endedData.occurred_at)).toBeGreaterThanOrEqual(Date.parse(completed.completed_at));
    expect(Date.parse(endedData.occurred_at)).toBeLessThanOrEqual(Date.parse(ended.body.data.updated_at) + 1000);
    expect(deliveryOf('campaign.participant.completed').data).toEqual({
      campaign_id: id,
      campaign_name: campaign.name,
      customer_id: customer.id,
      participant_id: participant.id,
      completed_at: completed.completed_at,
      reward: { type: 'points', value: 25, unit: 'points' },
    });
  });
});

describe('GET /api/v1/customers/{id}?include=campaigns', () => {
  it("shows the customer's joined campaigns with its participation (a customer reads its own, also through /customers/me)", async () => {
    const id = await activeCampaign();
    const customer = await platform.loginMember();
    const none = await api('GET', `/api/v1/customers/${customer.id}?include=campaigns`, undefined, admin.token);
    expect(none.status).toBe(200);
    expect(none.body.data.campaigns).toEqual([]);
    await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
    const expected = [
      {
        id,
        name: expect.any(String),
        type: 'promotion',
        status: 'active',
        participation: { id: expect.any(String), status: 'active', joined_at: expect.stringMatching(V1_TIME), progress: { current: 0, target: 1, percentage: 0 } },
      },
    ];
    expect((await api('GET', `/api/v1/customers/${customer.id}?include=campaigns`, undefined, customer.token)).body.data.campaigns).toEqual(expected);
    expect((await api('GET', '/api/v1/customers/me?include=campaigns,tier', undefined, customer.token)).body.data.campaigns).toEqual(expected);
    expect((await api('GET', `/api/v1/customers/${customer.id}`, undefined, admin.token)).body.data.campaigns).toBeUndefined();
  });
});

describe('GET /api/v1/campaigns/{id}/analytics', () => {
  it("counts participants, conversions and the participants' purchases inside the window, in total and by period", async () => {
    const id = await activeCampaign({ rules: { min_purchase: 100 } });
    const [first, second] = [await platform.loginMember(), await platform.loginMember()];
    await api('POST', `${BASE}/${id}/join`, { customer_id: first.id }, first.token);
    await api('POST', `${BASE}/${id}/join`, { customer_id: second.id }, second.token);
    for (const [customerId, amount] of [[first.id, 60], [first.id, 50], [second.id, 30.01]] as const) {
      expect((await api('POST', '/api/v1/transactions', { customer_id: customerId, amount }, admin.token)).status).toBe(201);
    }
    await waitFor(async () => (await platform.sql.query('select count(*)::int as n from campaign.participant_purchase pp join campaign.participant p on p.id = pp.participant_id where p.campaign_id = $1', [id])).rows[0].n === 3, 'three purchases counted');
    const metrics = { participants: 2, conversions: 1, conversion_rate: 0.5, revenue: 140.01, average_order_value: 46.67 };
    const today = new Date().toISOString().slice(0, 10);
    const daily = await api('GET', `${BASE}/${id}/analytics`);
    expect(daily.status).toBe(200);
    expect(daily.body).toEqual({ data: { campaign_id: id, metrics, by_date: [{ date: today, ...metrics }] } });
    const monthly = await api('GET', `${BASE}/${id}/analytics?group_by=month`);
    expect(monthly.body.data.by_date).toEqual([{ date: `${today.slice(0, 7)}-01`, ...metrics }]);
    const empty = await api('GET', `${BASE}/${id}/analytics?date_from=2020-01-01&date_to=2020-01-31`);
    expect(empty.body.data).toEqual({ campaign_id: id, metrics: { participants: 0, conversions: 0, conversion_rate: 0, revenue: 0, average_order_value: 0 }, by_date: [] });
    const bad = await api('GET', `${BASE}/${id}/analytics?group_by=year&date_from=x`);
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['date_from', 'group_by']);
    expect((await api('GET', `${BASE}/00000000-0000-4000-8000-000000000000/analytics`)).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    expect((await api('GET', `${BASE}/${id}/analytics`, undefined, first.token)).status).toBe(403);
  });

  it('group_by=week: weeks start on Monday (UTC), each with exact figures; a bad date_to is 400', async () => {
    const id = await activeCampaign({ rules: { min_purchase: 100 } });
    const [first, second] = [await platform.loginMember(), await platform.loginMember()];
    for (const customer of [first, second]) expect((await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token)).status).toBe(201);
    for (const [customerId, amount] of [[first.id, 60], [first.id, 50], [second.id, 30.02]] as const) {
      expect((await api('POST', '/api/v1/transactions', { customer_id: customerId, amount }, admin.token)).status).toBe(201);
    }
    const participations = `select id from campaign.participant where campaign_id = $1 and customer_id = $2`;
    await waitFor(async () => (await platform.sql.query(`select count(*)::int as n from campaign.participant_purchase where participant_id in (select id from campaign.participant where campaign_id = $1)`, [id])).rows[0].n === 3, 'three purchases counted');
    // The activity moved to known days of March 2025: Tue 4 and Sun 9 (the week of Monday 3), Mon 10 at midnight, Wed 12 and Sun 16 late (the week of Monday 10).
    await platform.sql.query(`update campaign.participant set joined_at = '2025-03-04T10:00:00Z', completed_at = '2025-03-12T09:00:00Z' where id in (${participations})`, [id, first.id]);
    await platform.sql.query(`update campaign.participant set joined_at = '2025-03-10T00:00:00Z' where id in (${participations})`, [id, second.id]);
    for (const [customerId, amount, occurredAt] of [[first.id, 60, '2025-03-09T23:59:59Z'], [first.id, 50, '2025-03-12T09:00:00Z'], [second.id, 30.02, '2025-03-16T23:30:00Z']] as const) {
      await platform.sql.query(`update campaign.participant_purchase set occurred_at = $3 where amount = $4 and participant_id in (${participations})`, [id, customerId, occurredAt, amount]);
    }
    const march = await api('GET', `${BASE}/${id}/analytics?group_by=week&date_from=2025-03-01&date_to=2025-03-31`);
    expect(march.status).toBe(200);
    expect(march.body).toEqual({
      data: {
        campaign_id: id,
        metrics: { participants: 2, conversions: 1, conversion_rate: 0.5, revenue: 140.02, average_order_value: 46.67 },
        by_date: [
          { date: '2025-03-03', participants: 1, conversions: 0, conversion_rate: 0, revenue: 60, average_order_value: 60 },
          { date: '2025-03-10', participants: 1, conversions: 1, conversion_rate: 1, revenue: 80.02, average_order_value: 40.01 },
        ],
      },
    });
    // A bare date_to covers its whole day: Sunday 9 at 23:59:59 is in.
    const firstWeek = await api('GET', `${BASE}/${id}/analytics?group_by=week&date_from=2025-03-01&date_to=2025-03-09`);
    expect(firstWeek.body.data.by_date).toEqual([{ date: '2025-03-03', participants: 1, conversions: 0, conversion_rate: 0, revenue: 60, average_order_value: 60 }]);
    expect(firstWeek.body.data.metrics).toEqual({ participants: 1, conversions: 0, conversion_rate: 0, revenue: 60, average_order_value: 60 });
    for (const query of ['date_to=2025-02-30', 'date_to=nope', 'date_from=2025-03-10&date_to=2025-03-01', 'group_by=week&date_to=2025-03-31T25:00:00Z']) {
      const bad = await api('GET', `${BASE}/${id}/analytics?${query}`);
      expect([query, bad.status, bad.body.error?.code, detailFields(bad.body)]).toEqual([query, 400, 'VALIDATION_ERROR', ['date_to']]);
    }
  });

  it('refunds lower the revenue (a wholly refunded purchase is no order), whatever the deliveries; the completion stays', async () => {
    const id = await activeCampaign({ rules: { min_purchase: 50 } });
    const customer = await platform.loginMember();
    await api('POST', `${BASE}/${id}/join`, { customer_id: customer.id }, customer.token);
    const bought: string[] = [];
    for (const amount of [60, 40]) bought.push((await api('POST', '/api/v1/transactions', { customer_id: customer.id, amount }, admin.token)).body.data.id);
    const metricsOf = async () => (await api('GET', `${BASE}/${id}/analytics`)).body.data.metrics;
    await waitFor(async () => (await metricsOf()).revenue === 100, 'both purchases counted');
    expect((await api('POST', `/api/v1/transactions/${bought[0]}/refund`, {}, admin.token)).status).toBe(200);
    expect((await api('POST', `/api/v1/transactions/${bought[1]}/refund`, { amount: 10 }, admin.token)).status).toBe(200);
    const metrics = await waitFor(async () => {
      const now = await metricsOf();
      return now.revenue === 30 && now;
    }, 'the refunds lowered the revenue');
    expect(metrics).toEqual({ participants: 1, conversions: 1, conversion_rate: 1, revenue: 30, average_order_value: 30 });
    const [row] = (await platform.sql.query(`select id, type, payload, occurred_at from point.outbox_event where type = 'transaction.refunded' and payload->>'transactionId' = $1`, [bought[1]])).rows;
    await sendAndWait(jobs.boss(), CAMPAIGN_PROGRESS_QUEUE, { id: row.id, type: row.type, occurredAt: row.occurred_at.toISOString(), data: row.payload });
    expect(await metricsOf()).toEqual(metrics);
  });
});
