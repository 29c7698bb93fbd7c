import { startFakeTranslate, FakeTranslate, TRANSLATE_KEY } from './support/fake-translate';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

let translator: FakeTranslate;
beforeAll(async () => {
  translator = await startFakeTranslate();
});
afterAll(() => translator?.close());

// A database of its own: no other test file's platform (without a provider) works this one's translation queue.
const { platform, marketing, member } = usePlatform({
  staff: ['marketing'],
  members: 1,
  env: () => ({ TRANSLATE_URL: translator.url, TRANSLATE_API_KEY: TRANSLATE_KEY, TRANSLATE_RETRY_LIMIT: '2', TRANSLATE_RETRY_DELAY_SECONDS: '1' }),
});

const BASE = '/notification/api/in-apps';
const QUEUE = 'notification.translate';

const create = (body: Record<string, unknown>) => platform.api('POST', BASE, { token: marketing.token, body: { memberId: member.id, ...body } });
const stored = async (id: string) =>
  (await platform.sql.query('select title_en, title_th, title_cn, content_en, content_th, content_cn from notification.in_app_notification where id = $1', [id])).rows[0];
const jobsOf = async (queue: string, notificationId: string) =>
  (await platform.sql.query(`select state from pgboss.job where name = $1 and data->>'notificationId' = $2`, [queue, notificationId])).rows.map((row) => row.state);
const callsFor = (text: string) => translator.calls.filter((call) => call.q === text);

afterEach(() => {
  translator.down = false;
  translator.answer = undefined;
  translator.failWhen = undefined;
});

