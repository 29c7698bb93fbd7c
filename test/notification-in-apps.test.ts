import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant, admin, members } = usePlatform({ staff: ['marketing', 'tenant', 'admin'], members: 3 });
const [owner, stranger, reader] = members;

const BASE = '/notification/api/in-apps';
const DAY = 24 * 3600 * 1000;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const errorFields = (body: any) => [...new Set<string>((body.data.errors ?? []).map((error: { field: string }) => error.field))].sort();
const ids = (response: { body: any }) => response.body.data.data.data.map((item: { id: string }) => item.id);

const create = (body: Record<string, unknown>, token = marketing.token) => platform.api('POST', BASE, { token, body });
const list = (query: string, token = marketing.token) => platform.api('GET', `${BASE}?${query}`, { token });
const mine = (query: string, token: string) => platform.api('GET', `${BASE}/me?${query}`, { token });
const markRead = (id: string, read: unknown, token: string) => platform.api('PATCH', `${BASE}/${id}/read`, { token, body: { read } });

/** A notification for `memberId` made through REST by marketing; its id. */
async function notify(memberId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const response = await create({ memberId, title_en: unique('Title '), content_en: 'Content', ...fields });
  expect(response.status).toBe(201);
  return response.body.data.data.id;
}

const setTimes = (id: string, createdAt: Date, updatedAt = createdAt) =>
  platform.sql.query('update notification.in_app_notification set created_at = $2, updated_at = $3 where id = $1', [id, createdAt, updatedAt]);
const eventsOf = async (type: string, memberId: string) =>
  (await platform.sql.query('select aggregate_id, payload from notification.outbox_event where type = $1 and aggregate_id = $2 order by sequence', [type, memberId])).rows;

