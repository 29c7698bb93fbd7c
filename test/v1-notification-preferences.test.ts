import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const BASE = '/api/v1/notifications';

const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 4, env: { CHATAPP_NOTIFY_TEMPLATE_ID: 'tmpl-prefs' } });

const api = (method: string, path: string, body?: unknown, token: string = marketing.token) => platform.api(method, path, { token, body });
const fieldsOf = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();
const prefsPath = (customerId: string) => `/api/v1/customers/${customerId}/notifications/preferences`;
async function send(body: Record<string, unknown>): Promise<string> {
  const response = await api('POST', `${BASE}/send`, body);
  if (response.status !== 202) throw new Error(`send: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.notification_id;
}
const detail = async (id: string) => (await api('GET', `${BASE}/${id}`)).body.data;
const completed = (id: string, timeoutMs?: number) => waitFor(async () => {
  const data = await detail(id);
  return data.status === 'completed' && data;
}, `notification ${id} completed`, timeoutMs);
const inAppsOf = async (token: string) => (await platform.api('GET', '/notification/api/in-apps/me?limit=100', { token })).body.data.data.data as Array<{ title_en: string; content_en: string }>;

describe('GET and PATCH /api/v1/customers/{id}/notifications/preferences', () => {
  it('reads the defaults, changes only what is given, and keeps the rest', async () => {
    const customer = members[0];
    const initial = await api('GET', prefsPath(customer.id), undefined, customer.token);
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({
      customer_id: customer.id,
      channels: { chatapp: true, sms: true, email: true },
      categories: { promotions: true, loyalty: true, transactions: true, campaigns: true },
      quiet_hours: { enabled: false, start: '22:00', end: '08:00', timezone: null },
      updated_at: null,
    });
    const changed = await api('PATCH', prefsPath(customer.id), { channels: { sms: false }, quiet_hours: { enabled: true, timezone: 'Asia/Bangkok' } }, customer.token);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      channels: { chatapp: true, sms: false, email: true },
      categories: { promotions: true, loyalty: true, transactions: true, campaigns: true },
      quiet_hours: { enabled: true, start: '22:00', end: '08:00', timezone: 'Asia/Bangkok' },
      updated_at: expect.any(String),
    });
    // An admin changes them on the customer's request; staff with notification:read read them.
    const again = await api('PATCH', prefsPath(customer.id), { categories: { promotions: false } }, admin.token);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ channels: { sms: false }, categories: { promotions: false, loyalty: true }, quiet_hours: { enabled: true, timezone: 'Asia/Bangkok' } });
    expect((await api('GET', prefsPath(customer.id), undefined, tenant.token)).body.data).toEqual(again.body.data);
    expect((await api('GET', prefsPath(customer.id), undefined, marketing.token)).body.data).toEqual(again.body.data);
  });

  it('names every bad key (400); start equal to end is refused', async () => {
    const bad = await api('PATCH', prefsPath(members[1].id), {
      channels: { fax: true, sms: 'no' },
      categories: { loyalty: 1 },
      quiet_hours: { start: '25:00', end: '7pm', timezone: 'Mars/Olympus', loud: true },
    }, members[1].token);
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['categories.loyalty', 'channels.fax', 'channels.sms', 'quiet_hours.end', 'quiet_hours.loud', 'quiet_hours.start', 'quiet_hours.timezone']);
    const same = await api('PATCH', prefsPath(members[1].id), { quiet_hours: { enabled: true, start: '09:00', end: '09:00' } }, members[1].token);
    expect(fieldsOf(same.body)).toEqual(['quiet_hours.end']);
    // Not an object at all: named on its key too.
    const wrongType = await api('PATCH', prefsPath(members[1].id), { channels: 'x', categories: [true], quiet_hours: 3 }, members[1].token);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(wrongType.body)).toEqual(['categories', 'channels', 'quiet_hours']);
  });

  it("a customer reads and changes only its own (403 otherwise); marketing and tenant read but may not change (the customer's consent); unknown customer 404", async () => {
    const other = await api('GET', prefsPath(members[1].id), undefined, members[0].token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('insufficient_scope');
    // The customer turned promotions off: no other customer, nor marketing, nor tenant turns them back on.
    expect((await api('PATCH', prefsPath(members[1].id), { categories: { promotions: false } }, members[1].token)).status).toBe(200);
    for (const token of [members[0].token, marketing.token, tenant.token]) {
      const refused = await api('PATCH', prefsPath(members[1].id), { categories: { promotions: true } }, token);
      expect(refused.status).toBe(403);
    }
    expect((await api('GET', prefsPath(members[1].id), undefined, marketing.token)).body.data.categories.promotions).toBe(false);
    expect((await platform.graphql(
      'mutation($id: ID!) { updateNotificationPreferences(customerId: $id, input: { categories: { promotions: true } }) { customerId } }',
      { id: members[1].id },
      marketing.token,
    )).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const unknown = await api('GET', prefsPath(randomUUID()));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    const unknownPatch = await api('PATCH', prefsPath(randomUUID()), { channels: { sms: false } }, admin.token);
    expect(unknownPatch.status).toBe(404);
    expect(unknownPatch.body.error.code).toBe('CUSTOMER_NOT_FOUND');
  });
});

describe('preferences at send time', () => {
  it('skips customers who turned the channel or the category off: counted as skipped, not failed', async () => {
    const [off, on] = [members[2], members[3]];
    expect((await api('PATCH', prefsPath(off.id), { channels: { email: false }, categories: { promotions: false } }, off.token)).status).toBe(200);
    const email = await completed(await send({ customer_ids: [off.id], title: unique('Mail '), body: 'b', channel: 'email' }));
    expect(email).toMatchObject({ total_recipients: 1, delivered: 0, failed: 0, skipped: 1 });

    const promoTitle = unique('Promo ');
    const promo = await completed(await send({ customer_ids: [off.id, on.id], title: promoTitle, body: 'b', channel: 'in_app', category: 'promotions' }));
    expect(promo).toMatchObject({ total_recipients: 2, delivered: 1, failed: 0, skipped: 1, category: 'promotions' });
    expect((await inAppsOf(off.token)).some((item) => item.title_en === promoTitle)).toBe(false);
    expect((await inAppsOf(on.token)).some((item) => item.title_en === promoTitle)).toBe(true);

    const loyalty = await completed(await send({ customer_ids: [off.id], title: unique('Loyalty '), body: 'b', channel: 'in_app', category: 'loyalty' }));
    expect(loyalty).toMatchObject({ delivered: 1, skipped: 0 });
    const [row] = (await platform.sql.query(`select status, skip_reason from notification.delivery where notification_id = $1`, [promo.id])).rows.filter((r) => r.status === 'skipped');
    expect(row.skip_reason).toBe('category promotions turned off');
  });

  it('skips customers who turned chatapp or sms off, and still sends to the others', async () => {
    const [off, on] = [members[2], members[3]];
    // The customer itself turns them off.
    expect((await api('PATCH', prefsPath(off.id), { channels: { chatapp: false, sms: false } }, off.token)).status).toBe(200);
    expect((await api('PATCH', `/api/v1/customers/${on.id}`, { phone: '+66 84 000 0001' }, admin.token)).status).toBe(200);
    const skipReasons = async (id: string) =>
      (await platform.sql.query(`select customer_id, status, skip_reason from notification.delivery where notification_id = $1`, [id])).rows as Array<{ customer_id: string; status: string; skip_reason: string | null }>;
    for (const [channel, key] of [['chatapp_mini_program', 'chatapp'], ['sms', 'sms']] as const) {
      const id = await send({ customer_ids: [off.id, on.id], title: unique(`${key} off `), body: 'b', channel });
      expect(await completed(id)).toMatchObject({ total_recipients: 2, delivered: 1, failed: 0, skipped: 1 });
      const rows = await skipReasons(id);
      expect(rows.find((row) => row.customer_id === off.id)).toMatchObject({ status: 'skipped', skip_reason: `channel ${key} turned off` });
      expect(rows.find((row) => row.customer_id === on.id)).toMatchObject({ status: 'delivered', skip_reason: null });
    }
    // Turned back on by the customer: delivered again.
    expect((await api('PATCH', prefsPath(off.id), { channels: { chatapp: true } }, off.token)).status).toBe(200);
    expect(await completed(await send({ customer_ids: [off.id], title: unique('chatapp on '), body: 'b', channel: 'chatapp_mini_program' }))).toMatchObject({ delivered: 1, skipped: 0 });
  });

  it("holds a send that falls in the customer's quiet hours (their time zone) until they end, then delivers it", async () => {
    const customer = members[1];
    const zone = 'Asia/Bangkok';
    const wall = (at: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    const now = new Date();
    const start = wall(new Date(now.getTime() - 60 * 60_000));
    const end = wall(new Date(now.getTime() + 60_000));
    expect((await api('PATCH', prefsPath(customer.id), { quiet_hours: { enabled: true, start, end, timezone: zone } }, customer.token)).status).toBe(200);
    const title = unique('Quiet ');
    const id = await send({ customer_ids: [customer.id], title, body: 'b', channel: 'in_app' });
    const held = await waitFor(async () => {
      const { rows } = await platform.sql.query(`select status, quiet_until, quiet_time_zone, next_attempt_at from notification.delivery where notification_id = $1 and quiet_until is not null`, [id]);
      return rows[0];
    }, 'the delivery held for quiet hours');
    expect(held).toMatchObject({ status: 'pending', quiet_time_zone: zone });
    // Held until the end of the quiet hours on the customer's clock: the next minute there.
    expect(wall(held.quiet_until)).toBe(end);
    expect(held.quiet_until.getTime() - now.getTime()).toBeLessThanOrEqual(120_000);
    expect((await detail(id)).status).toBe('sending');
    expect((await inAppsOf(customer.token)).some((item) => item.title_en === title)).toBe(false);
    const done = await completed(id, 150_000);
    expect(done.delivered).toBe(1);
    expect(new Date(done.completed_at).getTime()).toBeGreaterThanOrEqual(held.quiet_until.getTime() - 1000);
    expect((await inAppsOf(customer.token)).some((item) => item.title_en === title)).toBe(true);
  }, 180_000);
});

describe('templates', () => {
  it('creates (201), lists, refuses a duplicate name (409 DUPLICATE) and undeclared placeholders (400)', async () => {
    const name = unique('welcome_');
    const created = await api('POST', `${BASE}/templates`, { name, title: 'Hi {{first_name}}', body: 'You have {{ points }} points at {{store}}', channel: 'in_app', variables: ['first_name', 'points', 'store'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: expect.any(String), name, title: 'Hi {{first_name}}', channel: 'in_app', variables: ['first_name', 'points', 'store'] });
    const list = await api('GET', `${BASE}/templates?limit=100`, undefined, tenant.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((template: { name: string }) => template.name)).toContain(name);
    const duplicate = await api('POST', `${BASE}/templates`, { name: name.toUpperCase(), title: 't', body: 'b', channel: 'sms', variables: [] });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('DUPLICATE');
    const undeclared = await api('POST', `${BASE}/templates`, { name: unique('t'), title: '{{a}}', body: '{{b}} {{c}}', channel: 'fax', variables: ['a', 'a', '1x'] });
    expect(undeclared.status).toBe(400);
    expect(fieldsOf(undeclared.body)).toEqual(['body', 'channel', 'variables[1]', 'variables[2]']);
    expect((await api('POST', `${BASE}/templates`, { name: unique('t'), title: 't', body: 'b', channel: 'in_app' }, tenant.token)).status).toBe(403);
  });

  it('a title or body the variables leave empty or too long is 400 on those variables, as a direct send is on title and body', async () => {
    const name = unique('bare_');
    expect((await api('POST', `${BASE}/templates`, { name, title: '{{t}}', body: '{{b}}', channel: 'in_app', variables: ['t', 'b'] })).status).toBe(201);
    const sendWith = (variables: Record<string, unknown>) => api('POST', `${BASE}/send`, { customer_ids: [members[0].id], template: name, variables });
    const empty = await sendWith({ t: '', b: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(empty.body)).toEqual(['variables.b', 'variables.t']);
    expect(empty.body.error.details.find((detail: { field: string }) => detail.field === 'variables.t').message).toBe("the template's title is empty with these variables");
    expect(fieldsOf((await sendWith({ t: '   ', b: 'fine' })).body)).toEqual(['variables.t']);
    const long = await sendWith({ t: 'x'.repeat(256), b: 'y'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toEqual([
      { field: 'variables.t', message: "the template's title is longer than 255 characters with these variables" },
      { field: 'variables.b', message: "the template's body is longer than 5000 characters with these variables" },
    ]);
    expect((await sendWith({ t: 'x'.repeat(255), b: 'ok' })).status).toBe(202);
  });

  it('sends by template name: variables fill the placeholders; missing or undeclared ones are 400; an unknown template 404 TEMPLATE_NOT_FOUND', async () => {
    const name = unique('points_');
    expect((await api('POST', `${BASE}/templates`, { name, title: 'Hi {{first_name}}', body: '{{points}} points waiting', channel: 'in_app', variables: ['first_name', 'points'] })).status).toBe(201);
    const customer = members[3];
    const id = await send({ customer_ids: [customer.id], template: name, variables: { first_name: 'Ann', points: 120 } });
    const done = await completed(id);
    expect(done).toMatchObject({ title: 'Hi Ann', body: '120 points waiting', channel: 'in_app', template_name: name, delivered: 1 });
    expect((await inAppsOf(customer.token)).some((item) => item.title_en === 'Hi Ann' && item.content_en === '120 points waiting')).toBe(true);

    const missing = await api('POST', `${BASE}/send`, { customer_ids: [customer.id], template: name, variables: { first_name: 'Ann', extra: 1 }, title: 'x' });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['title', 'variables.extra', 'variables.points']);
    const unknown = await api('POST', `${BASE}/send`, { customer_ids: [customer.id], template: unique('none'), variables: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('TEMPLATE_NOT_FOUND');
  });
});
