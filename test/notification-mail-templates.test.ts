import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { waitFor } from './support/wait-for';
import { usePlatform } from './support/use-platform';

/** A database of its own: the auth.password-reset template of this file must not reach other files' reset mails. */
const { platform, admin, marketing, tenant, member } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 1 });

const BASE = '/notification/api/mail-templates';
const fieldsOf = (response: { body: any }) => [...new Set<string>((response.body.data.errors ?? []).map((error: { field: string }) => error.field))].sort();

const create = (body: Record<string, unknown>, token = marketing.token) => platform.api('POST', BASE, { token, body });
const update = (id: string, body: Record<string, unknown>, token = marketing.token) => platform.api('PUT', `${BASE}/${id}`, { token, body });
const get = (id: string, token = marketing.token) => platform.api('GET', `${BASE}/${id}`, { token });
const list = (query: string, token = marketing.token) => platform.api('GET', `${BASE}?${query}`, { token });
const remove = (id: string, token = marketing.token) => platform.api('DELETE', `${BASE}/${id}`, { token });
const render = (id: string, body: Record<string, unknown>, token = marketing.token) => platform.api('POST', `${BASE}/${id}/render`, { token, body });

const templateBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: unique('Welcome '),
  event: unique('test.welcome-'),
  subject_en: 'Welcome {{firstname}}',
  content_en: '<p>Hello {{firstname}}, your code is {{code}}</p>',
  ...overrides,
});
async function createTemplate(overrides: Record<string, unknown> = {}) {
  const response = await create(templateBody(overrides));
  expect(response.status).toBe(201);
  return response.body.data as Record<string, any> & { id: string; event: string; version: string };
}