describe('POST /in-apps (notification:manage)', () => {
  it('writes an unread notification, answers 201 with data.message and data.data, and records notification.created', async () => {
    const title_en = unique('Points in ');
    const response = await create({
      memberId: owner.id,
      title_en,
      title_th: 'คะแนนเข้า',
      content_en: 'You received 50 points',
      format: 'html',
      type: 'points',
      pointSubtype: 'point_received',
      metadata: { points: 50, source: 'receipt', transactionId: 'T-1', receiptImageUrl: 'https://cdn.example.com/r.png' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ statusCode: 201, data: { message: 'Notification created', data: expect.any(Object) } });
    const notification = response.body.data.data;
    expect(notification).toEqual({
      id: expect.any(String),
      memberId: owner.id,
      title_en,
      title_th: 'คะแนนเข้า',
      title_cn: null,
      content_en: 'You received 50 points',
      content_th: null,
      content_cn: null,
      format: 'html',
      type: 'points',
      pointSubtype: 'point_received',
      tierSubtype: null,
      metadata: { points: 50, source: 'receipt', transactionId: 'T-1', receiptImageUrl: 'https://cdn.example.com/r.png' },
      readAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const events = await eventsOf('notification.created', owner.id);
    expect(events.find((event) => event.payload.notificationId === notification.id)).toEqual({
      aggregate_id: owner.id,
      payload: expect.objectContaining({ notificationId: notification.id, memberId: owner.id, type: 'points', pointSubtype: 'point_received', title_en, format: 'html' }),
    });
  });

  it('defaults format to raw and type to news; titles and contents are optional', async () => {
    const response = await create({ memberId: owner.id });
    expect(response.status).toBe(201);
    expect(response.body.data.data).toMatchObject({ format: 'raw', type: 'news', title_en: null, content_en: null, metadata: null, readAt: null });
  });

  it('accepts the metadata of every kind as the spec lists it', async () => {
    const kinds: Array<Record<string, unknown>> = [
      { type: 'points', pointSubtype: 'receipt_error', metadata: { reason_en: 'Blurry', resolution_th: 'ถ่ายใหม่', canRetry: true, errorCode: 'E1', receiptImageUrl: 'http://x.example/a.jpg' } },
      { type: 'points', pointSubtype: 'receipt_processing', metadata: { status: 'analyzing', estimatedProcessingTime: '5 minutes', statusMessage_cn: '处理中', description_en: 'd' } },
      { type: 'points', pointSubtype: 'point_nearly_expire', metadata: { points: 10.5, expiryDate: '2027-01-31T00:00:00.000Z', daysRemaining: 3, source: 'earn' } },
      { type: 'points', pointSubtype: 'point_expired', metadata: { points: 10, expiryDate: '2026-01-31' } },
      { type: 'tier', tierSubtype: 'tier_upgraded', metadata: { validUntil: '2027-12-31', newTier_en: 'Gold', previousTier_en: 'Silver', benefits_th: ['a', 'b'], tierLogoUrl: 'https://x.example/l.png' } },
      { type: 'tier', tierSubtype: 'tier_adjusted', metadata: { reason_en: 'Audit', requirements_en: ['spend 100'] } },
      { type: 'tier', tierSubtype: 'tier_renewal_reminder', metadata: { expiryDate: '2027-01-01T00:00:00Z', daysRemaining: 30, currentTier_en: 'Gold' } },
      { type: 'promotion', metadata: { promotionId: 'P1', discount: 20, validUntil: '2027-01-01', terms: 't', rewardName_cn: '奖励', eventType: 'sale' } },
      { type: 'news', metadata: { newsId: 'N1', category: 'c', priority: 'high', tags: ['x', 'y'] } },
      {
        type: 'badge',
        metadata: {
          badgeId: 'B1',
          rarity: 'epic',
          badgeRarity: 'legendary',
          progressPercentage: 100,
          unlockPercentage: 0,
          daysLeft: null,
          earnedAt: '2026-11-01T10:00:00Z',
          unlockDescription: { en: 'Buy', th: 'ซื้อ' },
          badgeNames: { cn: '徽章' },
          badgeRule: { purchaseAmount: 100, withinDays: 30, window: { start: '2026-01-01T00:00:00Z', end: '2026-12-31T00:00:00Z' } },
          badgeImageUrl: 'https://x.example/b.png',
        },
      },
      { type: 'points' },
    ];
    for (const kind of kinds) {
      const response = await create({ memberId: stranger.id, ...kind });
      expect({ kind, status: response.status, errors: response.body.data.errors }).toEqual({ kind, status: 201, errors: undefined });
      expect(response.body.data.data.metadata).toEqual(kind.metadata ?? null);
    }
  });

  it('is 400 with a field error for each rule broken', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ memberId: 'not-a-uuid' }, ['memberId']],
      [{}, ['memberId']],
      [{ memberId: owner.id, title_en: 'x'.repeat(256), title_cn: 'y'.repeat(256) }, ['title_cn', 'title_en']],
      [{ memberId: owner.id, format: 'markdown' }, ['format']],
      [{ memberId: owner.id, type: 'alert' }, ['type']],
      [{ memberId: owner.id, type: 'points', pointSubtype: 'point_lost' }, ['pointSubtype']],
      [{ memberId: owner.id, type: 'news', pointSubtype: 'point_received' }, ['pointSubtype']],
      [{ memberId: owner.id, type: 'points', tierSubtype: 'tier_upgraded' }, ['tierSubtype']],
      [{ memberId: owner.id, type: 'points', metadata: { points: 5 } }, ['pointSubtype']],
      [{ memberId: owner.id, metadata: 'text' }, ['metadata']],
      [{ memberId: owner.id, type: 'points', pointSubtype: 'point_received', metadata: { points: '5', receiptImageUrl: 'javascript:alert(1)' } }, ['metadata.points', 'metadata.receiptImageUrl']],
      [{ memberId: owner.id, type: 'points', pointSubtype: 'point_received', metadata: { bonus: 1 } }, ['metadata.bonus']],
      [{ memberId: owner.id, type: 'points', pointSubtype: 'point_nearly_expire', metadata: { expiryDate: 'next week' } }, ['metadata.expiryDate']],
      [{ memberId: owner.id, type: 'points', pointSubtype: 'receipt_processing', metadata: { status: 'done' } }, ['metadata.status']],
      [{ memberId: owner.id, type: 'points', pointSubtype: 'receipt_error', metadata: { canRetry: 'yes' } }, ['metadata.canRetry']],
      [{ memberId: owner.id, type: 'tier', tierSubtype: 'tier_renewal_reminder', metadata: { currentTier_en: 'Gold' } }, ['metadata.daysRemaining', 'metadata.expiryDate']],
      [{ memberId: owner.id, type: 'tier', tierSubtype: 'tier_renewal_reminder' }, ['metadata.daysRemaining', 'metadata.expiryDate']],
      [{ memberId: owner.id, type: 'tier', tierSubtype: 'tier_upgraded', metadata: { benefits_en: 'all', tierLogoUrl: 'logo.png' } }, ['metadata.benefits_en', 'metadata.tierLogoUrl']],
      [{ memberId: owner.id, type: 'news', metadata: { priority: 'urgent', tags: [1] } }, ['metadata.priority', 'metadata.tags']],
      [{ memberId: owner.id, type: 'badge', metadata: { progressPercentage: 101, unlockPercentage: -1, rarity: 'mythic' } }, ['metadata.progressPercentage', 'metadata.rarity', 'metadata.unlockPercentage']],
      [{ memberId: owner.id, type: 'badge', metadata: { unlockDescription: { fr: 'x' }, badgeRule: { window: { start: 'soon' } } } }, ['metadata.badgeRule', 'metadata.unlockDescription']],
      [{ memberId: owner.id, type: 'promotion', metadata: { discount: 'ten', validUntil: '31/12/2026' } }, ['metadata.discount', 'metadata.validUntil']],
    ];
    for (const [body, fields] of cases) {
      const response = await create(body);
      expect({ body, status: response.status, fields: errorFields(response.body) }).toEqual({ body, status: 400, fields });
    }
    const count = await platform.sql.query('select count(*)::int as n from notification.in_app_notification where member_id = $1 and title_en = $2', [owner.id, 'x'.repeat(256)]);
    expect(count.rows[0].n).toBe(0);
  });

  it('is 401 without a token and 403 for tenant staff and members', async () => {
    expect((await platform.api('POST', BASE, { body: { memberId: owner.id } })).status).toBe(401);
    expect((await create({ memberId: owner.id }, tenant.token)).status).toBe(403);
    expect((await create({ memberId: owner.id }, owner.token)).status).toBe(403);
    expect((await create({ memberId: owner.id }, admin.token)).status).toBe(201);
  });

  it('works through GraphQL with the same rules', async () => {
    const mutation = `mutation ($input: CreateInAppNotificationInput!) { createInAppNotification(input: $input) { id memberId type tierSubtype metadata readAt } }`;
    const made = await platform.graphql(mutation, { input: { memberId: owner.id, type: 'tier', tierSubtype: 'tier_renewal_reminder', metadata: { expiryDate: '2027-01-01', daysRemaining: 5 } } }, marketing.token);
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.createInAppNotification).toMatchObject({ memberId: owner.id, type: 'tier', tierSubtype: 'tier_renewal_reminder', readAt: null });
    const refused = await platform.graphql(mutation, { input: { memberId: owner.id, type: 'badge', metadata: { progressPercentage: 150 } } }, marketing.token);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'metadata.progressPercentage', message: expect.any(String) }] });
  });
});

