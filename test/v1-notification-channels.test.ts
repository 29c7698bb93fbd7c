import { INVALID_PAGE } from './support/fake-chatapp';
import { FakeSms, startFakeSms } from './support/fake-sms';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// Each external channel against a fake provider: the SMS gateway, the chat-app subscribe-message API and SMTP.
const BASE = '/api/v1/notifications';
const TIMEOUT_MS = 8000;
const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const TRACKED = /\/api\/v1\/notifications\/track\/[0-9a-f-]{36}\?sig=[\w-]+$/;
let sms: FakeSms;
let receiver: FakeWebhookReceiver;
beforeAll(async () => {
  [sms, receiver] = await Promise.all([startFakeSms(), startFakeWebhookReceiver()]);
});
afterAll(async () => {
  await Promise.all([sms?.close(), receiver?.close()]);
});

const { platform, admin, marketing, members } = usePlatform({
  staff: ['admin', 'marketing'],
  members: 4,
  env: () => ({
    SMS_URL: sms.url,
    SMS_API_KEY: 'sms-key',
    CHATAPP_NOTIFY_TEMPLATE_ID: 'tmpl-1',
    CHATAPP_NOTIFY_WEBVIEW_PAGE: 'pages/webview/index',
    NOTIFY_RETRY_SCHEDULE: '1,1',
    // Long enough that an in-app send surely completes within it while a provider hangs.
    NOTIFY_CHANNEL_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  }),
});

