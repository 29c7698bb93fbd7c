import { EventStreamClient } from './support/event-stream-client';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// A database of its own: the test ends the platform's LISTEN connection, and only this platform listens on it.
const streams: EventStreamClient[] = [];
const { platform, marketing, member } = usePlatform({
  staff: ['marketing'],
  members: 1,
  beforeClose: async () => {
    for (const stream of streams) stream.close();
  },
});

const BASE = '/notification/api/in-apps';

async function openStream(headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const stream = await EventStreamClient.open(`${platform.restUrl}${BASE}/me/events`, { authorization: `Bearer ${member.token}`, ...headers });
  streams.push(stream);
  expect(stream.status).toBe(200);
  await waitFor(async () => stream.ofType('connected').length > 0, 'connected');
  return stream;
}

async function notify(): Promise<string> {
  const response = await platform.api('POST', BASE, { token: marketing.token, body: { memberId: member.id, title_en: unique('Title ') } });
  expect(response.status).toBe(201);
  return response.body.data.data.id;
}

const delivered = (stream: EventStreamClient, id: string) =>
  waitFor(async () => stream.ofType('new_notification').find((event) => event.data.data.id === id), `new_notification ${id}`);

it('ends the streams when the LISTEN connection is lost; the client resumes with Last-Event-ID and misses nothing', async () => {
  const stream = await openStream();
  const last = await delivered(stream, await notify());

  const { rows } = await platform.sql.query(
    `select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and query = 'listen notification_stream'`,
  );
  expect(rows).toEqual([{ ended: true }]);
  await waitFor(async () => stream.ended, 'the stream to end');

  const missed = await notify();
  const resumed = await openStream({ 'last-event-id': last.id! });
  await delivered(resumed, missed);
  const live = await notify();
  await delivered(resumed, live);
  expect(resumed.ofType('new_notification').map((event) => event.data.data.id)).toEqual([missed, live]);
});
