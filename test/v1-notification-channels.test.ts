import { FakeSms, startFakeSms } from './support/fake-sms';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// Each external channel against a fake provider: the SMS gateway, the chat-app subscribe-message API and SMTP.
const BASE = '/api/v1/notifications';
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
    NOTIFY_RETRY_SCHEDULE: '1,1',
    NOTIFY_CHANNEL_TIMEOUT_MS: '3000',
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
  it('sends subscribe messages with one cached access token; an expired token is renewed and the message sent once', async () => {
    const [first, second] = [members[0], members[1]];
    const before = platform.chatapp.tokens.length;
    const one = await completed(await send({ customer_ids: [first.id, second.id], title: unique('Chat '), body: 'b', channel: 'chatapp_mini_program', action_url: 'https://x.example.com' }));
    expect(one).toMatchObject({ delivered: 2, failed: 0 });
    const two = await completed(await send({ customer_ids: [first.id], title: unique('Chat '), body: 'b', channel: 'chatapp_mini_program' }));
    expect(two.delivered).toBe(1);
    expect(platform.chatapp.tokens.length - before).toBeLessThanOrEqual(1);
    const openId = await openIdOf(first.id);
    const sent = platform.chatapp.messages.filter((message) => message.body.touser === openId);
    expect(sent.at(-1)!.body).toMatchObject({ template_id: 'tmpl-1', data: { thing1: { value: expect.any(String) } } });
    expect(platform.chatapp.messages.some((message) => message.body.page?.includes('/api/v1/notifications/track/'))).toBe(true);

    platform.chatapp.expireTokens();
    const tokensBefore = platform.chatapp.tokens.length;
    const title = unique('Renew ');
    const three = await completed(await send({ customer_ids: [first.id], title, body: 'b', channel: 'chatapp_mini_program' }));
    expect(three).toMatchObject({ delivered: 1, failed: 0 });
    expect(platform.chatapp.tokens.length).toBe(tokensBefore + 1);
    const renewed = platform.chatapp.messages.filter((message) => message.body.data.thing1.value === title.slice(0, 20));
    expect(renewed).toHaveLength(1);
    expect(renewed[0].token).toBe(platform.chatapp.tokens.at(-1));
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
});