const api = (method: string, path: string, body?: unknown, token: string = marketing.token) => platform.api(method, path, { token, body });
async function send(body: Record<string, unknown>): Promise<string> {
  const response = await api('POST', `${BASE}/send`, body);
  if (response.status !== 202) throw new Error(`send: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.notification_id;
}
const completed = (id: string, timeoutMs?: number) => waitFor(async () => {
  const { body } = await api('GET', `${BASE}/${id}`);
  return body.data.status === 'completed' && body.data;
}, `notification ${id} completed`, timeoutMs);
const deliveries = async (id: string) =>
  (await platform.sql.query(`select customer_id, status, attempts, last_error from notification.delivery where notification_id = $1`, [id])).rows as Array<{ customer_id: string; status: string; attempts: number; last_error: string | null }>;
const freshPhone = () => `+66 83 ${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
const phoneOf = async (memberId: string) => (await platform.sql.query('select phone_number from auth.member where id = $1', [memberId])).rows[0].phone_number as string;
const eventsOf = async (type: string, notificationId: string) =>
  (await platform.sql.query(`select payload from notification.outbox_event where type = $1 and payload->>'notificationId' = $2`, [type, notificationId])).rows.map((row) => row.payload);

const contact = { email: '', phone: '' };
const openIdOf = async (memberId: string) => (await platform.sql.query('select open_id from auth.member where id = $1', [memberId])).rows[0].open_id as string;
async function setContact(memberId: string, email: string | null, phone: string | null) {
  const response = await api('PATCH', `/api/v1/customers/${memberId}`, { email, phone }, admin.token);
  if (response.status !== 200) throw new Error(`customer update: ${JSON.stringify(response.body)}`);
}

describe('sms', () => {
  it('posts each message to the SMS gateway (Bearer key, Idempotency-Key = delivery), with the tracked link', async () => {
    contact.phone = `+66 81 ${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    await setContact(members[0].id, null, contact.phone);
    const title = unique('Sms ');
    const id = await send({ customer_ids: [members[0].id], title, body: 'Hello by text', channel: 'sms', action_url: 'https://shop.example.com/deal' });
    const done = await completed(id);
    expect(done).toMatchObject({ total_recipients: 1, delivered: 1, failed: 0 });
    const taken = sms.taken.filter((message) => message.text.startsWith(title));
    expect(taken).toHaveLength(1);
    const [row] = await deliveries(id);
    expect(taken[0]).toMatchObject({ to: expect.any(String), reference: expect.any(String) });
    expect(taken[0].headers.authorization).toBe('Bearer sms-key');
    expect(taken[0].headers['idempotency-key']).toBe(taken[0].reference);
    expect(taken[0].text).toMatch(/\/api\/v1\/notifications\/track\/[0-9a-f-]{36}\?sig=/);
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('retries a temporary refusal (503) with backoff, then delivers; a permanent one (400) fails that recipient only', async () => {
    const [retried, refused, noPhone] = [members[1], members[2], members[3]];
    await setContact(retried.id, null, '+66 82 000 0001');
    await setContact(refused.id, null, '+66 82 000 0002');
    await setContact(noPhone.id, null, null);
    const to = async (memberId: string) => (await platform.sql.query('select phone_number from auth.member where id = $1', [memberId])).rows[0].phone_number as string;
    sms.answer(await to(retried.id), [503, 429]);
    sms.answer(await to(refused.id), [400]);
    const started = Date.now();
    const id = await send({ customer_ids: [retried.id, refused.id, noPhone.id], title: unique('Retry '), body: 'b', channel: 'sms' });
    const done = await completed(id, 30_000);
    expect(done).toMatchObject({ status: 'completed', total_recipients: 3, delivered: 1, failed: 2 });
    // Two retries, one second apart each (NOTIFY_RETRY_SCHEDULE=1,1).
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    const rows = await deliveries(id);
    expect(rows.find((row) => row.customer_id === retried.id)).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(rows.find((row) => row.customer_id === refused.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('400') });
    expect(rows.find((row) => row.customer_id === noPhone.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'the customer has no phone number' });
    const failed = await eventsOf('notification.failed', id);
    expect(failed.map((event) => event.customerId).sort()).toEqual([refused.id, noPhone.id].sort());
    expect(await eventsOf('notification.delivered', id)).toEqual([expect.objectContaining({ customerId: retried.id, channel: 'sms', error: null })]);
  });

  it('a hanging gateway holds back neither in-app sends nor scheduled starts; the hung delivery fails once NOTIFY_CHANNEL_TIMEOUT_MS passed, never sent again', async () => {
    const [hung, reader, later] = [members[0], members[1], members[2]];
    await setContact(hung.id, null, freshPhone());
    const phone = await phoneOf(hung.id);
    sms.answer(phone, ['hang']);
    const smsId = await send({ customer_ids: [hung.id], title: unique('Hung '), body: 'b', channel: 'sms' });
    await waitFor(async () => sms.requests.some((request) => request.to === phone), 'the message in flight at the gateway');
    const hungSince = Date.now();
    const smsRow = async () => (await deliveries(smsId))[0];
    expect(await smsRow()).toMatchObject({ status: 'sending', attempts: 1 });

    // While it hangs: an in-app send now and one scheduled a moment later both complete.
    const inApp = await send({ customer_ids: [reader.id], title: unique('Meanwhile '), body: 'b', channel: 'in_app' });
    const scheduled = await api('POST', `${BASE}/send`, { customer_ids: [later.id], title: unique('Scheduled meanwhile '), body: 'b', channel: 'in_app', schedule_at: new Date(Date.now() + 1000).toISOString() });
    expect(scheduled.body.data.status).toBe('scheduled');
    expect(await completed(inApp)).toMatchObject({ delivered: 1 });
    expect(await completed(scheduled.body.data.notification_id)).toMatchObject({ delivered: 1 });
    expect(await smsRow()).toMatchObject({ status: 'sending' });

    // Then the attempt ends at its deadline: failed (the outcome is unknown), not retried.
    const done = await completed(smsId, 30_000);
    expect(Date.now() - hungSince).toBeGreaterThanOrEqual(TIMEOUT_MS - 1000);
    expect(done).toMatchObject({ delivered: 0, failed: 1 });
    expect(await smsRow()).toMatchObject({ status: 'failed', attempts: 1, last_error: `no answer within ${TIMEOUT_MS} ms: the outcome is unknown, so it is not sent again` });
    expect(sms.requests.filter((request) => request.to === phone)).toHaveLength(1);
  }, 60_000);

  it('fails a recipient once the retries are used up', async () => {
    await setContact(members[1].id, null, '+66 82 000 0003');
    sms.answer('+66820000003', [503, 503, 503]);
    sms.answer('+66 82 000 0003', [503, 503, 503]);
    const id = await send({ customer_ids: [members[1].id], title: unique('Busy '), body: 'b', channel: 'sms' });
    const done = await completed(id, 30_000);
    expect(done).toMatchObject({ delivered: 0, failed: 1 });
    expect((await deliveries(id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_error: expect.stringContaining('503') });
  });
});

describe('chatapp_mini_program', () => {
  const byTitle = (title: string) => platform.chatapp.messages.filter((message) => message.body.data.thing1.value === title.slice(0, 20));

  it('sends subscribe messages with one cached access token; an expired token is renewed and the message sent once', async () => {
    const [first, second] = [members[0], members[1]];
    const before = platform.chatapp.tokens.length;
    const linkedTitle = unique('Link ');
    const one = await completed(await send({ customer_ids: [first.id, second.id], title: linkedTitle, body: 'b', channel: 'chatapp_mini_program', action_url: 'https://x.example.com' }));
    expect(one).toMatchObject({ delivered: 2, failed: 0 });
    const plainTitle = unique('Plain ');
    const two = await completed(await send({ customer_ids: [first.id], title: plainTitle, body: 'b', channel: 'chatapp_mini_program' }));
    expect(two.delivered).toBe(1);
    expect(platform.chatapp.tokens.length - before).toBeLessThanOrEqual(1);
    const openId = await openIdOf(first.id);
    const [linked] = byTitle(linkedTitle).filter((message) => message.body.touser === openId);
    expect(linked.body).toMatchObject({ template_id: 'tmpl-1', data: { thing1: { value: linkedTitle.slice(0, 20) } } });
    // `page` is a page of the mini-program (the provider refuses a URL: errcode 41030): the web-view page
    // with the tracked link as its `url` parameter; a message without action_url opens no page.
    const [page, query] = linked.body.page!.split('?');
    expect(page).toBe('pages/webview/index');
    const link = new URLSearchParams(query).get('url')!;
    expect(link).toMatch(TRACKED);
    expect(linked.body.page).toBe(`pages/webview/index?url=${encodeURIComponent(link)}`);
    expect(byTitle(plainTitle)).toEqual([expect.objectContaining({ body: expect.not.objectContaining({ page: expect.anything() }) })]);
    expect(platform.chatapp.refused.filter((refusal) => refusal.errcode === INVALID_PAGE)).toEqual([]);

    platform.chatapp.expireTokens();
    const tokensBefore = platform.chatapp.tokens.length;
    const title = unique('Renew ');
    const three = await completed(await send({ customer_ids: [first.id], title, body: 'b', channel: 'chatapp_mini_program' }));
    expect(three).toMatchObject({ delivered: 1, failed: 0 });
    expect(platform.chatapp.tokens.length).toBe(tokensBefore + 1);
    const renewed = byTitle(title);
    expect(renewed).toHaveLength(1);
    expect(renewed[0].token).toBe(platform.chatapp.tokens.at(-1));
  });

  it('sends side by side after an expiry fetch one new token: a send whose old token failed after another renewed it keeps the new one', async () => {
    const openIds = await Promise.all(members.map((member) => openIdOf(member.id)));
    // The first refusal is answered at once, the others only after a message came with the renewed token.
    platform.chatapp.expireTokens({ holdUntilRenewed: true });
    const tokensBefore = platform.chatapp.tokens.length;
    const refusedBefore = platform.chatapp.refused.length;
    const title = unique('Together ');
    const done = await completed(await send({ customer_ids: members.map((member) => member.id), title, body: 'b', channel: 'chatapp_mini_program' }));
    expect(done).toMatchObject({ delivered: members.length, failed: 0 });
    expect(platform.chatapp.tokens.length).toBe(tokensBefore + 1);
    const newToken = platform.chatapp.tokens.at(-1);
    const sent = byTitle(title);
    expect(sent.map((message) => message.body.touser).sort()).toEqual([...openIds].sort());
    expect(sent.every((message) => message.token === newToken)).toBe(true);
    // A send met the expired token at most once (then the renewed one), never a second time.
    const refusals = platform.chatapp.refused.slice(refusedBefore).filter((refusal) => refusal.body.data.thing1.value === title.slice(0, 20));
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(refusals.every((refusal) => refusal.errcode === 42001)).toBe(true);
    expect(new Set(refusals.map((refusal) => refusal.body.touser)).size).toBe(refusals.length);
  });

  it("renews the token on its own expires_in, before the provider refuses it", async () => {
    platform.chatapp.tokenLifetime(2);
    platform.chatapp.expireTokens();
    // The next send meets the expired token and gets one that lives 2 seconds (renewed after half of it).
    await completed(await send({ customer_ids: [members[0].id], title: unique('Short '), body: 'b', channel: 'chatapp_mini_program' }));
    platform.chatapp.tokenLifetime(7200);
    const shortLived = platform.chatapp.tokens.at(-1);
    const refusedBefore = platform.chatapp.refused.length;
    const sends: string[] = [];
    // Send after send until one goes with a new token: the sender fetched it by itself, nothing was refused.
    await waitFor(async () => {
      const title = unique('Until renewed ');
      sends.push(title);
      await completed(await send({ customer_ids: [members[0].id], title, body: 'b', channel: 'chatapp_mini_program' }));
      return platform.chatapp.tokens.at(-1) !== shortLived;
    }, 'a token fetched on its own expiry');
    expect(platform.chatapp.refused.length).toBe(refusedBefore);
    expect(sends.map((title) => byTitle(title).length)).toEqual(sends.map(() => 1));
    expect(byTitle(sends.at(-1)!)[0].token).toBe(platform.chatapp.tokens.at(-1));
  });

  it('retries "system busy" (-1); a customer who refused the subscription (43101) fails', async () => {
    const [busy, refused] = [members[2], members[3]];
    platform.chatapp.refuse(await openIdOf(busy.id), [-1]);
    platform.chatapp.refuse(await openIdOf(refused.id), [43101]);
    const id = await send({ customer_ids: [busy.id, refused.id], title: unique('Busy '), body: 'b', channel: 'chatapp_mini_program' });
    const done = await completed(id, 30_000);
    expect(done).toMatchObject({ delivered: 1, failed: 1 });
    const rows = await deliveries(id);
    expect(rows.find((row) => row.customer_id === busy.id)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(rows.find((row) => row.customer_id === refused.id)).toMatchObject({ status: 'failed', last_error: expect.stringContaining('43101') });
  });
});

describe('email', () => {
  it('sends over SMTP (subject: title; the text has the tracked link), retries 451, fails 550 and customers without an address', async () => {
    const [ok, later, bad, none] = members.map((member) => member);
    const address = (tag: string) => `${unique(tag)}@example.com`;
    const [okMail, laterMail, badMail] = [address('ok'), address('later'), address('bad')];
    await setContact(ok.id, okMail, null);
    await setContact(later.id, laterMail, null);
    await setContact(bad.id, badMail, null);
    await setContact(none.id, null, null);
    platform.smtp.refuse(laterMail.toLowerCase(), [451]);
    platform.smtp.refuse(badMail.toLowerCase(), [550]);
    const title = unique('Mail ');
    const id = await send({ customer_ids: [ok.id, later.id, bad.id, none.id], title, body: 'Hello by mail', channel: 'email', action_url: 'https://shop.example.com/mail' });
    const done = await completed(id, 30_000);
    expect(done).toMatchObject({ total_recipients: 4, delivered: 2, failed: 2 });
    const mail = platform.smtp.lastTo(okMail.toLowerCase()) ?? platform.smtp.lastTo(okMail);
    expect(mail?.raw).toContain(`Subject: ${title}`);
    expect(mail?.raw).toContain('Hello by mail');
    expect(mail?.raw).toMatch(/api\/v1\/notifications\/track\//);
    const rows = await deliveries(id);
    expect(rows.find((row) => row.customer_id === later.id)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(rows.find((row) => row.customer_id === bad.id)).toMatchObject({ status: 'failed', last_error: expect.stringContaining('550') });
    expect(rows.find((row) => row.customer_id === none.id)).toMatchObject({ status: 'failed', last_error: 'the customer has no e-mail address' });
  });

  it('a hanging SMTP server fails the mail at NOTIFY_CHANNEL_TIMEOUT_MS (not after the mailer\'s minutes); other mail goes on', async () => {
    const [hung, ok] = [members[0], members[1]];
    const [hungMail, okMail] = [`${unique('hang')}@example.com`, `${unique('fine')}@example.com`];
    await setContact(hung.id, hungMail, null);
    await setContact(ok.id, okMail, null);
    platform.smtp.hang(hungMail.toLowerCase());
    const started = Date.now();
    const id = await send({ customer_ids: [hung.id, ok.id], title: unique('Slow mail '), body: 'b', channel: 'email' });
    await waitFor(async () => platform.smtp.lastTo(okMail.toLowerCase()), 'the other mail');
    expect(platform.smtp.hung).toContain(hungMail.toLowerCase());
    const done = await completed(id, 30_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 1000);
    expect(done).toMatchObject({ delivered: 1, failed: 1 });
    const rows = await deliveries(id);
    expect(rows.find((row) => row.customer_id === hung.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining(`no answer within ${TIMEOUT_MS} ms`) });
  }, 60_000);

  it('uses the newest mail template of event notification.v1 when there is one', async () => {
    const created = await api('POST', '/notification/api/mail-templates', {
      name: unique('v1 mail '),
      event: 'notification.v1',
      subject_en: 'News: {{title}}',
      content_en: '<p>Dear {{name}}, {{body}}</p>',
    }, admin.token);
    expect(created.status).toBe(201);
    const mailbox = `${unique('tpl')}@example.com`;
    await setContact(members[0].id, mailbox, null);
    const title = unique('Templated ');
    await completed(await send({ customer_ids: [members[0].id], title, body: 'see you', channel: 'email' }));
    expect(platform.smtp.lastTo(mailbox.toLowerCase())?.raw).toContain(`Subject: News: ${title}`);
  });
});

describe('webhook events', () => {
  it('notification.sent and notification.delivered reach a webhook with Part 3 names', async () => {
    const path = `/${unique('hook')}`;
    const created = await api('POST', '/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['notification.sent', 'notification.delivered'] }, admin.token);
    expect(created.status).toBe(201);
    const id = await send({ customer_ids: [members[2].id], title: unique('Hooked '), body: 'b', channel: 'in_app' });
    await completed(id);
    const bodies = await waitFor(async () => {
      // Events of earlier sends still in the fan-out may reach the new webhook too: this send's only.
      const got = receiver.on(path).map((delivery) => JSON.parse(delivery.body)).filter((body) => body.data.notification_id === id);
      return got.length >= 2 && got;
    }, 'two webhook deliveries');
    expect(bodies.map((body) => body.type).sort()).toEqual(['notification.delivered', 'notification.sent']);
    expect(bodies.find((body) => body.type === 'notification.delivered').data).toEqual({ notification_id: id, customer_id: members[2].id, channel: 'in_app', delivered_at: expect.any(String) });
    expect(bodies.find((body) => body.type === 'notification.sent').data).toMatchObject({ notification_id: id, channel: 'in_app', total_recipients: 1 });
  });

  it('notification.failed carries the notification, the customer, the channel, the error and failed_at', async () => {
    const path = `/${unique('failed')}`;
    const created = await api('POST', '/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['notification.failed'] }, admin.token);
    expect(created.status).toBe(201);
    const customer = members[3];
    await setContact(customer.id, null, null);
    const sentAt = Math.floor(Date.now() / 1000) * 1000;
    const id = await send({ customer_ids: [customer.id], title: unique('No phone '), body: 'b', channel: 'sms' });
    await completed(id);
    const [body] = await waitFor(async () => {
      const got = receiver.on(path).map((delivery) => JSON.parse(delivery.body)).filter((received) => received.data.notification_id === id);
      return got.length > 0 && got;
    }, 'the notification.failed delivery');
    expect(body).toEqual({
      id: expect.any(String),
      type: 'notification.failed',
      created_at: expect.stringMatching(V1_TIME),
      data: { notification_id: id, customer_id: customer.id, channel: 'sms', error: 'the customer has no phone number', failed_at: expect.stringMatching(V1_TIME) },
    });
    expect(new Date(body.data.failed_at).getTime()).toBeGreaterThanOrEqual(sentAt);
    expect(new Date(body.data.failed_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect(body.created_at).toBe(body.data.failed_at);
  });
});
