import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, admin } = usePlatform({ staff: ['admin'] });

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const fields = (response: { body: any }) => (response.body.data.errors ?? []).map((error: { field: string }) => error.field).sort();

type ConsentType = 'PRIVACY_POLICY' | 'TERMS';

/** Publishes a consent version as the admin (effective now unless told otherwise) and returns it. */
async function publish(type: ConsentType, extra: Record<string, unknown> = {}) {
  const response = await platform.api('POST', '/auth/api/consents', {
    token: admin.token,
    body: { type, version: unique('v'), content_en: 'English text', ...extra },
  });
  expect(response.status).toBe(201);
  return response.body.data.data;
}

async function myStatus(token: string, type: ConsentType) {
  const response = await platform.api('GET', '/auth/api/members/me/consents', { token });
  expect(response.status).toBe(200);
  return response.body.data.data.find((status: { type: string }) => status.type === type);
}

describe('roles', () => {
  it('lists every role with its permissions for staff with role:read', async () => {
    for (const roleKey of ['admin', 'marketing', 'tenant']) {
      const staff = await platform.createStaff(roleKey);
      const response = await platform.api('GET', '/auth/api/roles', { token: staff.token });
      expect(response.status).toBe(200);
      expect(response.body.data.message).toEqual(expect.any(String));
      const roles = response.body.data.data as Array<{ key: string; permissions: string[] }>;
      const byKey = Object.fromEntries(roles.map((role) => [role.key, role]));
      expect(Object.keys(byKey)).toEqual(expect.arrayContaining(['admin', 'marketing', 'tenant', 'customer']));
      expect(byKey.admin.permissions).toEqual(['*']);
      expect([...byKey.marketing.permissions].sort()).toEqual(['analytics:read', 'analytics:report', 'badge:manage', 'booking:manage', 'booking:read', 'campaign:manage', 'campaign:read', 'consent:manage', 'member:manage', 'member:read', 'notification:manage', 'notification:read', 'point:manage', 'point:read', 'point:request', 'point:review', 'reward:manage', 'reward:read', 'role:read', 'segment:manage', 'segment:read', 'tier:manage', 'tier:read']);
      expect([...byKey.tenant.permissions].sort()).toEqual(['booking:read', 'campaign:read', 'member:read', 'notification:read', 'point:read', 'point:request', 'reward:read', 'role:read', 'tier:read']);
      expect(byKey.customer.permissions).toEqual([]);
    }
  });

  it('returns every language without locale and the role fields', async () => {
    const response = await platform.api('GET', '/auth/api/roles', { token: admin.token });
    const tenant = response.body.data.data.find((role: { key: string }) => role.key === 'tenant');
    expect(tenant).toEqual({
      id: await platform.roleId('tenant'),
      key: 'tenant',
      name_en: 'Tenant',
      name_th: expect.any(String),
      name_cn: expect.any(String),
      permissions: expect.any(Array),
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
  });

  it('projects the requested locale and nulls the other languages', async () => {
    const all = await platform.api('GET', '/auth/api/roles', { token: admin.token });
    const response = await platform.api('GET', '/auth/api/roles?locale=th', { token: admin.token });
    expect(response.status).toBe(200);
    // The seeded roles, which have Thai names (other test files add roles to the shared database meanwhile).
    const seeded = response.body.data.data.filter((role: { key: string }) => ['admin', 'marketing', 'tenant', 'customer'].includes(role.key));
    expect(seeded).toHaveLength(4);
    for (const role of seeded) {
      const full = all.body.data.data.find((item: { key: string }) => item.key === role.key);
      expect(role.name_th).toBe(full.name_th);
      expect(role.name_th).toEqual(expect.any(String));
      expect(role.name_en).toBeNull();
      expect(role.name_cn).toBeNull();
    }
  });

  it('answers 400 on field locale for an unknown locale', async () => {
    const response = await platform.api('GET', '/auth/api/roles?locale=fr', { token: admin.token });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['locale']);
  });

  it('answers 401 without a token and 403 for a member token', async () => {
    const missing = await platform.api('GET', '/auth/api/roles');
    expect(missing.status).toBe(401);
    const member = await platform.loginMember();
    const forbidden = await platform.api('GET', '/auth/api/roles', { token: member.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.data.data).toBeUndefined();
  });
});

describe('publishing consent versions', () => {
  it('answers 201 with the version, for admin and for marketing', async () => {
    const version = unique('v');
    const response = await platform.api('POST', '/auth/api/consents', {
      token: admin.token,
      body: { type: 'PRIVACY_POLICY', version, content_en: 'Policy', content_th: 'นโยบาย', url: 'https://example.com/privacy' },
    });
    expect(response.status).toBe(201);
    expect(response.body.statusCode).toBe(201);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual({
      id: expect.any(String),
      type: 'PRIVACY_POLICY',
      version,
      content_en: 'Policy',
      content_th: 'นโยบาย',
      content_cn: null,
      url: 'https://example.com/privacy',
      effectiveAt: expect.stringMatching(ISO_TIMESTAMP),
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    const row = await platform.sql.query('select version from auth.consent_version where id = $1', [response.body.data.data.id]);
    expect(row.rows).toEqual([{ version }]);

    const marketing = await platform.createStaff('marketing');
    const byMarketing = await platform.api('POST', '/auth/api/consents', { token: marketing.token, body: { type: 'TERMS', version: unique('v') } });
    expect(byMarketing.status).toBe(201);
    expect(byMarketing.body.data.data.type).toBe('TERMS');
  });

  it('keeps the effectiveAt it is given', async () => {
    const effectiveAt = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    const version = await publish('TERMS', { effectiveAt });
    expect(version.effectiveAt).toBe(effectiveAt);
  });

  it('answers 403 for tenant staff and for a member, and publishes nothing', async () => {
    const tenant = await platform.createStaff('tenant');
    const member = await platform.loginMember();
    const version = unique('v');
    for (const token of [tenant.token, member.token]) {
      const response = await platform.api('POST', '/auth/api/consents', { token, body: { type: 'TERMS', version } });
      expect(response.status).toBe(403);
    }
    expect((await platform.api('POST', '/auth/api/consents', { body: { type: 'TERMS', version } })).status).toBe(401);
    expect((await platform.sql.query('select id from auth.consent_version where version = $1', [version])).rowCount).toBe(0);
  });

  it('answers 409 for a type and version that already exist, but allows the same version for the other type', async () => {
    const version = unique('v');
    const first = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'TERMS', version } });
    expect(first.status).toBe(201);
    const duplicate = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'TERMS', version } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.statusCode).toBe(409);
    expect(duplicate.body.data.message).toEqual(expect.any(String));
    const otherType = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'PRIVACY_POLICY', version } });
    expect(otherType.status).toBe(201);
    expect((await platform.sql.query('select type from auth.consent_version where version = $1 order by type', [version])).rows).toEqual([
      { type: 'PRIVACY_POLICY' },
      { type: 'TERMS' },
    ]);
  });

  it('answers 400 on the failing field', async () => {
    const badType = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'COOKIES', version: unique('v') } });
    expect(badType.status).toBe(400);
    expect(fields(badType)).toEqual(['type']);
    const noVersion = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'TERMS' } });
    expect(noVersion.status).toBe(400);
    expect(fields(noVersion)).toEqual(['version']);
    const emptyVersion = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'TERMS', version: '' } });
    expect(emptyVersion.status).toBe(400);
    expect(fields(emptyVersion)).toEqual(['version']);
    const badUrl = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'TERMS', version: unique('v'), url: 'not a url' } });
    expect(badUrl.status).toBe(400);
    expect(fields(badUrl)).toEqual(['url']);
    const badDate = await platform.api('POST', '/auth/api/consents', { token: admin.token, body: { type: 'TERMS', version: unique('v'), effectiveAt: 'soon' } });
    expect(badDate.status).toBe(400);
    expect(fields(badDate)).toEqual(['effectiveAt']);
  });
});

