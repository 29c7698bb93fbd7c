import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { INTERNAL_CREDENTIAL_HEADER } from '../core/auth/internal-credential';
import { EventStreamClient, ReceivedEvent } from './support/event-stream-client';
import { PartProcesses } from './support/part-processes';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const parts = new PartProcesses();
const dataDirs: string[] = [];
const { platform, marketing, admin, members } = usePlatform({
  staff: ['marketing', 'admin'],
  members: 9,
  env: { STREAM_HEARTBEAT_SECONDS: '1', STREAM_MAX_PER_MEMBER: '3' },
  beforeClose: async () => {
    for (const stream of streams) stream.close();
    await parts.stopAll();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  },
});
const [owner, stranger, limited, resumer, remote, reader, localized, listener, neighbour] = members;

afterEach(() => {
  for (const stream of streams) stream.close();
});

const BASE = '/notification/api/in-apps';
const EVENTS = `${BASE}/me/events`;
const streams: EventStreamClient[] = [];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Opens `token`'s stream through the REST adapter (closed after the file). */
async function openStream(token: string | undefined, query = '', headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const stream = await EventStreamClient.open(`${platform.restUrl}${EVENTS}${query}`, { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });
  streams.push(stream);
  return stream;
}

/** Waits for the first event of `stream` that `matches`. */
const eventOf = (stream: EventStreamClient, what: string, matches: (event: ReceivedEvent) => boolean) =>
  waitFor(async () => stream.events.find(matches), what);
const notificationEvent = (stream: EventStreamClient, id: string) =>
  eventOf(stream, `new_notification ${id}`, (event) => event.data.type === 'new_notification' && event.data.data?.id === id);

/** A notification for `memberId` made through REST by marketing (another connection than the stream's); its id. */
async function notify(memberId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const response = await platform.api('POST', BASE, { token: marketing.token, body: { memberId, title_en: unique('Title '), content_en: 'Content', ...fields } });
  expect(response.status).toBe(201);
  return response.body.data.data.id;
}

