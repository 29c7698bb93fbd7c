import { randomUUID } from 'node:crypto';
import { EventStreamClient } from './support/event-stream-client';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';
import { notificationSends } from '../core/metrics';

/** In-app sends delivered in this process so far (notification_sends_total). */
const inAppSends = async () => (await notificationSends.get()).values.find((value) => value.labels.channel === 'in_app' && value.labels.outcome === 'delivered')?.value ?? 0;

const BASE = '/api/v1/notifications';
const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 4 });

const api = (method: string, path: string, body?: unknown, token: string = marketing.token, headers?: Record<string, string>) => platform.api(method, path, { token, body, headers });
const fieldsOf = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();

async function send(body: Record<string, unknown>, path = `${BASE}/send`): Promise<string> {
  const response = await api('POST', path, body);
  if (response.status !== 202) throw new Error(`send: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.notification_id;
}
const detail = async (id: string) => (await api('GET', `${BASE}/${id}`)).body.data;
const completed = (id: string, timeoutMs?: number) => waitFor(async () => {
  const data = await detail(id);
  return data.status === 'completed' && data;
}, `notification ${id} completed`, timeoutMs);
const inAppsOf = async (token: string) => (await platform.api('GET', '/notification/api/in-apps/me?limit=100', { token })).body.data.data.data as Array<{ id: string; title_en: string; content_en: string; metadata: any; type: string }>;
const eventsOf = async (type: string, notificationId: string) =>
  (await platform.sql.query(`select payload, aggregate_id from notification.outbox_event where type = $1 and payload->>'notificationId' = $2 order by sequence`, [type, notificationId])).rows as Array<{ payload: any; aggregate_id: string }>;
async function manualSegment(memberIds: string[]): Promise<string> {
  const created = await api('POST', '/cluster/api/segments', { name_en: unique('Segment '), type: 'manual' }, admin.token);
  expect(created.status).toBe(201);
  const id = created.body.data.data.id;
  if (memberIds.length > 0) expect((await api('POST', `/cluster/api/segments/${id}/members`, { memberIds }, admin.token)).status).toBeLessThan(300);
  return id;
}

describe('POST /api/v1/notifications/send (in_app)', () => {
  it('answers 202 at once, then the job delivers an in-app notification to each customer and completes, each send counted in /metrics', async () => {
    const inAppBefore = await inAppSends();
    const title = unique('Hello ');
    const response = await api('POST', `${BASE}/send`, {
      customer_ids: [members[0].id, members[1].id, members[0].id],
      title,
      body: 'Double points this weekend',
      image: 'https://cdn.example.com/a.png',
      channel: 'in_app',
      priority: 'high',
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ data: { notification_id: expect.any(String), status: 'sending', total_recipients: 2, scheduled_at: null } });
    const id = response.body.data.notification_id;
    const done = await completed(id);
    expect(done).toMatchObject({
      id,
      title,
      body: 'Double points this weekend',
      image: 'https://cdn.example.com/a.png',
      channel: 'in_app',
      priority: 'high',
      status: 'completed',
      total_recipients: 2,
      delivered: 2,
      failed: 0,
      skipped: 0,
      opened: 0,
      clicked: 0,
      scheduled_at: null,
    });
    expect(done.sent_at).toMatch(V1_TIME);
    expect(done.completed_at).toMatch(V1_TIME);
    expect(done.created_at).toMatch(V1_TIME);
    for (const member of [members[0], members[1]]) {
      const mine = (await inAppsOf(member.token)).filter((item) => item.title_en === title);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ content_en: 'Double points this weekend', type: 'news', metadata: { notificationId: id, image: 'https://cdn.example.com/a.png', actionUrl: null } });
    }
    expect((await inAppsOf(members[2].token)).some((item) => item.title_en === title)).toBe(false);
    // notification.sent once (aggregate: the notification); notification.delivered per recipient.
    expect(await eventsOf('notification.sent', id)).toEqual([{ payload: expect.objectContaining({ notificationId: id, channel: 'in_app', totalRecipients: 2 }), aggregate_id: id }]);
    const delivered = await eventsOf('notification.delivered', id);
    expect(delivered.map((event) => event.payload.customerId).sort()).toEqual([members[0].id, members[1].id].sort());
    expect(delivered.every((event) => event.payload.channel === 'in_app' && event.payload.error === null)).toBe(true);
    // At least these two (the platform runs in this process; other in-app sends may happen meanwhile).
    expect((await inAppSends()) - inAppBefore).toBeGreaterThanOrEqual(2);
  });

  it("the in-app copy reaches the member's open stream as new_notification", async () => {
    const stream = await EventStreamClient.open(`${platform.restUrl}/notification/api/in-apps/me/events`, { authorization: `Bearer ${members[1].token}` });
    try {
      await waitFor(async () => stream.events.some((event) => event.data.type === 'connected'), 'connected');
      const title = unique('Streamed ');
      const id = await send({ customer_ids: [members[1].id], title, body: 'live', channel: 'in_app' });
      const event = await waitFor(async () => stream.events.find((received) => received.data.type === 'new_notification' && received.data.data?.title_en === title), 'the streamed copy');
      expect(event.data.data).toMatchObject({ memberId: members[1].id, content_en: 'live', metadata: { notificationId: id } });
    } finally {
      stream.close();
    }
  });

  it('reading the in-app copy counts the notification opened once', async () => {
    const title = unique('Open me ');
    const id = await send({ customer_ids: [members[2].id], title, body: 'b', channel: 'in_app' });
    await completed(id);
    const [copy] = (await inAppsOf(members[2].token)).filter((item) => item.title_en === title);
    for (let i = 0; i < 2; i++) expect((await platform.api('PATCH', `/notification/api/in-apps/${copy.id}/read`, { token: members[2].token, body: { read: true } })).status).toBe(200);
    expect((await detail(id)).opened).toBe(1);
    const other = await send({ customer_ids: [members[2].id], title: unique('Read all '), body: 'b', channel: 'in_app' });
    await completed(other);
    expect((await platform.api('PATCH', '/notification/api/in-apps/me/read-all', { token: members[2].token })).status).toBe(200);
    expect((await detail(other)).opened).toBe(1);
  });

  it('refuses bad input with every field named (400), unknown customers (404 CUSTOMER_NOT_FOUND)', async () => {
    const bad = await api('POST', `${BASE}/send`, { customer_ids: ['nope', members[0].id], channel: 'fax', priority: 'urgent', category: 'spam', image: 'ftp://x', action_url: 'no', schedule_at: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(bad.body)).toEqual(['action_url', 'body', 'category', 'channel', 'customer_ids[0]', 'image', 'priority', 'schedule_at', 'title']);
    expect(fieldsOf((await api('POST', `${BASE}/send`, { title: 't', body: 'b', channel: 'in_app' })).body)).toEqual(['customer_ids']);
    expect(fieldsOf((await api('POST', `${BASE}/send`, { customer_ids: [members[0].id], title: 't', body: 'b', channel: 'in_app', schedule_at: '2020-01-01T00:00:00Z' })).body)).toEqual(['schedule_at']);
    const unknown = await api('POST', `${BASE}/send`, { customer_ids: [members[0].id, randomUUID()], title: 't', body: 'b', channel: 'in_app' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
  });

  it('a value of the wrong JSON type is named too: variables not an object', async () => {
    for (const variables of [[1], 'x', 3]) {
      const bad = await api('POST', `${BASE}/send`, { customer_ids: [members[0].id], template: 'any', variables });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
      expect(bad.body.error.details).toEqual([{ field: 'variables', message: expect.any(String) }]);
    }
  });

  it('needs write and notification:manage: tenant and customer tokens are 403 insufficient_scope; no token 401', async () => {
    const body = { customer_ids: [members[0].id], title: 't', body: 'b', channel: 'in_app' };
    for (const token of [tenant.token, members[0].token]) {
      const refused = await api('POST', `${BASE}/send`, body, token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
    }
    expect((await platform.api('POST', `${BASE}/send`, { body })).status).toBe(401);
    expect((await api('POST', `${BASE}/send`, body, admin.token)).status).toBe(202);
  });

  it('Idempotency-Key: the same key and body answer the first send again; another body is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = unique('key');
    const body = { customer_ids: [members[3].id], title: unique('Once '), body: 'b', channel: 'in_app' };
    const first = await api('POST', `${BASE}/send`, body, marketing.token, { 'Idempotency-Key': key });
    const again = await api('POST', `${BASE}/send`, body, marketing.token, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.data.notification_id).toBe(first.body.data.notification_id);
    const other = await api('POST', `${BASE}/send`, { ...body, title: 'other' }, marketing.token, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await completed(first.body.data.notification_id);
    expect((await inAppsOf(members[3].token)).filter((item) => item.title_en === body.title)).toHaveLength(1);
  });

  it('Idempotency-Key is looked at before anything else: a replay after the customer was deleted is the first answer, not 404', async () => {
    const created = await api('POST', '/api/v1/customers', { name: unique('Soon gone ') }, admin.token);
    expect(created.status).toBe(200);
    const customerId = created.body.data.id;
    const key = unique('replay');
    const body = { customer_ids: [customerId], title: unique('Replayed '), body: 'b', channel: 'in_app', schedule_at: new Date(Date.now() + 1500).toISOString() };
    const first = await api('POST', `${BASE}/send`, body, marketing.token, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ status: 'scheduled', total_recipients: 1 });
    expect((await api('DELETE', `/api/v1/customers/${customerId}`, undefined, admin.token)).status).toBe(204);
    // Without the key the same body is now refused (unknown customer); with it, the first answer again.
    expect((await api('POST', `${BASE}/send`, body)).status).toBe(404);
    await completed(first.body.data.notification_id, 30_000);
    const again = await api('POST', `${BASE}/send`, body, marketing.token, { 'Idempotency-Key': key });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const other = await api('POST', `${BASE}/send`, { ...body, title: 'other' }, marketing.token, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const { rows } = await platform.sql.query('select count(*)::int as count from notification.v1_notification where title = $1', [body.title]);
    expect(rows[0].count).toBe(1);
  });
});

describe('scheduled sends', () => {
  it('schedule_at in the future: 202 scheduled, then sent by the job once due (scheduled → sending → completed)', async () => {
    const scheduleAt = new Date(Date.now() + 2500).toISOString();
    const title = unique('Later ');
    const response = await api('POST', `${BASE}/send`, { customer_ids: [members[1].id], title, body: 'b', channel: 'in_app', schedule_at: scheduleAt });
    expect(response.status).toBe(202);
    expect(response.body.data).toEqual({ notification_id: expect.any(String), status: 'scheduled', total_recipients: 1, scheduled_at: scheduleAt.replace(/\.\d{3}Z$/, 'Z') });
    const id = response.body.data.notification_id;
    const listed = await api('GET', `${BASE}?status=scheduled`);
    expect(listed.body.data.map((item: { id: string }) => item.id)).toContain(id);
    expect((await inAppsOf(members[1].token)).some((item) => item.title_en === title)).toBe(false);
    expect(await eventsOf('notification.sent', id)).toEqual([]);
    const done = await completed(id, 30_000);
    expect(new Date(done.sent_at).getTime()).toBeGreaterThanOrEqual(new Date(scheduleAt).getTime() - 1000);
    expect(done.delivered).toBe(1);
    expect(await eventsOf('notification.sent', id)).toHaveLength(1);
  });
});

describe('priority', () => {
  it('high before normal before low: sends that start together reach the customer in that order', async () => {
    const customer = members[2];
    // The same schedule_at: the job starts them in one go, then expands and delivers them by priority.
    // Two of each, made low first: an order by anything else (creation, id) shows.
    const scheduleAt = new Date(Date.now() + 3000).toISOString();
    const sends = (['low', 'low', 'normal', 'normal', 'high', 'high'] as const).map((priority) => ({ priority, title: unique(`${priority} `) }));
    const ids: string[] = [];
    for (const { priority, title } of sends) {
      const response = await api('POST', `${BASE}/send`, { customer_ids: [customer.id], title, body: 'b', channel: 'in_app', priority, schedule_at: scheduleAt });
      expect(response.body.data.status).toBe('scheduled');
      ids.push(response.body.data.notification_id);
    }
    for (const id of ids) expect(await completed(id, 30_000)).toMatchObject({ delivered: 1 });
    const { rows } = await platform.sql.query('select count(distinct sent_at)::int as starts from notification.v1_notification where id = any($1::uuid[])', [ids]);
    expect(rows[0].starts).toBe(1);
    // The in-app copies, oldest first: both high ones, both normal ones, then both low ones.
    const priorityOf = new Map(sends.map(({ priority, title }) => [title, priority]));
    const arrived = (await inAppsOf(customer.token)).map((item) => priorityOf.get(item.title_en)).filter(Boolean).reverse();
    expect(arrived).toEqual(['high', 'high', 'normal', 'normal', 'low', 'low']);
  });
});

describe('POST /api/v1/notifications/send-to-segment', () => {
  it("resolves the segment's members when sending begins and delivers to each", async () => {
    const segmentId = await manualSegment([members[0].id, members[2].id]);
    const title = unique('Segment news ');
    const response = await api('POST', `${BASE}/send-to-segment`, { segment_id: segmentId, title, body: 'For you', channel: 'in_app' });
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ status: 'sending', total_recipients: 2 });
    const done = await completed(response.body.data.notification_id);
    expect(done).toMatchObject({ segment_id: segmentId, total_recipients: 2, delivered: 2, failed: 0 });
    expect((await inAppsOf(members[0].token)).some((item) => item.title_en === title)).toBe(true);
    expect((await inAppsOf(members[1].token)).some((item) => item.title_en === title)).toBe(false);
  });

  it('a scheduled segment send takes the members of the segment at its time', async () => {
    const segmentId = await manualSegment([members[1].id]);
    const title = unique('Segment later ');
    const response = await api('POST', `${BASE}/send-to-segment`, { segment_id: segmentId, title, body: 'b', channel: 'in_app', schedule_at: new Date(Date.now() + 2000).toISOString() });
    expect(response.body.data).toMatchObject({ status: 'scheduled', total_recipients: 1 });
    expect((await api('POST', `/cluster/api/segments/${segmentId}/members`, { memberIds: [members[3].id] }, admin.token)).status).toBeLessThan(300);
    const done = await completed(response.body.data.notification_id, 30_000);
    expect(done).toMatchObject({ total_recipients: 2, delivered: 2 });
    expect((await inAppsOf(members[3].token)).some((item) => item.title_en === title)).toBe(true);
  });

  it('a segment deleted before its scheduled time: the send completes with no recipient and a note', async () => {
    const segmentId = await manualSegment([members[0].id]);
    const title = unique('Segment gone ');
    const response = await api('POST', `${BASE}/send-to-segment`, { segment_id: segmentId, title, body: 'b', channel: 'in_app', schedule_at: new Date(Date.now() + 2000).toISOString() });
    expect(response.body.data).toMatchObject({ status: 'scheduled', total_recipients: 1 });
    expect((await api('DELETE', `/cluster/api/segments/${segmentId}`, undefined, admin.token)).status).toBe(200);
    const done = await completed(response.body.data.notification_id, 30_000);
    expect(done).toMatchObject({ segment_id: segmentId, total_recipients: 0, delivered: 0, failed: 0, skipped: 0, note: 'the segment no longer existed when sending reached it' });
    expect(done.sent_at).toMatch(V1_TIME);
    expect((await inAppsOf(members[0].token)).some((item) => item.title_en === title)).toBe(false);
  });

  it('segmentMemberIds walks a segment in member id order, page after page (needs segment:read)', async () => {
    const ids = [members[0].id, members[1].id, members[2].id];
    const segmentId = await manualSegment(ids);
    const query = `query($id: ID!, $after: ID) { segmentMemberIds(id: $id, after: $after, limit: 2) }`;
    const first = await platform.graphql(query, { id: segmentId }, admin.token);
    const second = await platform.graphql(query, { id: segmentId, after: first.body.data.segmentMemberIds[1] }, admin.token);
    expect([...first.body.data.segmentMemberIds, ...second.body.data.segmentMemberIds]).toEqual([...ids].sort());
    expect(second.body.data.segmentMemberIds).toHaveLength(1);
    expect((await platform.graphql(query, { id: segmentId }, members[0].token)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('an unknown segment is 404 SEGMENT_NOT_FOUND; customer_ids here and a missing segment_id are 400', async () => {
    const unknown = await api('POST', `${BASE}/send-to-segment`, { segment_id: randomUUID(), title: 't', body: 'b', channel: 'in_app' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('SEGMENT_NOT_FOUND');
    const bad = await api('POST', `${BASE}/send-to-segment`, { customer_ids: [members[0].id], title: 't', body: 'b', channel: 'in_app' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['customer_ids', 'segment_id']);
  });
});

describe('GET /api/v1/notifications and /{id}', () => {
  it('lists newest first with filters and pagination; staff with notification:read (tenant) may read', async () => {
    const sms = await send({ customer_ids: [members[0].id], title: unique('Sms '), body: 'b', channel: 'sms' });
    const inApp = await send({ customer_ids: [members[0].id], title: unique('In app '), body: 'b', channel: 'in_app' });
    await completed(inApp);
    const list = await api('GET', `${BASE}?limit=2`, undefined, tenant.token);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 2, total: expect.any(Number) });
    expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([inApp, sms]);
    const bySms = await api('GET', `${BASE}?channel=sms&limit=100`);
    expect(bySms.body.data.every((item: { channel: string }) => item.channel === 'sms')).toBe(true);
    expect(bySms.body.data.map((item: { id: string }) => item.id)).toContain(sms);
    const done = await api('GET', `${BASE}?status=completed&channel=in_app&limit=100`);
    expect(done.body.data.map((item: { id: string }) => item.id)).toContain(inApp);
    const today = new Date().toISOString().slice(0, 10);
    expect((await api('GET', `${BASE}?date_from=${today}&date_to=${today}&limit=100`)).body.data.map((item: { id: string }) => item.id)).toContain(inApp);
    expect((await api('GET', `${BASE}?date_to=2000-01-01`)).body.data).toEqual([]);
    const bad = await api('GET', `${BASE}?status=lost&channel=pigeon&date_from=x`);
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['channel', 'date_from', 'status']);
    expect((await api('GET', BASE, undefined, members[0].token)).status).toBe(403);
  });

  it('an unknown or malformed id is 404 NOTIFICATION_NOT_FOUND', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await api('GET', `${BASE}/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOTIFICATION_NOT_FOUND');
    }
  });
});