describe('listing consent versions', () => {
  it('filters by type, newest effectiveAt first', async () => {
    const older = await publish('TERMS', { effectiveAt: new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString() });
    const newer = await publish('TERMS', { effectiveAt: new Date(Date.now() - 1 * 24 * 3600 * 1000).toISOString() });
    const policy = await publish('PRIVACY_POLICY');
    const response = await platform.api('GET', '/auth/api/consents?type=TERMS', { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    const versions = response.body.data.data as Array<{ id: string; type: string; effectiveAt: string }>;
    expect(versions.every((version) => version.type === 'TERMS')).toBe(true);
    const ids = versions.map((version) => version.id);
    expect(ids).toContain(older.id);
    expect(ids).not.toContain(policy.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    const times = versions.map((version) => Date.parse(version.effectiveAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const all = await platform.api('GET', '/auth/api/consents', { token: admin.token });
    expect(all.body.data.data.map((version: { id: string }) => version.id)).toEqual(expect.arrayContaining([older.id, policy.id]));
  });

  it('projects the requested locale, falling back to English', async () => {
    const translated = await publish('PRIVACY_POLICY', { content_en: 'Hello', content_th: 'สวัสดี', content_cn: '你好' });
    const englishOnly = await publish('PRIVACY_POLICY', { content_en: 'Only English' });
    const response = await platform.api('GET', '/auth/api/consents?type=PRIVACY_POLICY&locale=th', { token: admin.token });
    const byId = Object.fromEntries(response.body.data.data.map((version: { id: string }) => [version.id, version]));
    expect(byId[translated.id]).toMatchObject({ content_th: 'สวัสดี', content_en: null, content_cn: null });
    expect(byId[englishOnly.id]).toMatchObject({ content_th: 'Only English', content_en: null, content_cn: null });
  });

  it('answers 400 on field type for an unknown type', async () => {
    const response = await platform.api('GET', '/auth/api/consents?type=COOKIES', { token: admin.token });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['type']);
  });
});

describe('current consent versions', () => {
  it('answers the newest version whose effectiveAt has passed, per type', async () => {
    const terms = await publish('TERMS');
    const policy = await publish('PRIVACY_POLICY');
    const future = await publish('TERMS', { effectiveAt: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString() });
    const backdated = await publish('TERMS', { effectiveAt: new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString() });
    const response = await platform.api('GET', '/auth/api/consents/current', { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    const current = response.body.data.data as Array<{ id: string; type: string }>;
    expect(current.map((version) => version.type).sort()).toEqual(['PRIVACY_POLICY', 'TERMS']);
    expect(current.find((version) => version.type === 'TERMS')).toEqual(terms);
    expect(current.find((version) => version.type === 'PRIVACY_POLICY')).toEqual(policy);
    expect(current.map((version) => version.id)).not.toContain(future.id);
    expect(current.map((version) => version.id)).not.toContain(backdated.id);
  });

  it('projects the requested locale', async () => {
    await publish('TERMS', { content_en: 'Terms', content_cn: '条款' });
    const response = await platform.api('GET', '/auth/api/consents/current?locale=cn', { token: admin.token });
    const terms = response.body.data.data.find((version: { type: string }) => version.type === 'TERMS');
    expect(terms).toMatchObject({ content_cn: '条款', content_en: null, content_th: null });
  });
});

describe('member consent', () => {
  it('tracks acceptance of the current version until a newer version is published', async () => {
    const member = await platform.loginMember();
    const v1 = await publish('PRIVACY_POLICY');
    const before = await myStatus(member.token, 'PRIVACY_POLICY');
    expect(before).toEqual({ type: 'PRIVACY_POLICY', currentVersion: v1, acceptedVersion: null, acceptedAt: null, hasAcceptedCurrent: false });

    const accepted = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: v1.id } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.message).toEqual(expect.any(String));
    const acceptedPolicy = accepted.body.data.data.find((status: { type: string }) => status.type === 'PRIVACY_POLICY');
    expect(acceptedPolicy).toEqual({
      type: 'PRIVACY_POLICY',
      currentVersion: v1,
      acceptedVersion: v1.version,
      acceptedAt: expect.stringMatching(ISO_TIMESTAMP),
      hasAcceptedCurrent: true,
    });
    expect(await myStatus(member.token, 'PRIVACY_POLICY')).toEqual(acceptedPolicy);
    expect((await myStatus(member.token, 'TERMS')).hasAcceptedCurrent).toBe(false);

    const v2 = await publish('PRIVACY_POLICY');
    const after = await myStatus(member.token, 'PRIVACY_POLICY');
    expect(after).toEqual({
      type: 'PRIVACY_POLICY',
      currentVersion: v2,
      acceptedVersion: v1.version,
      acceptedAt: acceptedPolicy.acceptedAt,
      hasAcceptedCurrent: false,
    });

    await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: v2.id } });
    expect(await myStatus(member.token, 'PRIVACY_POLICY')).toMatchObject({ acceptedVersion: v2.version, hasAcceptedCurrent: true });
  });

  it('is idempotent when the same version is accepted twice', async () => {
    const member = await platform.loginMember();
    const terms = await publish('TERMS');
    const first = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: terms.id } });
    const second = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: terms.id } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const firstTerms = first.body.data.data.find((status: { type: string }) => status.type === 'TERMS');
    const secondTerms = second.body.data.data.find((status: { type: string }) => status.type === 'TERMS');
    expect(secondTerms).toEqual(firstTerms);
    expect(secondTerms.hasAcceptedCurrent).toBe(true);
    const rows = await platform.sql.query('select id from auth.consent_acceptance where member_id = $1 and consent_version_id = $2', [member.id, terms.id]);
    expect(rows.rowCount).toBe(1);
  });

  it('answers 404 with data.data.id for an unknown version and 400 on consentVersionId for a malformed one', async () => {
    const member = await platform.loginMember();
    const unknownId = randomUUID();
    const unknown = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: unknownId } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.data).toEqual({ id: unknownId });
    const malformed = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: 'nope' } });
    expect(malformed.status).toBe(400);
    expect(fields(malformed)).toEqual(['consentVersionId']);
    const missing = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: {} });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['consentVersionId']);
    expect((await platform.sql.query('select id from auth.consent_acceptance where member_id = $1', [member.id])).rowCount).toBe(0);
  });

  it('answers 404 with the member id to a soft-deleted member and records nothing', async () => {
    const member = await platform.loginMember();
    const terms = await publish('TERMS');
    await platform.sql.query('update auth.member set deleted_at = now() where id = $1', [member.id]);
    const accept = await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: terms.id } });
    expect(accept.status).toBe(404);
    expect(accept.body.data.data).toEqual({ id: member.id });
    expect((await platform.sql.query('select id from auth.consent_acceptance where member_id = $1', [member.id])).rowCount).toBe(0);
    const status = await platform.api('GET', '/auth/api/members/me/consents', { token: member.token });
    expect(status.status).toBe(404);
  });

  it('answers 401 without a token and 403 for staff on the member routes', async () => {
    expect((await platform.api('GET', '/auth/api/members/me/consents')).status).toBe(401);
    const terms = await publish('TERMS');
    const staffAccept = await platform.api('POST', '/auth/api/members/me/consents', { token: admin.token, body: { consentVersionId: terms.id } });
    expect(staffAccept.status).toBe(403);
    expect((await platform.api('GET', '/auth/api/members/me/consents', { token: admin.token })).status).toBe(403);
  });
});