describe('GET /in-apps/me/events', () => {
  it('refuses a request without a valid token (401) and a staff token (403), as JSON', async () => {
    const anonymous = await openStream(undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ statusCode: 401, data: { message: 'Unauthorized: missing token (Authorization: Bearer <access token>)' } });
    expect((await openStream('not-a-token')).status).toBe(401);
    const staff = await openStream(admin.token);
    expect(staff.status).toBe(403);
    expect(staff.body.statusCode).toBe(403);
  });

  it('refuses an unknown locale and a malformed Last-Event-ID with 400 and the field', async () => {
    const badLocale = await openStream(owner.token, '?locale=fr');
    expect(badLocale.status).toBe(400);
    expect(badLocale.body.data.errors).toEqual([expect.objectContaining({ field: 'locale' })]);
    const badId = await openStream(owner.token, '', { 'last-event-id': 'drop table' });
    expect(badId.status).toBe(400);
    expect(badId.body.data.errors).toEqual([expect.objectContaining({ field: 'lastEventId' })]);
  });

  it('opens with connected, then sends new_notification for a notification created through REST', async () => {
    const stream = await openStream(owner.token);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    const connected = await eventOf(stream, 'connected', () => true);
    expect(connected).toEqual({ data: { type: 'connected', message: 'Connected to the notification stream', timestamp: expect.stringMatching(ISO_MS), locale: null }, receivedAt: expect.any(Number) });

    const id = await notify(owner.id, { title_th: 'หัวข้อ', type: 'points', pointSubtype: 'point_received', metadata: { points: 5 } });
    const event = await notificationEvent(stream, id);
    expect(event.id).toMatch(/^\d+$/);
    expect(event.data).toEqual({
      type: 'new_notification',
      timestamp: expect.stringMatching(ISO_MS),
      locale: null,
      data: expect.objectContaining({ id, memberId: owner.id, title_th: 'หัวข้อ', content_en: 'Content', type: 'points', pointSubtype: 'point_received', metadata: { points: 5 }, readAt: null }),
    });
    expect(stream.events[0].data.type).toBe('connected');
  });

  it("never delivers another member's notifications", async () => {
    const strangerStream = await openStream(stranger.token);
    const neighbourStream = await openStream(neighbour.token);
    await eventOf(strangerStream, 'connected', () => true);
    await eventOf(neighbourStream, 'connected', () => true);
    const neighboursNotification = await notify(neighbour.id);
    const strangersNotification = await notify(stranger.id);
    await notificationEvent(strangerStream, strangersNotification);
    await notificationEvent(neighbourStream, neighboursNotification);
    expect(strangerStream.ofType('new_notification').map((event) => event.data.data.id)).toEqual([strangersNotification]);
    expect(neighbourStream.ofType('new_notification').map((event) => event.data.data.id)).toEqual([neighboursNotification]);
  });

  it('sends notification_read when the member marks one read, and when it reads them all', async () => {
    const stream = await openStream(reader.token);
    await eventOf(stream, 'connected', () => true);
    const id = await notify(reader.id);
    await notificationEvent(stream, id);
    expect((await platform.api('PATCH', `${BASE}/${id}/read`, { token: reader.token, body: { read: true } })).status).toBe(200);
    const read = await eventOf(stream, 'notification_read', (event) => event.data.type === 'notification_read' && event.data.data.notificationId === id);
    expect(read.data).toEqual({ type: 'notification_read', timestamp: expect.stringMatching(ISO_MS), locale: null, data: { notificationId: id, updatedCount: 1, readAt: expect.stringMatching(ISO_MS) } });

    await notify(reader.id);
    await notify(reader.id);
    const readAll = await platform.api('PATCH', `${BASE}/me/read-all`, { token: reader.token });
    expect(readAll.status).toBe(200);
    const all = await eventOf(stream, 'read-all', (event) => event.data.type === 'notification_read' && event.data.data.notificationId === null);
    expect(all.data.data.updatedCount).toBe(readAll.body.data.data.updatedCount);
    expect(Number(all.id)).toBeGreaterThan(Number(read.id));
  });

  it('localizes the events to ?locale=, falling back to English', async () => {
    const stream = await openStream(localized.token, '?locale=th');
    const connected = await eventOf(stream, 'connected', () => true);
    expect(connected.data.locale).toBe('th');
    const thai = await notify(localized.id, { title_en: 'Hello', title_th: 'สวัสดี', title_cn: '你好', content_en: 'Body' });
    const event = await notificationEvent(stream, thai);
    expect(event.data).toMatchObject({ locale: 'th', data: { title_en: null, title_th: 'สวัสดี', title_cn: null, content_en: null, content_th: 'Body', content_cn: null } });
  });

  it('sends a heartbeat every interval (1 s here), with its time and locale', async () => {
    const stream = await openStream(listener.token, '?locale=cn');
    const heartbeat = await eventOf(stream, 'heartbeat', (event) => event.data.type === 'heartbeat');
    expect(heartbeat).toEqual({ data: { type: 'heartbeat', timestamp: expect.stringMatching(ISO_MS), locale: 'cn' }, receivedAt: expect.any(Number) });
  });

  it('replays what a client missed after its Last-Event-ID, then goes on live', async () => {
    const first = await openStream(resumer.token);
    await eventOf(first, 'connected', () => true);
    const seen = await notify(resumer.id);
    const last = await notificationEvent(first, seen);
    first.close();

    const missed = [await notify(resumer.id), await notify(resumer.id)];
    await notify(stranger.id);
    const again = await openStream(resumer.token, '', { 'last-event-id': last.id! });
    const replayed = await Promise.all(missed.map((id) => notificationEvent(again, id)));
    const live = await notify(resumer.id);
    await notificationEvent(again, live);
    expect(again.events.filter((event) => event.data.type !== 'heartbeat').map((event) => event.data.type === 'connected' ? 'connected' : event.data.data.id)).toEqual([
      'connected',
      ...missed,
      live,
    ]);
    expect(Number(replayed[0].id)).toBeGreaterThan(Number(last.id));
    expect(Number(replayed[1].id)).toBeGreaterThan(Number(replayed[0].id));
  });

  it('bounds the open streams of a member, and frees a slot when a client leaves', async () => {
    const open = await Promise.all([1, 2, 3].map(() => openStream(limited.token)));
    for (const stream of open) await eventOf(stream, 'connected', () => true);
    const refused = await openStream(limited.token);
    expect(refused.status).toBe(429);
    expect(refused.body.data.message).toMatch(/Too many open notification streams/);
    open[0].close();
    const reopened = await waitFor(async () => {
      const attempt = await openStream(limited.token);
      return attempt.status === 200 ? attempt : undefined;
    }, 'a slot freed by the client that left');
    await eventOf(reopened, 'connected', () => true);
  });

  it('is one request of its member: the gateway does not count the adapter\'s subscription again', async () => {
    const member = await platform.loginMember();
    const remaining = async () => Number((await platform.api('GET', '/auth/api/members/me', { token: member.token })).headers.get('x-ratelimit-remaining'));
    const before = await remaining();
    const stream = await openStream(member.token);
    await eventOf(stream, 'connected', (event) => event.data.type === 'connected');
    expect(Number(stream.headers['x-ratelimit-remaining'])).toBe(before - 1);
    expect(await remaining()).toBe(before - 2);
  });

  it('serves the same events over graphql-ws through the gateway', async () => {
    const client = createClient({ url: platform.gatewayUrl.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${stranger.token}` } });
    const received: any[] = [];
    let id: string | undefined;
    const done = (async () => {
      for await (const result of client.iterate({ query: 'subscription { myNotificationEvents(locale: en) { id type notification { id title_en } } }' })) {
        received.push(result);
        if (received.length === 1) id = await notify(stranger.id, { title_en: 'Over graphql-ws' });
        if (received.length === 2) break;
      }
    })();
    await done;
    await client.dispose();
    expect(received).toEqual([
      { data: { myNotificationEvents: { id: null, type: 'connected', notification: null } } },
      { data: { myNotificationEvents: { id: expect.stringMatching(/^\d+$/), type: 'new_notification', notification: { id, title_en: 'Over graphql-ws' } } } },
    ]);
  });

  it('delivers a notification created by another process than the one holding the stream', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'notification-part-'));
    dataDirs.push(dataDir);
    const other = await parts.start('notification', {
      DATABASE_URL: platform.databaseUrl,
      JWT_SECRET: platform.config.jwtSecret,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NOTIFICATION_PORT: '0',
      GATEWAY_URL: platform.gatewayUrl,
    });
    const stream = await openStream(remote.token);
    await eventOf(stream, 'connected', () => true);
    const response = await fetch(other.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${marketing.token}`, [INTERNAL_CREDENTIAL_HEADER]: platform.config.internalSecret },
      body: JSON.stringify({ query: 'mutation ($input: CreateInAppNotificationInput!) { createInAppNotification(input: $input) { id } }', variables: { input: { memberId: remote.id, title_en: 'From afar' } } }),
    });
    const created = (await response.json()) as any;
    expect(created.errors).toBeUndefined();
    const event = await notificationEvent(stream, created.data.createInAppNotification.id);
    expect(event.data.data.title_en).toBe('From afar');
  }, 60_000);
});