describe('GET /in-apps (notification:manage)', () => {
  const search = unique('needle');
  let oldest: string;
  let middle: string;
  let newest: string;
  let strangers: string;
  beforeAll(async () => {
    oldest = await notify(reader.id, { title_en: `${search} old`, type: 'promotion', format: 'html' });
    middle = await notify(reader.id, { title_en: 'middle', content_th: `เนื้อหา ${search}`, type: 'news' });
    newest = await notify(reader.id, { title_en: `${search} new`, type: 'news' });
    strangers = await notify(stranger.id, { title_cn: `${search} 陌生`, type: 'news' });
    await setTimes(oldest, new Date(Date.now() - 20 * DAY), new Date(Date.now() - 1 * DAY));
    await setTimes(middle, new Date(Date.now() - 10 * DAY));
    await setTimes(newest, new Date(Date.now() - 2 * DAY));
    await setTimes(strangers, new Date(Date.now() - 3 * DAY));
    expect((await markRead(middle, true, reader.token)).status).toBe(200);
  });

  it('answers the page in data.data, newest first, limit 20 unless given', async () => {
    const response = await list(`memberId=${reader.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: 'Notifications', data: { meta: { page: 1, limit: 20, total: 3, totalPages: 1 }, data: expect.any(Array) } } });
    expect(ids(response)).toEqual([newest, middle, oldest]);
    const second = await list(`memberId=${reader.id}&page=2&limit=2`);
    expect(second.body.data.data.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(ids(second)).toEqual([oldest]);
  });

  it('filters by member, read, format, type and search in any title or content', async () => {
    expect(ids(await list(`search=${search}`))).toEqual([newest, strangers, middle, oldest]);
    expect(ids(await list(`search=${search}&memberId=${stranger.id}`))).toEqual([strangers]);
    expect(ids(await list(`memberId=${reader.id}&read=true`))).toEqual([middle]);
    expect(ids(await list(`memberId=${reader.id}&read=false`))).toEqual([newest, oldest]);
    expect(ids(await list(`memberId=${reader.id}&read=all`))).toEqual([newest, middle, oldest]);
    expect(ids(await list(`memberId=${reader.id}&format=html`))).toEqual([oldest]);
    expect(ids(await list(`memberId=${reader.id}&type=news`))).toEqual([newest, middle]);
    expect(ids(await list(`memberId=${reader.id}&search=${search.toUpperCase()}%20NEW`))).toEqual([newest]);
    expect(ids(await list(`memberId=${reader.id}&search=%25`))).toEqual([]);
  });

  it('filters by dateFrom and dateTo on createdAt, or on updatedAt with dateField', async () => {
    const at = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    expect(ids(await list(`memberId=${reader.id}&dateFrom=${at(15)}`))).toEqual([newest, middle]);
    expect(ids(await list(`memberId=${reader.id}&dateTo=${at(15)}`))).toEqual([oldest]);
    expect(ids(await list(`memberId=${reader.id}&dateFrom=${at(15)}&dateTo=${at(5)}&dateField=createdAt`))).toEqual([middle]);
    expect(ids(await list(`memberId=${reader.id}&dateFrom=${at(1.5)}&dateField=updatedAt`))).toEqual([middle, oldest]);
  });

  it('projects titles and contents to locale, falling back to English', async () => {
    const response = await list(`memberId=${reader.id}&locale=th`);
    const byId = Object.fromEntries(response.body.data.data.data.map((item: any) => [item.id, item]));
    expect(byId[middle]).toMatchObject({ title_en: null, title_th: 'middle', title_cn: null, content_th: `เนื้อหา ${search}`, content_en: null });
    expect(byId[newest]).toMatchObject({ title_en: null, title_th: `${search} new`, content_th: 'Content' });
  });

  it('is 400 on bad filters, naming each field', async () => {
    const cases: Array<[string, string[]]> = [
      ['limit=0', ['limit']],
      ['limit=101', ['limit']],
      ['page=0', ['page']],
      ['memberId=nope', ['memberId']],
      ['read=yes', ['read']],
      ['format=pdf', ['format']],
      ['type=alert', ['type']],
      ['locale=fr', ['locale']],
      ['dateFrom=yesterday', ['dateFrom']],
      ['dateField=deletedAt', ['dateField']],
      [`dateFrom=${new Date().toISOString()}&dateTo=${new Date(Date.now() - DAY).toISOString()}`, ['dateTo']],
    ];
    for (const [query, fields] of cases) {
      const response = await list(query);
      expect({ query, status: response.status, fields: errorFields(response.body) }).toEqual({ query, status: 400, fields });
    }
  });

  it('is 401 without a token and 403 for tenant staff and members', async () => {
    expect((await platform.api('GET', BASE)).status).toBe(401);
    expect((await list('', tenant.token)).status).toBe(403);
    expect((await list('', reader.token)).status).toBe(403);
    expect((await list(`memberId=${reader.id}`, admin.token)).status).toBe(200);
  });

  it('works through GraphQL', async () => {
    const response = await platform.graphql(
      `query ($memberId: ID) { inAppNotifications(memberId: $memberId, read: "false", locale: cn) { meta { total limit } data { id title_cn title_en } } }`,
      { memberId: reader.id },
      marketing.token,
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.inAppNotifications.meta).toEqual({ total: 2, limit: 20 });
    expect(response.body.data.inAppNotifications.data.map((item: { id: string }) => item.id)).toEqual([newest, oldest]);
    expect(response.body.data.inAppNotifications.data[0]).toMatchObject({ title_cn: `${search} new`, title_en: null });
  });
});

describe("a member's own notifications: /me, /me/recent, /me/unread-count, /me/read-all", () => {
  let own: string[];
  let theirs: string;
  beforeAll(async () => {
    // The owner's notifications of the tests above are older than these.
    await platform.sql.query(`update notification.in_app_notification set created_at = now() - interval '1 day' where member_id = $1`, [owner.id]);
    own = [];
    for (let index = 0; index < 12; index += 1) {
      const id = await notify(owner.id, { title_en: `own ${index}`, title_th: `ของฉัน ${index}`, type: index % 2 === 0 ? 'news' : 'promotion' });
      await setTimes(id, new Date(Date.now() - (100 - index) * 60_000));
      own.push(id);
    }
    theirs = await notify(stranger.id, { title_en: 'not yours' });
  });
  const newestFirst = () => [...own].reverse();
  const ownIds = async (query: string) => (await mine(query, owner.token)).body.data.data.data.map((item: { id: string }) => item.id).filter((id: string) => own.includes(id));

  it("lists the caller's own with every filter; a memberId in the query is ignored", async () => {
    const response = await mine(`memberId=${stranger.id}&search=own`, owner.token);
    expect(response.status).toBe(200);
    expect(response.body.data.message).toBe('Notifications');
    expect(response.body.data.data.meta).toMatchObject({ page: 1, limit: 20, total: 12 });
    expect(ids(response)).toEqual(newestFirst());
    expect(ids(response)).not.toContain(theirs);
    expect(await ownIds('search=own&type=promotion&limit=3')).toEqual(newestFirst().filter((_, index) => index % 2 === 0).slice(0, 3));
    const thai = await mine('search=own%2011&locale=th', owner.token);
    expect(thai.body.data.data.data[0]).toMatchObject({ id: own[11], title_th: 'ของฉัน 11', title_en: null });
    const bad = await mine('limit=500&read=maybe', owner.token);
    expect({ status: bad.status, fields: errorFields(bad.body) }).toEqual({ status: 400, fields: ['limit', 'read'] });
  });

  it('answers the newest 10 by default in /me/recent, or limit of them', async () => {
    const recent = await platform.api('GET', `${BASE}/me/recent`, { token: owner.token });
    expect(recent.status).toBe(200);
    expect(recent.body.data.data.map((item: { id: string }) => item.id)).toEqual(newestFirst().slice(0, 10));
    const three = await platform.api('GET', `${BASE}/me/recent?limit=3&locale=th`, { token: owner.token });
    expect(three.body.data.data.map((item: { id: string }) => item.id)).toEqual(newestFirst().slice(0, 3));
    expect(three.body.data.data[0]).toMatchObject({ title_th: 'ของฉัน 11', title_en: null });
    const bad = await platform.api('GET', `${BASE}/me/recent?limit=101`, { token: owner.token });
    expect({ status: bad.status, fields: errorFields(bad.body) }).toEqual({ status: 400, fields: ['limit'] });
  });

  it('counts the unread, marks one read and unread, then all read with updatedCount and notification.read events', async () => {
    const count = async () => (await platform.api('GET', `${BASE}/me/unread-count`, { token: owner.token })).body.data.data.unreadCount;
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(12);

    const read = await markRead(own[0], true, owner.token);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ message: 'Notification marked read', data: { id: own[0], readAt: expect.stringMatching(ISO_MS), updatedAt: expect.stringMatching(ISO_MS) } });
    expect(await count()).toBe(before - 1);
    const again = await markRead(own[0], true, owner.token);
    expect(again.body.data.data.readAt).toBe(read.body.data.data.readAt);
    const unread = await markRead(own[0], false, owner.token);
    expect(unread.body.data).toEqual({ message: 'Notification marked unread', data: { id: own[0], readAt: null, updatedAt: expect.stringMatching(ISO_MS) } });
    expect(await count()).toBe(before);
    const singles = (await eventsOf('notification.read', owner.id)).filter((event) => event.payload.notificationId === own[0]);
    expect(singles).toEqual([{ aggregate_id: owner.id, payload: { memberId: owner.id, notificationId: own[0], updatedCount: 1, readAt: read.body.data.data.readAt } }]);

    const all = await platform.api('PATCH', `${BASE}/me/read-all`, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({ message: 'Notifications marked read', data: { updatedCount: before } });
    expect(await count()).toBe(0);
    expect(await ownIds('read=false&search=own')).toEqual([]);
    const bulk = (await eventsOf('notification.read', owner.id)).filter((event) => event.payload.notificationId === null);
    expect(bulk).toEqual([{ aggregate_id: owner.id, payload: { memberId: owner.id, notificationId: null, updatedCount: before, readAt: expect.stringMatching(ISO_MS) } }]);
    const nothingLeft = await platform.api('PATCH', `${BASE}/me/read-all`, { token: owner.token });
    expect(nothingLeft.body.data.data).toEqual({ updatedCount: 0 });
    expect((await eventsOf('notification.read', owner.id)).filter((event) => event.payload.notificationId === null)).toHaveLength(1);
    const strangerUnread = await platform.api('GET', `${BASE}/me/unread-count`, { token: stranger.token });
    expect(strangerUnread.body.data.data.unreadCount).toBeGreaterThan(0);
  });

  it('are for members: staff are 403, no token 401', async () => {
    for (const path of ['/me', '/me/recent', '/me/unread-count']) {
      expect({ path, status: (await platform.api('GET', `${BASE}${path}`, { token: marketing.token })).status }).toEqual({ path, status: 403 });
      expect({ path, status: (await platform.api('GET', `${BASE}${path}`)).status }).toEqual({ path, status: 401 });
    }
    expect((await platform.api('PATCH', `${BASE}/me/read-all`, { token: marketing.token })).status).toBe(403);
    expect((await platform.api('PATCH', `${BASE}/me/read-all`)).status).toBe(401);
  });

  it('work through GraphQL', async () => {
    const response = await platform.graphql(
      `{ myUnreadInAppNotificationCount { unreadCount } myRecentInAppNotifications(limit: 2) { id } myInAppNotifications(search: "own", limit: 1) { meta { total } data { id } } }`,
      {},
      owner.token,
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      myUnreadInAppNotificationCount: { unreadCount: 0 },
      myRecentInAppNotifications: [{ id: own[11] }, { id: own[10] }],
      myInAppNotifications: { meta: { total: 12 }, data: [{ id: own[11] }] },
    });
    const readAll = await platform.graphql(`mutation { markAllMyInAppNotificationsRead { updatedCount } }`, {}, stranger.token);
    expect(readAll.body.data.markAllMyInAppNotificationsRead.updatedCount).toBeGreaterThan(0);
  });
});

describe('GET, PUT, PATCH read and DELETE /in-apps/:id', () => {
  let id: string;
  beforeAll(async () => {
    id = await notify(owner.id, { title_en: 'One', title_th: 'หนึ่ง', content_en: 'Body', type: 'news', metadata: { priority: 'low' } });
  });

  it('answers notification:manage and the owning member, projected to locale', async () => {
    const staff = await platform.api('GET', `${BASE}/${id}`, { token: marketing.token });
    expect(staff.status).toBe(200);
    expect(staff.body.data).toEqual({ message: 'Notification found', data: expect.objectContaining({ id, memberId: owner.id, title_en: 'One', title_th: 'หนึ่ง' }) });
    const own = await platform.api('GET', `${BASE}/${id}?locale=th`, { token: owner.token });
    expect(own.body.data.data).toMatchObject({ id, title_en: null, title_th: 'หนึ่ง', title_cn: null, content_th: 'Body', content_en: null });
    const chinese = await platform.graphql(`query ($id: ID!) { inAppNotification(id: $id, locale: cn) { title_cn title_th } }`, { id }, owner.token);
    expect(chinese.body.data.inAppNotification).toEqual({ title_cn: 'One', title_th: null });
  });

  it("is 404 for another member's notification, an unknown id and a non-UUID; 403 for tenant staff; 401 without a token", async () => {
    const theirs = await platform.api('GET', `${BASE}/${id}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.data).toMatchObject({ message: 'Notification not found' });
    expect((await platform.api('GET', `${BASE}/${randomUUID()}`, { token: marketing.token })).status).toBe(404);
    expect((await platform.api('GET', `${BASE}/not-an-id`, { token: marketing.token })).status).toBe(404);
    expect((await platform.api('GET', `${BASE}/${id}`, { token: tenant.token })).status).toBe(403);
    expect((await platform.api('GET', `${BASE}/${id}`)).status).toBe(401);
  });

  it("a member cannot mark another member's notification; staff can; read is a required boolean", async () => {
    const theirs = await markRead(id, true, stranger.token);
    expect(theirs.status).toBe(404);
    expect((await platform.sql.query('select read_at from notification.in_app_notification where id = $1', [id])).rows[0].read_at).toBeNull();
    const byStaff = await markRead(id, true, marketing.token);
    expect(byStaff.status).toBe(200);
    expect(byStaff.body.data.data.readAt).toEqual(expect.stringMatching(ISO_MS));
    expect((await markRead(id, false, marketing.token)).body.data.data.readAt).toBeNull();
    expect((await markRead(id, true, tenant.token)).status).toBe(403);
    expect((await markRead(id, true, '')).status).toBe(401);
    const missing = await platform.api('PATCH', `${BASE}/${id}/read`, { token: owner.token, body: {} });
    expect({ status: missing.status, fields: errorFields(missing.body) }).toEqual({ status: 400, fields: ['read'] });
    const wrong = await markRead(id, 'yes', owner.token);
    expect({ status: wrong.status, fields: errorFields(wrong.body) }).toEqual({ status: 400, fields: ['read'] });
    expect((await markRead(randomUUID(), true, owner.token)).status).toBe(404);
    const graphql = await platform.graphql(`mutation ($id: ID!) { markInAppNotificationRead(id: $id, read: true) { id readAt } }`, { id }, stranger.token);
    expect(graphql.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('PUT changes the given fields (notification:manage); the kind rules apply to the result', async () => {
    const put = (body: Record<string, unknown>, token = marketing.token) => platform.api('PUT', `${BASE}/${id}`, { token, body });
    const updated = await put({ title_cn: '一', content_en: 'New body', format: 'html' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({
      message: 'Notification updated',
      data: expect.objectContaining({ id, title_en: 'One', title_th: 'หนึ่ง', title_cn: '一', content_en: 'New body', format: 'html', type: 'news', metadata: { priority: 'low' } }),
    });
    const cleared = await put({ title_th: null, metadata: null });
    expect(cleared.body.data.data).toMatchObject({ title_th: null, metadata: null, title_en: 'One' });
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ type: 'tier', tierSubtype: 'tier_renewal_reminder' }, ['metadata.daysRemaining', 'metadata.expiryDate']],
      [{ pointSubtype: 'point_expired' }, ['pointSubtype']],
      [{ metadata: { priority: 'critical' } }, ['metadata.priority']],
      [{ title_en: 'z'.repeat(256), memberId: 'x' }, ['memberId', 'title_en']],
      [{ type: null }, ['type']],
    ];
    for (const [body, fields] of cases) {
      const response = await put(body);
      expect({ body, status: response.status, fields: errorFields(response.body) }).toEqual({ body, status: 400, fields });
    }
    const changed = await put({ type: 'points', pointSubtype: 'point_expired', metadata: { points: 3, expiryDate: '2026-10-01' } });
    expect(changed.body.data.data).toMatchObject({ type: 'points', pointSubtype: 'point_expired', metadata: { points: 3, expiryDate: '2026-10-01' } });
    expect((await put({ title_en: 'x' }, owner.token)).status).toBe(403);
    expect((await put({ title_en: 'x' }, tenant.token)).status).toBe(403);
    expect((await platform.api('PUT', `${BASE}/${randomUUID()}`, { token: marketing.token, body: { title_en: 'x' } })).status).toBe(404);
    const graphql = await platform.graphql(`mutation ($id: ID!) { updateInAppNotification(id: $id, input: { title_en: "Via GraphQL" }) { title_en } }`, { id }, marketing.token);
    expect(graphql.body.data.updateInAppNotification.title_en).toBe('Via GraphQL');
  });

  it('DELETE soft-deletes (notification:manage): gone from reads, lists, counts and marks; the row stays', async () => {
    const doomed = await notify(reader.id, { title_en: unique('doomed ') });
    expect((await platform.api('DELETE', `${BASE}/${doomed}`, { token: reader.token })).status).toBe(403);
    expect((await platform.api('DELETE', `${BASE}/${doomed}`, { token: tenant.token })).status).toBe(403);
    const countBefore = (await platform.api('GET', `${BASE}/me/unread-count`, { token: reader.token })).body.data.data.unreadCount;
    const deleted = await platform.api('DELETE', `${BASE}/${doomed}`, { token: marketing.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ statusCode: 200, data: { message: 'Notification deleted' } });
    expect((await platform.api('GET', `${BASE}/${doomed}`, { token: marketing.token })).status).toBe(404);
    expect((await platform.api('GET', `${BASE}/${doomed}`, { token: reader.token })).status).toBe(404);
    expect(ids(await list(`memberId=${reader.id}`))).not.toContain(doomed);
    expect(ids(await mine('', reader.token))).not.toContain(doomed);
    expect((await platform.api('GET', `${BASE}/me/unread-count`, { token: reader.token })).body.data.data.unreadCount).toBe(countBefore - 1);
    expect((await markRead(doomed, true, reader.token)).status).toBe(404);
    expect((await platform.api('PUT', `${BASE}/${doomed}`, { token: marketing.token, body: { title_en: 'x' } })).status).toBe(404);
    expect((await platform.api('DELETE', `${BASE}/${doomed}`, { token: marketing.token })).status).toBe(404);
    await platform.api('PATCH', `${BASE}/me/read-all`, { token: reader.token });
    const row = (await platform.sql.query('select deleted_at, read_at from notification.in_app_notification where id = $1', [doomed])).rows[0];
    expect(row.deleted_at).toBeInstanceOf(Date);
    expect(row.read_at).toBeNull();
    const graphql = await platform.graphql(`mutation ($id: ID!) { deleteInAppNotification(id: $id) { id deletedAt } }`, { id: await notify(reader.id) }, marketing.token);
    expect(graphql.body.data.deleteInAppNotification.deletedAt).toEqual(expect.stringMatching(ISO_MS));
  });
});