describe("a member's consent, for staff", () => {
  it('shows staff with member:read where a member stands', async () => {
    const member = await platform.loginMember();
    const terms = await publish('TERMS');
    await platform.api('POST', '/auth/api/members/me/consents', { token: member.token, body: { consentVersionId: terms.id } });
    const tenant = await platform.createStaff('tenant');
    const response = await platform.api('GET', `/auth/api/members/${member.id}/consents`, { token: tenant.token });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual((await platform.api('GET', '/auth/api/members/me/consents', { token: member.token })).body.data.data);
    expect(response.body.data.data.find((status: { type: string }) => status.type === 'TERMS')).toMatchObject({
      acceptedVersion: terms.version,
      hasAcceptedCurrent: true,
      currentVersion: { id: terms.id },
    });
  });

  it('answers 404 with data.data.id for an unknown member and 403 for another member', async () => {
    const unknownId = randomUUID();
    const unknown = await platform.api('GET', `/auth/api/members/${unknownId}/consents`, { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.data).toEqual({ id: unknownId });
    const member = await platform.loginMember();
    const other = await platform.loginMember();
    expect((await platform.api('GET', `/auth/api/members/${other.id}/consents`, { token: member.token })).status).toBe(403);
    const own = await platform.api('GET', `/auth/api/members/${member.id}/consents`, { token: member.token });
    expect(own.status).toBe(200);
    expect(own.body.data.data.map((status: { type: string }) => status.type).sort()).toEqual(['PRIVACY_POLICY', 'TERMS']);
  });
});
