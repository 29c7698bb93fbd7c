import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestPlatform, unique, PLATFORM_START_TIMEOUT_MS } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const STAFFS = '/auth/api/staffs';

const { platform, admin } = usePlatform({ staff: ['admin'] });
let tenantRoleId: string;
beforeAll(async () => {
  tenantRoleId = await platform.roleId('tenant');
});

interface ResetMessage {
  subject: string;
  text: string;
  code: string;
  sessionId: string;
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_match, _charset, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_hex, byte: string) => String.fromCharCode(parseInt(byte, 16))), 'latin1').toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_hex, byte: string) => String.fromCharCode(parseInt(byte, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The subject and decoded text of a single-part mail as the fake SMTP server received it. */
function readMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  return {
    subject: decodeHeader(header('Subject')),
    text: decodeBody(raw.slice(split + 4), header('Content-Transfer-Encoding').toLowerCase()).replace(/\r\n/g, '\n'),
  };
}

/** The code and reset session of a reset text (e-mail or SMS). */
function parseReset(subject: string, text: string): ResetMessage {
  const sessionId = /Reset session: ([0-9a-f-]{36})/.exec(text)?.[1];
  const code = /(?<!\d)\d{6}(?!\d)/.exec(text.replace(/Reset session: .*/, ''))?.[0];
  if (!sessionId || !code) throw new Error(`no reset code in: ${text}`);
  return { subject, text, code, sessionId };
}

function lastMailTo(email: string): ResetMessage {
  const mail = platform.smtp.lastTo(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const { subject, text } = readMail(mail.raw);
  return parseReset(subject, text);
}

const smsOutbox = () => join(platform.dataDir, 'outbox', 'sms.jsonl');

function smsTo(phoneNumber: string): Array<{ to: string; text: string }> {
  if (!existsSync(smsOutbox())) return [];
  return readFileSync(smsOutbox(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((sms) => sms.to === phoneNumber);
}

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

/** Moves the staff member's reset sessions `seconds` into the past, as if their codes had been sent that much earlier. */
const ageSessions = (staffId: string, seconds = 61) =>
  platform.sql.query(`update auth.password_reset_session set created_at = created_at - make_interval(secs => $2) where staff_id = $1`, [staffId, seconds]);
const sessionCount = async (staffId: string) =>
  Number((await platform.sql.query('select count(*) from auth.password_reset_session where staff_id = $1', [staffId])).rows[0].count);

/** A staff member created through POST /staffs; ACTIVE unless told otherwise (no invitation then). */
async function createStaff(overrides: Record<string, unknown> = {}) {
  const response = await platform.api('POST', STAFFS, {
    token: admin.token,
    body: { email: `${unique('reset')}@example.com`, firstname: 'Reset', lastname: 'Tester', roleId: tenantRoleId, status: 'ACTIVE', ...overrides },
  });
  if (response.status !== 201) throw new Error(`staff creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data.data as { id: string; email: string; phoneNumber: string | null; status: string };
}

const requestByEmail = (body: Record<string, unknown>) => platform.api('POST', `${STAFFS}/request-reset-password-by-email`, { body });
const requestForStaff = (body: Record<string, unknown>) => platform.api('POST', `${STAFFS}/request-reset-password`, { body });
const checkSession = (sessionId: string) => platform.api('GET', `${STAFFS}/check-session/${sessionId}`);
const reset = (sessionId: string, body: Record<string, unknown>) => platform.api('POST', `${STAFFS}/reset-password/${sessionId}`, { body });
const login = (email: string, password: string) => platform.api('POST', `${STAFFS}/login`, { body: { email, password } });
const fieldsOf = (body: { data: { errors?: Array<{ field: string }> } }) => (body.data.errors ?? []).map((error) => error.field).sort();

async function isValid(sessionId: string): Promise<boolean> {
  const response = await checkSession(sessionId);
  if (response.status !== 200) throw new Error(`check-session failed: ${JSON.stringify(response.body)}`);
  return response.body.data.data.isValid;
}

/** A staff member who can log in, with a fresh reset session opened by e-mail. */
async function staffWithResetSession() {
  const staff = await platform.createStaff('tenant');
  const response = await requestByEmail({ email: staff.email });
  expect(response.status).toBe(200);
  return { staff, mail: lastMailTo(staff.email) };
}

describe('POST /staffs/request-reset-password-by-email', () => {
  it('answers 200 with data.message and mails a 6-digit code with its reset session', async () => {
    const staff = await platform.createStaff('tenant');
    const response = await requestByEmail({ email: staff.email });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    const mail = lastMailTo(staff.email);
    expect(mail.subject).toBe('Your password reset code');
    expect(mail.code).toMatch(/^\d{6}$/);
    const row = await platform.sql.query('select staff_id, channel, used_at, expires_at from auth.password_reset_session where id = $1', [mail.sessionId]);
    expect(row.rows).toHaveLength(1);
    expect(row.rows[0]).toMatchObject({ staff_id: staff.id, channel: 'EMAIL', used_at: null });
    const ttl = row.rows[0].expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(await isValid(mail.sessionId)).toBe(true);
  });

  it('finds the address whatever its case', async () => {
    const staff = await platform.createStaff('tenant');
    const before = platform.smtp.mails.length;
    expect((await requestByEmail({ email: staff.email.toUpperCase() })).status).toBe(200);
    expect(platform.smtp.mails.length).toBe(before + 1);
    expect(platform.smtp.mails.at(-1)!.to).toEqual([staff.email]);
  });

  it('answers the same 200 for an unknown address and sends nothing', async () => {
    const known = await platform.createStaff('tenant');
    const knownAnswer = await requestByEmail({ email: known.email });
    const before = platform.smtp.mails.length;
    const email = `${unique('nobody')}@example.com`;
    const response = await requestByEmail({ email });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(knownAnswer.body);
    expect(platform.smtp.mails.length).toBe(before);
    expect(platform.smtp.lastTo(email)).toBeUndefined();
  });

  it('sends nothing for a deleted staff member', async () => {
    const staff = await platform.createStaff('tenant');
    expect((await platform.api('DELETE', `${STAFFS}/${staff.id}`, { token: admin.token })).status).toBe(200);
    const before = platform.smtp.mails.length;
    expect((await requestByEmail({ email: staff.email })).status).toBe(200);
    expect(platform.smtp.mails.length).toBe(before);
  });

  it('writes the mail in Thai for locale th and in Chinese for locale cn', async () => {
    const staff = await platform.createStaff('tenant');
    expect((await requestByEmail({ email: staff.email, locale: 'en' })).status).toBe(200);
    const english = lastMailTo(staff.email);

    await ageSessions(staff.id);
    expect((await requestByEmail({ email: staff.email, locale: 'th' })).status).toBe(200);
    const thai = lastMailTo(staff.email);
    expect(thai.subject).not.toBe(english.subject);
    expect(thai.subject).toMatch(/[\u0E00-\u0E7F]/);
    expect(thai.text).toMatch(/[\u0E00-\u0E7F]/);
    expect(thai.text).toContain(thai.code);
    expect(thai.sessionId).not.toBe(english.sessionId);

    await ageSessions(staff.id);
    expect((await requestByEmail({ email: staff.email, locale: 'cn' })).status).toBe(200);
    const chinese = lastMailTo(staff.email);
    expect(chinese.subject).toMatch(/[\u4E00-\u9FFF]/);
    expect(chinese.text).toMatch(/[\u4E00-\u9FFF]/);
    expect(chinese.subject).not.toBe(thai.subject);

    const done = await reset(chinese.sessionId, { code: chinese.code, newPassword: 'chinese-password' });
    expect(done.status).toBe(200);
    expect((await login(staff.email, 'chinese-password')).status).toBe(200);
  });

  it('rejects a malformed e-mail, a missing e-mail and an unknown locale with 400 naming the field', async () => {
    const before = platform.smtp.mails.length;
    const malformed = await requestByEmail({ email: 'not-an-email' });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['email']);
    const missing = await requestByEmail({});
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['email']);
    const staff = await platform.createStaff('tenant');
    const badLocale = await requestByEmail({ email: staff.email, locale: 'fr' });
    expect(badLocale.status).toBe(400);
    expect(fieldsOf(badLocale.body)).toEqual(['locale']);
    expect(platform.smtp.mails.length).toBe(before);
  });
});

describe('POST /staffs/request-reset-password', () => {
  it('sends the code by e-mail in the locale of the staff member', async () => {
    const staff = await createStaff({ locale: 'th' });
    const response = await requestForStaff({ type: 'EMAIL', staffId: staff.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    const mail = lastMailTo(staff.email);
    expect(mail.subject).toMatch(/[\u0E00-\u0E7F]/);
    expect(await isValid(mail.sessionId)).toBe(true);
  });

  it('sends the code by SMS to the local outbox, and the code resets the password', async () => {
    const phoneNumber = `+66${Date.now() % 1e9}${Math.floor(Math.random() * 10)}`;
    const staff = await createStaff({ phoneNumber });
    const mailsBefore = platform.smtp.mails.length;
    const response = await requestForStaff({ type: 'SMS', staffId: staff.id });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(platform.smtp.mails.length).toBe(mailsBefore);
    const messages = smsTo(phoneNumber);
    expect(messages).toHaveLength(1);
    const sms = parseReset('', messages[0].text);
    const row = await platform.sql.query('select staff_id, channel from auth.password_reset_session where id = $1', [sms.sessionId]);
    expect(row.rows).toEqual([{ staff_id: staff.id, channel: 'SMS' }]);
    expect((await reset(sms.sessionId, { code: sms.code, newPassword: 'sms-password' })).status).toBe(200);
    expect((await login(staff.email, 'sms-password')).status).toBe(200);
  });

  it('answers 400 for SMS when the staff member has no phone number, and sends nothing', async () => {
    const staff = await createStaff();
    const sessions = async () =>
      Number((await platform.sql.query('select count(*) from auth.password_reset_session where staff_id = $1', [staff.id])).rows[0].count);
    const response = await requestForStaff({ type: 'SMS', staffId: staff.id });
    expect(response.status).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(fieldsOf(response.body)).toEqual(['type']);
    expect(await sessions()).toBe(0);
  });

  it('answers 404 with data.data.id for an unknown or deleted staff member', async () => {
    const staffId = randomUUID();
    const unknown = await requestForStaff({ type: 'EMAIL', staffId });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, data: { message: expect.any(String), data: { id: staffId } } });
    const staff = await createStaff();
    await platform.api('DELETE', `${STAFFS}/${staff.id}`, { token: admin.token });
    const deleted = await requestForStaff({ type: 'EMAIL', staffId: staff.id });
    expect(deleted.status).toBe(404);
    expect(platform.smtp.lastTo(staff.email)).toBeUndefined();
  });

  it('rejects an unknown type, a malformed staffId and missing fields with 400 naming the field', async () => {
    const staff = await createStaff();
    const badType = await requestForStaff({ type: 'PIGEON', staffId: staff.id });
    expect(badType.status).toBe(400);
    expect(fieldsOf(badType.body)).toEqual(['type']);
    const badId = await requestForStaff({ type: 'EMAIL', staffId: 'not-a-uuid' });
    expect(badId.status).toBe(400);
    expect(fieldsOf(badId.body)).toEqual(['staffId']);
    const missing = await requestForStaff({});
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['staffId', 'type']);
    expect(platform.smtp.lastTo(staff.email)).toBeUndefined();
  });
});

describe('GET /staffs/check-session/:sessionId', () => {
  it('answers isValid true for a fresh session, in data.data with a message', async () => {
    const { mail } = await staffWithResetSession();
    const response = await checkSession(mail.sessionId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String), data: { isValid: true } } });
  });

  it('answers isValid false after the session was used', async () => {
    const { mail } = await staffWithResetSession();
    expect((await reset(mail.sessionId, { code: mail.code, newPassword: 'used-once' })).status).toBe(200);
    expect(await isValid(mail.sessionId)).toBe(false);
  });

  it('answers isValid false once the session expired', async () => {
    const { mail } = await staffWithResetSession();
    await platform.sql.query(`update auth.password_reset_session set expires_at = now() - interval '1 second' where id = $1`, [mail.sessionId]);
    expect(await isValid(mail.sessionId)).toBe(false);
  });

  it('answers isValid false for an unknown session and 400 naming sessionId for a malformed one', async () => {
    expect(await isValid(randomUUID())).toBe(false);
    const malformed = await checkSession('not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['sessionId']);
  });
});

describe('POST /staffs/reset-password/:sessionId', () => {
  it('sets the new password: the old one no longer logs in, the new one does, and old sessions end', async () => {
    const { staff, mail } = await staffWithResetSession();
    const before = await login(staff.email, staff.password);
    expect(before.status).toBe(200);
    const response = await reset(mail.sessionId, { code: mail.code, newPassword: 'brand-new-password' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    expect((await login(staff.email, staff.password)).status).toBe(401);
    expect((await login(staff.email, 'brand-new-password')).status).toBe(200);
    const refresh = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: before.body.data.data.refreshToken } });
    expect(refresh.status).toBe(401);
  });

  it('refuses a wrong code with 400 on code and keeps the old password', async () => {
    const { staff, mail } = await staffWithResetSession();
    const response = await reset(mail.sessionId, { code: wrongCode(mail.code), newPassword: 'never-set' });
    expect(response.status).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(fieldsOf(response.body)).toEqual(['code']);
    expect((await login(staff.email, 'never-set')).status).toBe(401);
    expect((await login(staff.email, staff.password)).status).toBe(200);
    expect(await isValid(mail.sessionId)).toBe(true);
  });

  it('accepts a session only once', async () => {
    const { staff, mail } = await staffWithResetSession();
    expect((await reset(mail.sessionId, { code: mail.code, newPassword: 'first-reset' })).status).toBe(200);
    const second = await reset(mail.sessionId, { code: mail.code, newPassword: 'second-reset' });
    expect(second.status).toBe(400);
    expect(second.body.data.message).toEqual(expect.any(String));
    expect((await login(staff.email, 'second-reset')).status).toBe(401);
    expect((await login(staff.email, 'first-reset')).status).toBe(200);
  });

  it('lets only one of two concurrent resets with the same session succeed', async () => {
    const { mail } = await staffWithResetSession();
    const results = await Promise.all(
      ['concurrent-one', 'concurrent-two'].map((newPassword) => reset(mail.sessionId, { code: mail.code, newPassword })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
  });

  it('refuses an expired session with 400', async () => {
    const { staff, mail } = await staffWithResetSession();
    await platform.sql.query(`update auth.password_reset_session set expires_at = now() - interval '1 second' where id = $1`, [mail.sessionId]);
    const response = await reset(mail.sessionId, { code: mail.code, newPassword: 'too-late-password' });
    expect(response.status).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect((await login(staff.email, 'too-late-password')).status).toBe(401);
    expect((await login(staff.email, staff.password)).status).toBe(200);
  });

  it('refuses an unknown session with 400 and a malformed one naming sessionId', async () => {
    const unknown = await reset(randomUUID(), { code: '123456', newPassword: 'whatever-password' });
    expect(unknown.status).toBe(400);
    const malformed = await reset('not-a-uuid', { code: '123456', newPassword: 'whatever-password' });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['sessionId']);
  });

  it('refuses the session of a staff member deleted since, and check-session agrees', async () => {
    const { staff, mail } = await staffWithResetSession();
    expect((await platform.api('DELETE', `${STAFFS}/${staff.id}`, { token: admin.token })).status).toBe(200);
    const response = await reset(mail.sessionId, { code: mail.code, newPassword: 'ghost-password' });
    expect(response.status).toBe(400);
    expect(await isValid(mail.sessionId)).toBe(false);
  });

  it('rejects a new password shorter than 6 characters and a missing code, without using up an attempt', async () => {
    const { staff, mail } = await staffWithResetSession();
    const short = await reset(mail.sessionId, { code: mail.code, newPassword: '12345' });
    expect(short.status).toBe(400);
    expect(fieldsOf(short.body)).toEqual(['newPassword']);
    const missing = await reset(mail.sessionId, { newPassword: 'long-enough' });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['code']);
    const empty = await reset(mail.sessionId, { code: '', newPassword: '' });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body)).toEqual(['code', 'newPassword']);
    const row = await platform.sql.query('select failed_attempts, used_at from auth.password_reset_session where id = $1', [mail.sessionId]);
    expect(row.rows[0]).toEqual({ failed_attempts: 0, used_at: null });
    expect((await login(staff.email, staff.password)).status).toBe(200);
    expect((await reset(mail.sessionId, { code: mail.code, newPassword: '123456' })).status).toBe(200);
    expect((await login(staff.email, '123456')).status).toBe(200);
  });

  it('still accepts the right code after four wrong ones', async () => {
    const { mail } = await staffWithResetSession();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await reset(mail.sessionId, { code: wrongCode(mail.code), newPassword: 'not-this-one' })).status).toBe(400);
    }
    expect((await reset(mail.sessionId, { code: mail.code, newPassword: 'fifth-time-lucky' })).status).toBe(200);
  });

  it('locks the session after five wrong codes: the right code is refused afterwards', async () => {
    const { staff, mail } = await staffWithResetSession();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await reset(mail.sessionId, { code: wrongCode(mail.code), newPassword: 'not-this-one' });
      expect(response.status).toBe(400);
      expect(fieldsOf(response.body)).toEqual(['code']);
    }
    expect(await isValid(mail.sessionId)).toBe(false);
    const locked = await reset(mail.sessionId, { code: mail.code, newPassword: 'locked-out-password' });
    expect(locked.status).toBe(400);
    expect(fieldsOf(locked.body)).not.toContain('code');
    expect((await login(staff.email, 'locked-out-password')).status).toBe(401);
  });

  it('counts concurrent wrong codes without letting more than five through', async () => {
    const { mail } = await staffWithResetSession();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => reset(mail.sessionId, { code: wrongCode(mail.code), newPassword: 'parallel-guess' })),
    );
    expect(results.every((result) => result.status === 400)).toBe(true);
    expect(results.filter((result) => fieldsOf(result.body).includes('code'))).toHaveLength(5);
    const row = await platform.sql.query('select failed_attempts from auth.password_reset_session where id = $1', [mail.sessionId]);
    expect(row.rows[0].failed_attempts).toBe(5);
    expect((await reset(mail.sessionId, { code: mail.code, newPassword: 'parallel-right' })).status).toBe(400);
  });
});

describe('several open reset sessions per staff member', () => {
  it('keeps the earlier session open when a new code is requested; a reset with either closes both', async () => {
    const { staff, mail: first } = await staffWithResetSession();
    await ageSessions(staff.id);
    expect((await requestByEmail({ email: staff.email })).status).toBe(200);
    const second = lastMailTo(staff.email);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(await isValid(first.sessionId)).toBe(true);
    expect(await isValid(second.sessionId)).toBe(true);
    expect((await reset(second.sessionId, { code: second.code, newPassword: 'second-code-password' })).status).toBe(200);
    expect(await isValid(first.sessionId)).toBe(false);
    expect((await reset(first.sessionId, { code: first.code, newPassword: 'never-used' })).status).toBe(400);
    expect((await login(staff.email, 'second-code-password')).status).toBe(200);
  });

  it('says how long the code lasts: 15 minutes for a reset, 72 hours for an invitation', async () => {
    const { mail } = await staffWithResetSession();
    expect(mail.text).toContain('It expires in 15 minutes.');
    const email = `${unique('invited')}@example.com`;
    await platform.api('POST', STAFFS, { token: admin.token, body: { email, firstname: 'New', lastname: 'Hire', roleId: tenantRoleId } });
    expect(lastMailTo(email).text).toContain('It expires in 72 hours.');
  });
});

describe('first activation by invitation', () => {
  it('still creates the staff member when the invitation mail cannot be sent', async () => {
    const unreachable = await startTestPlatform({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const boss = await unreachable.createStaff();
      const email = `${unique('nomail')}@example.com`;
      const created = await unreachable.api('POST', STAFFS, {
        token: boss.token,
        body: { email, firstname: 'No', lastname: 'Mail', roleId: tenantRoleId },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.data).toMatchObject({ email, status: 'WAIT_FOR_FIRST_ACTIVE' });
      const fetched = await unreachable.api('GET', `${STAFFS}/${created.body.data.data.id}`, { token: boss.token });
      expect(fetched.status).toBe(200);
    } finally {
      await unreachable.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);

  it('mails an invitation to a new staff member, who logs in once the password is set and becomes ACTIVE', async () => {
    const email = `${unique('invited')}@example.com`;
    const created = await platform.api('POST', STAFFS, {
      token: admin.token,
      body: { email, firstname: 'New', lastname: 'Hire', roleId: tenantRoleId },
    });
    expect(created.status).toBe(201);
    const staff = created.body.data.data;
    expect(staff.status).toBe('WAIT_FOR_FIRST_ACTIVE');
    const invitation = lastMailTo(email);
    const row = await platform.sql.query('select staff_id, expires_at from auth.password_reset_session where id = $1', [invitation.sessionId]);
    expect(row.rows[0].staff_id).toBe(staff.id);
    expect(row.rows[0].expires_at.getTime() - Date.now()).toBeGreaterThan(71 * 3600 * 1000);
    expect(await isValid(invitation.sessionId)).toBe(true);

    const early = await login(email, 'first-password');
    expect(early.status).toBe(401);

    const activated = await reset(invitation.sessionId, { code: invitation.code, newPassword: 'first-password' });
    expect(activated.status).toBe(200);
    const fetched = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(fetched.body.data.data.status).toBe('ACTIVE');
    const loggedIn = await login(email, 'first-password');
    expect(loggedIn.status).toBe(200);
    const me = await platform.api('GET', `${STAFFS}/me`, { token: loggedIn.body.data.data.accessToken });
    expect(me.body.data.data).toMatchObject({ id: staff.id, status: 'ACTIVE' });
  });

  it('writes the invitation in the locale of the new staff member', async () => {
    const email = `${unique('invited')}@example.com`;
    const created = await platform.api('POST', STAFFS, {
      token: admin.token,
      body: { email, firstname: 'New', lastname: 'Hire', roleId: tenantRoleId, locale: 'cn' },
    });
    expect(created.status).toBe(201);
    expect(lastMailTo(email).subject).toMatch(/[\u4E00-\u9FFF]/);
  });

  it('sends no invitation to a staff member created ACTIVE or INACTIVE', async () => {
    const before = platform.smtp.mails.length;
    const active = await createStaff({ status: 'ACTIVE' });
    const inactive = await createStaff({ status: 'INACTIVE' });
    expect(platform.smtp.mails.length).toBe(before);
    expect(platform.smtp.lastTo(active.email)).toBeUndefined();
    expect(platform.smtp.lastTo(inactive.email)).toBeUndefined();
  });

  it('leaves an INACTIVE staff member inactive after a reset: login still answers 401', async () => {
    const staff = await createStaff({ status: 'INACTIVE' });
    expect((await requestForStaff({ type: 'EMAIL', staffId: staff.id })).status).toBe(200);
    const mail = lastMailTo(staff.email);
    expect((await reset(mail.sessionId, { code: mail.code, newPassword: 'inactive-password' })).status).toBe(200);
    const fetched = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(fetched.body.data.data.status).toBe('INACTIVE');
    const response = await login(staff.email, 'inactive-password');
    expect(response.status).toBe(401);
  });
});

describe('anonymous reset requests are throttled per staff member', () => {
  it('refuses a second admin-initiated code within a minute with 429 and Retry-After, sends nothing and keeps the open session', async () => {
    const staff = await createStaff();
    expect((await requestForStaff({ type: 'EMAIL', staffId: staff.id })).status).toBe(200);
    const first = lastMailTo(staff.email);
    const mailsBefore = platform.smtp.mails.length;

    const again = await requestForStaff({ type: 'EMAIL', staffId: staff.id });
    expect(again.status).toBe(429);
    expect(again.body).toEqual({ statusCode: 429, data: { message: expect.any(String) } });
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(platform.smtp.mails.length).toBe(mailsBefore);
    expect(await sessionCount(staff.id)).toBe(1);
    expect(await isValid(first.sessionId)).toBe(true);

    const graphql = await platform.graphql(
      'mutation($input: RequestPasswordResetInput!) { requestStaffPasswordReset(input: $input) }',
      { input: { type: 'EMAIL', staffId: staff.id } },
    );
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });

    await ageSessions(staff.id);
    expect((await requestForStaff({ type: 'EMAIL', staffId: staff.id })).status).toBe(200);
    expect(await sessionCount(staff.id)).toBe(2);
  });

  it('sends at most five codes an hour, whatever the channel, then 429 until the oldest leaves the hour', async () => {
    const phoneNumber = `+66${Date.now() % 1e9}${Math.floor(Math.random() * 10)}`;
    const staff = await createStaff({ phoneNumber });
    for (let request = 0; request < 5; request += 1) {
      const response = await requestForStaff({ type: request % 2 === 0 ? 'EMAIL' : 'SMS', staffId: staff.id });
      expect(response.status).toBe(200);
      await ageSessions(staff.id);
    }
    const sixth = await requestForStaff({ type: 'SMS', staffId: staff.id });
    expect(sixth.status).toBe(429);
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(smsTo(phoneNumber)).toHaveLength(2);
    expect((await requestByEmail({ email: staff.email })).status).toBe(200);
    expect(await sessionCount(staff.id)).toBe(5);

    await ageSessions(staff.id, 3600 - 5 * 61 + 1);
    expect((await requestForStaff({ type: 'SMS', staffId: staff.id })).status).toBe(200);
    expect(smsTo(phoneNumber)).toHaveLength(3);
  });

  it('lets one of several concurrent requests for the same staff member through', async () => {
    const staff = await createStaff();
    const results = await Promise.all(Array.from({ length: 5 }, () => requestForStaff({ type: 'EMAIL', staffId: staff.id })));
    expect(results.map((result) => result.status).sort()).toEqual([200, 429, 429, 429, 429]);
    expect(await sessionCount(staff.id)).toBe(1);
  });

  it('drops a throttled request by e-mail silently: the same 200, no second mail', async () => {
    const { staff, mail } = await staffWithResetSession();
    const mailsBefore = platform.smtp.mails.length;
    const again = await requestByEmail({ email: staff.email });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    expect(platform.smtp.mails.length).toBe(mailsBefore);
    expect(await sessionCount(staff.id)).toBe(1);
    expect(await isValid(mail.sessionId)).toBe(true);
  });

  it('never closes an open invitation: the new staff member still activates with the invitation code', async () => {
    const email = `${unique('invited')}@example.com`;
    const created = await platform.api('POST', STAFFS, { token: admin.token, body: { email, firstname: 'New', lastname: 'Hire', roleId: tenantRoleId } });
    expect(created.status).toBe(201);
    const staffId = created.body.data.data.id;
    const invitation = lastMailTo(email);

    expect((await requestForStaff({ type: 'EMAIL', staffId })).status).toBe(429);
    expect(await isValid(invitation.sessionId)).toBe(true);
    await ageSessions(staffId);
    expect((await requestForStaff({ type: 'EMAIL', staffId })).status).toBe(200);
    await ageSessions(staffId);
    expect((await requestByEmail({ email })).status).toBe(200);
    expect(await sessionCount(staffId)).toBe(3);
    expect(await isValid(invitation.sessionId)).toBe(true);

    expect((await reset(invitation.sessionId, { code: invitation.code, newPassword: 'invited-password' })).status).toBe(200);
    expect((await login(email, 'invited-password')).status).toBe(200);
  });
});