describe('GET /api/v1/notifications/track/{delivery} (tracked action_url)', () => {
  const follow = (link: string) => fetch(`${platform.restUrl}${new URL(link).pathname}${new URL(link).search}`, { redirect: 'manual' });

  it('redirects (302) to action_url without a token and counts the first click (and an open) once', async () => {
    const title = unique('Click ');
    const actionUrl = 'https://shop.example.com/deal?x=1';
    const id = await send({ customer_ids: [members[3].id], title, body: 'b', channel: 'in_app', action_url: actionUrl });
    expect((await completed(id)).action_url).toBe(actionUrl);
    const [copy] = (await inAppsOf(members[3].token)).filter((item) => item.title_en === title);
    expect(copy.metadata.actionUrl).toMatch(/\/api\/v1\/notifications\/track\/[0-9a-f-]{36}\?sig=[\w-]+$/);
    for (let i = 0; i < 2; i++) {
      const response = await follow(copy.metadata.actionUrl);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(actionUrl);
    }
    expect(await detail(id)).toMatchObject({ clicked: 1, opened: 1 });
    // Reading the copy afterwards counts no second open.
    expect((await platform.api('PATCH', `/notification/api/in-apps/${copy.id}/read`, { token: members[3].token, body: { read: true } })).status).toBe(200);
    expect(await detail(id)).toMatchObject({ clicked: 1, opened: 1 });
  });

  it('a link with a wrong signature or an unknown delivery is 404 NOTIFICATION_NOT_FOUND and counts nothing', async () => {
    const title = unique('Forged ');
    const id = await send({ customer_ids: [members[2].id], title, body: 'b', channel: 'in_app', action_url: 'https://shop.example.com/x' });
    await completed(id);
    const [copy] = (await inAppsOf(members[2].token)).filter((item) => item.title_en === title);
    const forged = copy.metadata.actionUrl.replace(/sig=[\w-]+$/, 'sig=AAAAAAAAAAAAAAAAAAAAAA');
    const unknown = copy.metadata.actionUrl.replace(/track\/[0-9a-f-]{36}/, `track/${randomUUID()}`);
    for (const link of [forged, unknown]) {
      const response = await follow(link);
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error.code).toBe('NOTIFICATION_NOT_FOUND');
    }
    expect((await detail(id)).clicked).toBe(0);
  });
});