describe('POST /mail-templates', () => {
  it('creates a template (201) with version 1 and contentType html unless given', async () => {
    const body = templateBody({ subject_th: 'ยินดีต้อนรับ {{firstname}}', defaultSenderId: 'no-reply' });
    const response = await create(body);
    expect(response.status).toBe(201);
    expect(response.body.statusCode).toBe(201);
    expect(response.body.data).toMatchObject({
      id: expect.any(String),
      name: body.name,
      event: body.event,
      version: '1',
      contentType: 'html',
      subject_en: body.subject_en,
      subject_th: body.subject_th,
      subject_cn: null,
      content_en: body.content_en,
      defaultSenderId: 'no-reply',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('400 with every broken field: missing name, event, English subject and content; a bad event key', async () => {
    const missing = await create({ subject_th: 'x' });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(['content_en', 'event', 'name', 'subject_en']);
    const badKey = await create(templateBody({ event: 'has spaces', subject_en: 'x'.repeat(256) }));
    expect(badKey.status).toBe(400);
    expect(fieldsOf(badKey)).toEqual(['event', 'subject_en']);
    const badType = await create(templateBody({ contentType: 'pdf' }));
    expect(badType.status).toBe(400);
    expect(fieldsOf(badType)).toEqual(['contentType']);
  });

  it('400 on a template that does not compile: unclosed block, unknown helper, partial', async () => {
    const response = await create(templateBody({ content_en: '{{#if code}}open', content_th: '{{shout firstname}}', subject_cn: '{{> header}}' }));
    expect(response.status).toBe(400);
    expect(fieldsOf(response)).toEqual(['content_en', 'content_th', 'subject_cn']);
  });

  it('409 on a second live template of one event and version; another version is fine', async () => {
    const first = await createTemplate();
    const again = await create(templateBody({ event: first.event }));
    expect(again.status).toBe(409);
    expect(fieldsOf(again)).toEqual(['version']);
    const second = await create(templateBody({ event: first.event, version: '2' }));
    expect(second.status).toBe(201);
  });

  it('401 without a token, 403 for tenant staff and members', async () => {
    expect((await create(templateBody(), '')).status).toBe(401);
    expect((await create(templateBody(), tenant.token)).status).toBe(403);
    expect((await create(templateBody(), member.token)).status).toBe(403);
    expect((await list('', '')).status).toBe(401);
    expect((await list('', tenant.token)).status).toBe(403);
    expect((await list('', member.token)).status).toBe(403);
  });
});

describe('GET /mail-templates', () => {
  it('pages newest first in data, filtered by event, version and search', async () => {
    const event = unique('test.list-');
    const one = await createTemplate({ event, name: unique('Alpha ') });
    const two = await createTemplate({ event, version: '2', name: unique('Beta ') });
    const byEvent = await list(`event=${event}&limit=10`);
    expect(byEvent.status).toBe(200);
    expect(byEvent.body.data.meta).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });
    expect(byEvent.body.data.data.map((item: { id: string }) => item.id)).toEqual([two.id, one.id]);
    const byVersion = await list(`event=${event}&version=2`);
    expect(byVersion.body.data.data.map((item: { id: string }) => item.id)).toEqual([two.id]);
    const bySearch = await list(`search=${encodeURIComponent(one.name)}`);
    expect(bySearch.body.data.data.map((item: { id: string }) => item.id)).toEqual([one.id]);
    const paged = await list(`event=${event}&limit=1&page=2`);
    expect(paged.body.data.meta).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(paged.body.data.data.map((item: { id: string }) => item.id)).toEqual([one.id]);
  });

  it('400 on a bad limit or page', async () => {
    const response = await list('limit=101&page=0');
    expect(response.status).toBe(400);
    expect(fieldsOf(response)).toEqual(['limit', 'page']);
  });
});

describe('GET, PUT and DELETE /mail-templates/:id', () => {
  it('reads, updates given fields, clears optional ones with null, and refuses null for required ones', async () => {
    const template = await createTemplate({ subject_th: 'TH' });
    expect((await get(template.id)).body.data).toMatchObject({ id: template.id, subject_th: 'TH' });
    const updated = await update(template.id, { name: 'Renamed', subject_th: null, contentType: 'text' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Renamed', subject_th: null, contentType: 'text', event: template.event, subject_en: template.subject_en });
    const refused = await update(template.id, { name: null, subject_en: null });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toEqual(['name', 'subject_en']);
    const broken = await update(template.id, { content_en: '{{#each}}' });
    expect(broken.status).toBe(400);
    expect(fieldsOf(broken)).toEqual(['content_en']);
    expect((await get(template.id)).body.data).toMatchObject({ name: 'Renamed', content_en: template.content_en });
    expect((await update(template.id, { name: 'x' }, tenant.token)).status).toBe(403);
  });

  it('409 when an update takes the event and version of another live template', async () => {
    const first = await createTemplate();
    const second = await createTemplate();
    const response = await update(second.id, { event: first.event });
    expect(response.status).toBe(409);
    expect(fieldsOf(response)).toEqual(['version']);
  });

  it('deletes softly: 200 with a message, then 404 everywhere, and the event and version are free again', async () => {
    const template = await createTemplate();
    const deleted = await remove(template.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.message).toEqual(expect.any(String));
    expect((await get(template.id)).status).toBe(404);
    expect((await update(template.id, { name: 'x' })).status).toBe(404);
    expect((await remove(template.id)).status).toBe(404);
    expect((await render(template.id, {})).status).toBe(404);
    expect((await list(`event=${template.event}`)).body.data.meta.total).toBe(0);
    expect((await create(templateBody({ event: template.event }))).status).toBe(201);
  });

  it('404 on an unknown id or one that is not a UUID', async () => {
    expect((await get(randomUUID())).status).toBe(404);
    expect((await get('not-a-uuid')).status).toBe(404);
  });
});

describe('POST /mail-templates/:id/render', () => {
  it('fills the variables, HTML-escaping them in HTML content but not in the subject', async () => {
    const template = await createTemplate();
    const response = await render(template.id, { variables: { firstname: '<b>Ann & "Bo"</b>', code: 123456 } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      templateId: template.id,
      event: template.event,
      version: '1',
      locale: 'en',
      subject: 'Welcome <b>Ann & "Bo"</b>',
      content: '<p>Hello &lt;b&gt;Ann &amp; &quot;Bo&quot;&lt;/b&gt;, your code is 123456</p>',
      contentType: 'html',
      defaultSenderId: null,
    });
  });

  it('leaves text content unescaped, keeps a subject on one line, and renders a missing variable empty', async () => {
    const template = await createTemplate({ contentType: 'text', content_en: 'Hi {{firstname}} {{missing}}!' });
    const response = await render(template.id, { variables: { firstname: 'A & B\r\nBcc: x@example.com' } });
    expect(response.body.data.content).toBe('Hi A & B\r\nBcc: x@example.com !');
    expect(response.body.data.subject).toBe('Welcome A & B Bcc: x@example.com');
  });

  it('renders the language asked for, falling back to English when it has no text', async () => {
    const template = await createTemplate({ subject_th: 'สวัสดี {{firstname}}', content_th: 'รหัส {{code}}' });
    const thai = await render(template.id, { locale: 'th', variables: { firstname: 'Ann', code: '1' } });
    expect(thai.body.data).toMatchObject({ locale: 'th', subject: 'สวัสดี Ann', content: 'รหัส 1' });
    const chinese = await render(template.id, { locale: 'cn', variables: { firstname: 'Ann', code: '1' } });
    expect(chinese.body.data).toMatchObject({ locale: 'en', subject: 'Welcome Ann' });
  });

  it('reads no prototype properties from the variables', async () => {
    const template = await createTemplate({ contentType: 'text', content_en: '[{{constructor.name}}][{{__proto__}}]' });
    const response = await render(template.id, { variables: {} });
    expect(response.status).toBe(200);
    expect(response.body.data.content).toBe('[][]');
  });

  it('400 on variables that are not an object, 403 for tenant staff', async () => {
    const template = await createTemplate();
    const response = await render(template.id, { variables: 'x', locale: 'fr' });
    expect(response.status).toBe(400);
    expect(fieldsOf(response).length).toBeGreaterThan(0);
    expect((await render(template.id, {}, tenant.token)).status).toBe(403);
  });
});

/** The subject and decoded text of a single-part mail as the fake SMTP server received it. */
function readMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const body = raw.slice(split + 4);
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_hex, byte: string) => String.fromCharCode(parseInt(byte, 16))), 'latin1').toString('utf8')
        : body;
  return { subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

describe('auth mails from templates', () => {
  const requestReset = (email: string) => platform.api('POST', '/auth/api/staffs/request-reset-password-by-email', { body: { email } });

  it('a password reset mail uses the auth.password-reset template created through REST, and its code resets the password', async () => {
    const staff = await platform.createStaff('tenant');
    const builtIn = await requestReset(staff.email);
    expect(builtIn.status).toBe(200);
    expect(readMail(platform.smtp.lastTo(staff.email)!.raw).subject).toBe('Your password reset code');

    const template = await createTemplate({
      event: 'auth.password-reset',
      contentType: 'text',
      subject_en: 'Reset code for {{email}}',
      content_en: 'Code: {{code}}\nSession: {{sessionId}}\nValid for {{validFor}} ({{validForMinutes}} min).',
    });
    const other = await platform.createStaff('tenant');
    expect((await requestReset(other.email)).status).toBe(200);
    const mail = readMail(platform.smtp.lastTo(other.email)!.raw);
    expect(mail.subject).toBe(`Reset code for ${other.email}`);
    const code = /Code: (\d{6})/.exec(mail.text)?.[1];
    const sessionId = /Session: ([0-9a-f-]{36})/.exec(mail.text)?.[1];
    expect(mail.text).toContain('Valid for 15 minutes (15 min).');
    const reset = await platform.api('POST', `/auth/api/staffs/reset-password/${sessionId}`, { body: { code, newPassword: 'templated-password' } });
    expect(reset.status).toBe(200);
    expect((await platform.api('POST', '/auth/api/staffs/login', { body: { email: other.email, password: 'templated-password' } })).status).toBe(200);

    // Deleted, the template gives way to the built-in text again.
    expect((await remove(template.id)).status).toBe(200);
    const third = await platform.createStaff('tenant');
    expect((await requestReset(third.email)).status).toBe(200);
    expect(readMail(platform.smtp.lastTo(third.email)!.raw).subject).toBe('Your password reset code');
  });
});

describe('auth invitation mails from templates', () => {
  it('an invitation uses the auth.invitation template in the staff member\'s language, HTML-escaping the name in the HTML version', async () => {
    await createTemplate({
      event: 'auth.invitation',
      subject_en: 'Welcome',
      subject_th: 'ยินดีต้อนรับ {{firstname}}',
      content_th: '<p>สวัสดี {{firstname}} รหัส {{code}} เซสชัน {{sessionId}}</p>',
    });
    const email = `${unique('invited')}@example.com`;
    const created = await platform.api('POST', '/auth/api/staffs', {
      token: admin.token,
      body: { email, firstname: '<i>Nok</i>', lastname: 'Tester', roleId: await platform.roleId('tenant'), locale: 'th' },
    });
    expect(created.status).toBe(201);
    const mail = await waitFor(async () => platform.smtp.lastTo(email), `the invitation to ${email}`);
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)![1];
    const parts = mail.raw.split(`--${boundary}`).slice(1, -1).map((part) => part.replace(/^\r\n/, ''));
    const partOf = (type: string) => readMail(parts.find((part) => new RegExp(`^Content-Type: ${type}`, 'im').test(part))!).text;
    expect(partOf('text/html')).toMatch(/^<p>สวัสดี &lt;i&gt;Nok&lt;\/i&gt; รหัส \d{6} เซสชัน [0-9a-f-]{36}<\/p>/);
    expect(partOf('text/plain')).toMatch(/^สวัสดี <i>Nok<\/i> รหัส \d{6} เซสชัน [0-9a-f-]{36}/);
    const subject = /^Subject:\s*(.*(?:\r\n[ \t].*)*)/im.exec(mail.raw)![1];
    const decoded = subject.replace(/\r\n[ \t]+/g, '').replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_match, text: string) => Buffer.from(text, 'base64').toString('utf8'));
    expect(decoded.replace(/\s+/g, ' ')).toContain('ยินดีต้อนรับ <i>Nok</i>');
    const session = await platform.sql.query('select count(*)::int as n from auth.password_reset_session s join auth.staff f on f.id = s.staff_id where f.email = $1', [email]);
    expect(session.rows[0].n).toBe(1);
  });
});

it('uses admin too (admin holds every permission)', async () => {
  expect((await list('', admin.token)).status).toBe(200);
});