describe('translation of notifications given in English only', () => {
  it('fills the Thai and Chinese title and content at create when the provider answers, queuing no job', async () => {
    const title = unique('Welcome ');
    const response = await create({ title_en: title, content_en: 'Thanks for joining' });
    expect(response.status).toBe(201);
    expect(response.body.data.data).toMatchObject({
      title_en: title,
      title_th: `[th] ${title}`,
      title_cn: `[zh] ${title}`,
      content_en: 'Thanks for joining',
      content_th: '[th] Thanks for joining',
      content_cn: '[zh] Thanks for joining',
    });
    expect(callsFor(title).map(({ source, target, format, api_key }) => ({ source, target, format, api_key })).sort((a, b) => a.target.localeCompare(b.target))).toEqual([
      { source: 'en', target: 'th', format: 'text', api_key: TRANSLATE_KEY },
      { source: 'en', target: 'zh', format: 'text', api_key: TRANSLATE_KEY },
    ]);
    expect(await jobsOf(QUEUE, response.body.data.data.id)).toEqual([]);
    const event = await platform.sql.query(`select payload from notification.outbox_event where type = 'notification.created' and payload->>'notificationId' = $1`, [response.body.data.data.id]);
    expect(event.rows[0].payload).toMatchObject({ title_th: `[th] ${title}`, content_cn: '[zh] Thanks for joining' });
  });

  it('translates only the languages not given', async () => {
    const title = unique('Half ');
    const response = await create({ title_en: title, title_th: 'ของฉันเอง' });
    expect(response.status).toBe(201);
    expect(response.body.data.data).toMatchObject({ title_th: 'ของฉันเอง', title_cn: `[zh] ${title}`, content_en: null, content_th: null, content_cn: null });
    expect(callsFor(title).map((call) => call.target)).toEqual(['zh']);
  });

  it('keeps HTML as HTML: the content goes as html, its tags come back unchanged', async () => {
    const content = `<p>Hello <b>${unique('friend')}</b></p>`;
    const response = await create({ title_en: unique('Html '), content_en: content, format: 'html' });
    expect(response.status).toBe(201);
    const text = content.replace('<p>Hello <b>', '').replace('</b></p>', '');
    expect(response.body.data.data).toMatchObject({ content_th: `<p>[th] Hello <b>[th] ${text}</b></p>`, content_cn: `<p>[zh] Hello <b>[zh] ${text}</b></p>` });
    expect(callsFor(content).map((call) => call.format)).toEqual(['html', 'html']);
  });

  it('creates the notification at once in English when the provider is down, and the job fills in the rest once it recovers', async () => {
    translator.down = true;
    const title = unique('Later ');
    const response = await create({ title_en: title, content_en: 'Body' });
    expect(response.status).toBe(201);
    const id = response.body.data.data.id;
    expect(response.body.data.data).toMatchObject({ title_en: title, title_th: null, title_cn: null, content_th: null, content_cn: null });
    const event = await platform.sql.query(`select payload from notification.outbox_event where type = 'notification.created' and payload->>'notificationId' = $1`, [id]);
    expect(event.rows[0].payload).toMatchObject({ title_en: title, title_th: null });
    // The job has tried (and failed) at least once before the provider comes back.
    await waitFor(async () => (await platform.sql.query(`select retry_count from pgboss.job where name = $1 and data->>'notificationId' = $2`, [QUEUE, id])).rows[0]?.retry_count >= 1, 'a failed try');
    expect((await stored(id)).title_th).toBeNull();
    translator.down = false;
    const filled = await waitFor(async () => {
      const row = await stored(id);
      return row.title_th && row.title_cn && row.content_th && row.content_cn ? row : null;
    }, 'the translations');
    expect(filled).toEqual({ title_en: title, title_th: `[th] ${title}`, title_cn: `[zh] ${title}`, content_en: 'Body', content_th: '[th] Body', content_cn: '[zh] Body' });
    await waitFor(async () => (await jobsOf(QUEUE, id)).includes('completed'), 'the job completed');
    const read = await platform.api('GET', `${BASE}/${id}?locale=cn`, { token: member.token });
    expect(read.body.data.data).toMatchObject({ title_cn: `[zh] ${title}`, title_en: null });
  });

  it('refuses an answer that is too long or changes the markup, and keeps English until a usable one comes', async () => {
    translator.answer = (call) => (call.format === 'html' ? '<p>hi<img src=x onerror=alert(1)></p>' : 'x'.repeat(300));
    const title = unique('Untrusted ');
    const response = await create({ title_en: title, content_en: '<p>Hi</p>', format: 'html' });
    expect(response.status).toBe(201);
    const id = response.body.data.data.id;
    expect(response.body.data.data).toMatchObject({ title_th: null, title_cn: null, content_th: null, content_cn: null });
    await waitFor(async () => (await platform.sql.query(`select retry_count from pgboss.job where name = $1 and data->>'notificationId' = $2`, [QUEUE, id])).rows[0]?.retry_count >= 1, 'a refused try');
    expect(await stored(id)).toMatchObject({ title_th: null, content_th: null });
    translator.answer = undefined;
    const filled = await waitFor(async () => ((await stored(id)).content_cn ? stored(id) : null), 'the usable translations');
    expect(filled).toMatchObject({ title_th: `[th] ${title}`, content_th: '<p>[th] Hi</p>', content_cn: '<p>[zh] Hi</p>' });
  });

  it('dead-letters a translation that fails every try and leaves the notification in English', async () => {
    const title = unique('Never ');
    translator.failWhen = (call) => call.q === title;
    const response = await create({ title_en: title });
    expect(response.status).toBe(201);
    const id = response.body.data.data.id;
    await waitFor(async () => (await jobsOf(`${QUEUE}.dead-letter`, id)).length > 0, 'the dead letter', 30_000);
    expect(await jobsOf(QUEUE, id)).toEqual(['failed']);
    expect(callsFor(title).length).toBeGreaterThanOrEqual(2 * 3);
    expect(await stored(id)).toMatchObject({ title_en: title, title_th: null, title_cn: null });
  });

  it('leaves the convenience endpoints to their templates: nothing is sent to the provider', async () => {
    const before = translator.calls.length;
    const response = await platform.api('POST', `${BASE}/points/received`, { token: marketing.token, body: { memberId: member.id, points: 3 } });
    expect(response.status).toBe(201);
    expect(response.body.data.data).toMatchObject({ title_th: 'คุณได้รับ 3 คะแนน', title_cn: '您获得了 3 积分' });
    expect(translator.calls.length).toBe(before);
  });
});
