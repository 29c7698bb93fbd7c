import { randomUUID } from 'node:crypto';
import { CHATAPP_APP_ID, CHATAPP_APP_SECRET } from './support/fake-chatapp';
import { TestMember, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform } = usePlatform();

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const fields = (response: { body: any }) => (response.body.data.errors ?? []).map((error: { field: string }) => error.field).sort();

async function memberRow(id: string) {
  return (await platform.sql.query('select * from auth.member where id = $1', [id])).rows[0];
}

async function me(member: TestMember) {
  const response = await platform.api('GET', '/auth/api/members/me', { token: member.token });
  expect(response.status).toBe(200);
  return response.body.data.data;
}

describe('chat-app login', () => {
  it('creates the member on first login and finds the same member with the same code', async () => {
    const code = unique('code');
    const first = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code } });
    expect(first.status).toBe(200);
    expect(first.body.statusCode).toBe(200);
    expect(first.body.data.message).toEqual(expect.any(String));
    expect(first.body.data.data).toEqual({ status: 'NEW', accessToken: expect.any(String), refreshToken: expect.any(String) });
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`refreshToken=${first.body.data.data.refreshToken}`);
    expect(cookie).toMatch(/HttpOnly/i);

    const second = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code } });
    expect(second.status).toBe(200);
    expect(second.body.data.data.status).toBe('EXISTING');
    expect(second.body.data.data.refreshToken).not.toBe(first.body.data.data.refreshToken);

    const firstMe = await platform.api('GET', '/auth/api/members/me', { token: first.body.data.data.accessToken });
    const secondMe = await platform.api('GET', '/auth/api/members/me', { token: second.body.data.data.accessToken });
    expect(firstMe.body.data.data.id).toEqual(expect.any(String));
    expect(secondMe.body.data.data.id).toBe(firstMe.body.data.data.id);
    expect(secondMe.body.data.data.openId).toBe(`openid-${code}`);
    const rows = await platform.sql.query('select id from auth.member where open_id = $1', [`openid-${code}`]);
    expect(rows.rowCount).toBe(1);
  });

  it('sends the app credentials and the code to the provider', async () => {
    const code = unique('code');
    await platform.loginMember(code);
    const call = platform.chatapp.calls.find((params) => params.get('js_code') === code);
    expect(call).toBeDefined();
    expect(call?.get('appid')).toBe(CHATAPP_APP_ID);
    expect(call?.get('secret')).toBe(CHATAPP_APP_SECRET);
    expect(call?.get('grant_type')).toBe('authorization_code');
  });

  it('answers 401 when the provider answers an errcode, and creates nobody', async () => {
    const code = unique('bad');
    const response = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code } });
    expect(response.status).toBe(401);
    expect(response.body.statusCode).toBe(401);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.headers.get('set-cookie')).toBeNull();
    const rows = await platform.sql.query('select id from auth.member where open_id = $1', [`openid-${code}`]);
    expect(rows.rowCount).toBe(0);
  });

  it('answers 400 on field code when the code is missing or empty', async () => {
    const missing = await platform.api('POST', '/auth/api/members/chatapp/login', { body: {} });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['code']);
    const empty = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code: '' } });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual(['code']);
  });
});

describe('current member', () => {
  it('returns the Member fields of a new member', async () => {
    const code = unique('code');
    const member = await platform.loginMember(code);
    const response = await platform.api('GET', '/auth/api/members/me', { token: member.token });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual({
      id: member.id,
      openId: `openid-${code}`,
      nickName: null,
      avatarUrl: null,
      name: null,
      phoneNumber: null,
      gender: null,
      birthDate: null,
      address: null,
      status: 'PENDING',
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });
  });

  it('answers 401 without a token and 403 for a staff token', async () => {
    expect((await platform.api('GET', '/auth/api/members/me')).status).toBe(401);
    const staff = await platform.createStaff();
    expect((await platform.api('GET', '/auth/api/members/me', { token: staff.token })).status).toBe(403);
  });

  it('answers 404 with data.data.id once the member is soft-deleted', async () => {
    const member = await platform.loginMember();
    await platform.sql.query('update auth.member set deleted_at = now() where id = $1', [member.id]);
    const response = await platform.api('GET', '/auth/api/members/me', { token: member.token });
    expect(response.status).toBe(404);
    expect(response.body.statusCode).toBe(404);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual({ id: member.id });
  });
});

describe('updating the current member', () => {
  it('answers data.message only and persists every field', async () => {
    const member = await platform.loginMember();
    const response = await platform.api('PUT', '/auth/api/members/me', {
      token: member.token,
      body: {
        nickName: 'Nicky',
        avatarUrl: 'https://cdn.example.com/avatar.png',
        birthDate: '1990-05-17',
        name: 'Nicole Member',
        gender: 'Female',
        phoneNumber: '+66812345678',
        address: { address: '1 Main Road', subDistrict: 'Sub', district: 'Dist', province: 'Bangkok', postCode: '10110', country: 'TH', latitude: 13.75, longitude: 100.5 },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    const profile = await me(member);
    expect(profile).toMatchObject({
      id: member.id,
      nickName: 'Nicky',
      avatarUrl: 'https://cdn.example.com/avatar.png',
      birthDate: '1990-05-17T00:00:00.000Z',
      name: 'Nicole Member',
      gender: 'Female',
      phoneNumber: '+66812345678',
      address: { address: '1 Main Road', subDistrict: 'Sub', district: 'Dist', province: 'Bangkok', postCode: '10110', country: 'TH', latitude: 13.75, longitude: 100.5 },
    });
  });

  it('merges a partial update into the existing profile', async () => {
    const member = await platform.loginMember();
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name: 'Before', address: { province: 'Chiang Mai', country: 'TH' } } });
    const response = await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { nickName: 'After', address: { postCode: '50000' } } });
    expect(response.status).toBe(200);
    const profile = await me(member);
    expect(profile.name).toBe('Before');
    expect(profile.nickName).toBe('After');
    expect(profile.address).toEqual({
      address: null,
      subDistrict: null,
      district: null,
      province: 'Chiang Mai',
      postCode: '50000',
      country: 'TH',
      latitude: null,
      longitude: null,
    });
  });

  it.each([
    ['name', { name: 'n'.repeat(101) }],
    ['phoneNumber', { phoneNumber: '1'.repeat(21) }],
    ['nickName', { nickName: 'k'.repeat(257) }],
    ['avatarUrl', { avatarUrl: 'not a url' }],
    ['birthDate', { birthDate: '17/05/1990' }],
    ['birthDate', { birthDate: '1990-13-45' }],
    ['gender', { gender: 'Robot' }],
    ['address.latitude', { address: { latitude: 123 } }],
    ['address.longitude', { address: { longitude: 200 } }],
    ['address.postCode', { address: { postCode: '9'.repeat(33) } }],
  ])('answers 400 on field %s and changes nothing', async (field, body) => {
    const member = await platform.loginMember();
    const before = await memberRow(member.id);
    const response = await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { nickName: 'ShouldNotStick', ...body } });
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
    expect(fields(response)).toEqual([field]);
    const after = await memberRow(member.id);
    expect(after).toEqual(before);
    expect(after.nick_name).toBeNull();
  });

  it('accepts the maximum lengths', async () => {
    const member = await platform.loginMember();
    const body = { name: 'n'.repeat(100), phoneNumber: '1'.repeat(20), nickName: 'k'.repeat(256) };
    const response = await platform.api('PUT', '/auth/api/members/me', { token: member.token, body });
    expect(response.status).toBe(200);
    expect(await me(member)).toMatchObject(body);
  });
});

describe('clearing profile fields', () => {
  it('keeps absent fields, clears fields given as null, and drops address parts given as null', async () => {
    const member = await platform.loginMember();
    const put = (body: Record<string, unknown>) => platform.api('PUT', '/auth/api/members/me', { token: member.token, body });
    expect((await put({ nickName: 'Keep', name: 'Clear Me', birthDate: '1991-01-02', address: { province: 'Bangkok', country: 'TH' } })).status).toBe(200);
    expect((await put({ name: null, birthDate: null, address: { province: null } })).status).toBe(200);
    expect(await me(member)).toMatchObject({ nickName: 'Keep', name: null, birthDate: null, address: { province: null, country: 'TH' } });
    expect((await put({ address: null })).status).toBe(200);
    expect((await me(member)).address).toBeNull();
  });
});

describe('member QR code', () => {
  it('returns a PNG data URL and the member id', async () => {
    const member = await platform.loginMember();
    const response = await platform.api('GET', '/auth/api/members/me/qr-code', { token: member.token });
    expect(response.status).toBe(200);
    expect(response.body.statusCode).toBe(200);
    expect(response.body.data).toEqual({ qrCodeUrl: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/), memberId: member.id });
    const png = Buffer.from(response.body.data.qrCodeUrl.split(',')[1], 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });
});

describe('member list', () => {
  it('answers 401 without a token and 403 for a member token', async () => {
    expect((await platform.api('GET', '/auth/api/members')).status).toBe(401);
    const member = await platform.loginMember();
    const forbidden = await platform.api('GET', '/auth/api/members', { token: member.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.data.message).toEqual(expect.any(String));
  });

  it('paginates in data.data with meta', async () => {
    const staff = await platform.createStaff('tenant');
    const marker = unique('page');
    for (let i = 0; i < 3; i += 1) {
      const member = await platform.loginMember();
      await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name: `${marker} ${i}` } });
    }
    const page1 = await platform.api('GET', `/auth/api/members?search=${marker}&page=1&limit=2`, { token: staff.token });
    expect(page1.status).toBe(200);
    expect(page1.body.data.message).toEqual(expect.any(String));
    expect(page1.body.data.data.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page1.body.data.data.data).toHaveLength(2);
    const page2 = await platform.api('GET', `/auth/api/members?search=${marker}&page=2&limit=2`, { token: staff.token });
    expect(page2.body.data.data.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page2.body.data.data.data).toHaveLength(1);
    const ids = [...page1.body.data.data.data, ...page2.body.data.data.data].map((member: { id: string }) => member.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('uses page 1 and limit 10 by default', async () => {
    const staff = await platform.createStaff();
    const response = await platform.api('GET', '/auth/api/members', { token: staff.token });
    expect(response.status).toBe(200);
    expect(response.body.data.data.meta).toMatchObject({ page: 1, limit: 10 });
    expect(response.body.data.data.data.length).toBeLessThanOrEqual(10);
  });

  it('searches by name, nickname and phone number, case-insensitively', async () => {
    const staff = await platform.createStaff();
    const member = await platform.loginMember();
    const name = unique('Name');
    const nickName = unique('nick');
    const phoneNumber = `+1${Date.now() % 1e9}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name, nickName, phoneNumber } });
    for (const search of [name.toUpperCase(), nickName, phoneNumber.slice(1)]) {
      const response = await platform.api('GET', `/auth/api/members?search=${encodeURIComponent(search)}`, { token: staff.token });
      expect(response.status).toBe(200);
      expect(response.body.data.data.data.map((item: { id: string }) => item.id)).toEqual([member.id]);
    }
    const none = await platform.api('GET', `/auth/api/members?search=${unique('nobody')}`, { token: staff.token });
    expect(none.body.data.data).toEqual({ meta: { page: 1, limit: 10, total: 0, totalPages: 0 }, data: [] });
  });

  it('filters by birthdayFrom', async () => {
    const staff = await platform.createStaff();
    const marker = unique('bday');
    const older = await platform.loginMember();
    const younger = await platform.loginMember();
    await platform.api('PUT', '/auth/api/members/me', { token: older.token, body: { name: `${marker} older`, birthDate: '1980-01-01' } });
    await platform.api('PUT', '/auth/api/members/me', { token: younger.token, body: { name: `${marker} younger`, birthDate: '2000-06-15' } });
    const response = await platform.api('GET', `/auth/api/members?search=${marker}&birthdayFrom=1995-01-01`, { token: staff.token });
    expect(response.status).toBe(200);
    expect(response.body.data.data.data.map((item: { id: string }) => item.id)).toEqual([younger.id]);
    const inclusive = await platform.api('GET', `/auth/api/members?search=${marker}&birthdayFrom=2000-06-15`, { token: staff.token });
    expect(inclusive.body.data.data.data.map((item: { id: string }) => item.id)).toEqual([younger.id]);
    const all = await platform.api('GET', `/auth/api/members?search=${marker}&birthdayFrom=1970-01-01`, { token: staff.token });
    expect(all.body.data.data.meta.total).toBe(2);
  });

  it('hides soft-deleted members', async () => {
    const staff = await platform.createStaff();
    const member = await platform.loginMember();
    const name = unique('deleted');
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name } });
    await platform.sql.query('update auth.member set deleted_at = now() where id = $1', [member.id]);
    const response = await platform.api('GET', `/auth/api/members?search=${name}`, { token: staff.token });
    expect(response.body.data.data.meta.total).toBe(0);
  });

  it('accepts includePointBalance and includeTier', async () => {
    const staff = await platform.createStaff();
    const member = await platform.loginMember();
    const name = unique('incl');
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name } });
    const response = await platform.api('GET', `/auth/api/members?search=${name}&includePointBalance=true&includeTier=true&locale=en`, { token: staff.token });
    expect(response.status).toBe(200);
    expect(response.body.data.data.data.map((item: { id: string }) => item.id)).toEqual([member.id]);
  });

  it.each(['0', '101', 'abc'])('answers 400 on field limit for limit=%s', async (limit) => {
    const staff = await platform.createStaff();
    const response = await platform.api('GET', `/auth/api/members?limit=${limit}`, { token: staff.token });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['limit']);
  });

  it('answers 400 on field page for page=0 and on birthdayFrom for a non-date', async () => {
    const staff = await platform.createStaff();
    const page = await platform.api('GET', '/auth/api/members?page=0', { token: staff.token });
    expect(page.status).toBe(400);
    expect(fields(page)).toEqual(['page']);
    const birthday = await platform.api('GET', '/auth/api/members?birthdayFrom=yesterday', { token: staff.token });
    expect(birthday.status).toBe(400);
    expect(fields(birthday)).toEqual(['birthdayFrom']);
  });
});

describe('members in bulk', () => {
  it('returns exactly {id, nickName, name, status} for the given ids', async () => {
    const staff = await platform.createStaff('tenant');
    const first = await platform.loginMember();
    const second = await platform.loginMember();
    await platform.api('PUT', '/auth/api/members/me', { token: first.token, body: { name: 'First', nickName: 'One' } });
    const response = await platform.api('POST', '/auth/api/members/bulk', { token: staff.token, body: { ids: [first.id, second.id, randomUUID()] } });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    const items = response.body.data.data as Array<Record<string, unknown>>;
    expect(items).toHaveLength(2);
    expect(items.find((item) => item.id === first.id)).toEqual({ id: first.id, nickName: 'One', name: 'First', status: 'PENDING' });
    expect(items.find((item) => item.id === second.id)).toEqual({ id: second.id, nickName: null, name: null, status: 'PENDING' });
  });

  it('answers an empty array for no ids', async () => {
    const staff = await platform.createStaff();
    const response = await platform.api('POST', '/auth/api/members/bulk', { token: staff.token, body: { ids: [] } });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toEqual([]);
  });

  it('answers 400 for an id that is not a UUID, 403 for a member', async () => {
    const staff = await platform.createStaff();
    const member = await platform.loginMember();
    const bad = await platform.api('POST', '/auth/api/members/bulk', { token: staff.token, body: { ids: [member.id, 'not-a-uuid'] } });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['ids']);
    const forbidden = await platform.api('POST', '/auth/api/members/bulk', { token: member.token, body: { ids: [member.id] } });
    expect(forbidden.status).toBe(403);
  });
});

describe('one member', () => {
  it('lets staff with member:read read any member', async () => {
    const staff = await platform.createStaff('tenant');
    const member = await platform.loginMember();
    const response = await platform.api('GET', `/auth/api/members/${member.id}`, { token: staff.token });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ id: member.id, status: 'PENDING', createdAt: expect.stringMatching(ISO_TIMESTAMP) });
  });

  it('lets a member read itself but not another member', async () => {
    const member = await platform.loginMember();
    const other = await platform.loginMember();
    const self = await platform.api('GET', `/auth/api/members/${member.id}`, { token: member.token });
    expect(self.status).toBe(200);
    expect(self.body.data.data.id).toBe(member.id);
    const forbidden = await platform.api('GET', `/auth/api/members/${other.id}`, { token: member.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.data.data).toBeUndefined();
  });

  it('answers 404 with data.data.id for an unknown or soft-deleted member, 400 for a malformed id', async () => {
    const staff = await platform.createStaff();
    const unknownId = randomUUID();
    const unknown = await platform.api('GET', `/auth/api/members/${unknownId}`, { token: staff.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.data).toEqual({ id: unknownId });
    const member = await platform.loginMember();
    await platform.sql.query('update auth.member set deleted_at = now() where id = $1', [member.id]);
    const deleted = await platform.api('GET', `/auth/api/members/${member.id}`, { token: staff.token });
    expect(deleted.status).toBe(404);
    expect(deleted.body.data.data).toEqual({ id: member.id });
    const malformed = await platform.api('GET', '/auth/api/members/not-a-uuid', { token: staff.token });
    expect(malformed.status).toBe(400);
    expect(fields(malformed)).toEqual(['id']);
  });
});

describe('chat-app profile sync', () => {
  it('maps gender 1 to Male, puts province, city and country in the address and moves PENDING to CHATAPP_INFO_SYNCED', async () => {
    const member = await platform.loginMember();
    expect((await me(member)).status).toBe('PENDING');
    const response = await platform.api('POST', `/auth/api/members/chatapp/sync/${member.id}`, {
      token: member.token,
      body: { nickName: 'Chatty', avatarUrl: 'https://chat.example.com/a.png', gender: 1, province: 'Guangdong', city: 'Shenzhen', country: 'CN' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    const profile = await me(member);
    expect(profile).toMatchObject({
      nickName: 'Chatty',
      avatarUrl: 'https://chat.example.com/a.png',
      gender: 'Male',
      status: 'CHATAPP_INFO_SYNCED',
      address: { province: 'Guangdong', district: 'Shenzhen', country: 'CN' },
    });
  });

  it('maps gender 2 to Female and keeps the address fields it does not set', async () => {
    const member = await platform.loginMember();
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { address: { address: '9 Side Street', postCode: '10110' } } });
    const response = await platform.api('POST', `/auth/api/members/chatapp/sync/${member.id}`, { token: member.token, body: { gender: 2, city: 'Bangkok' } });
    expect(response.status).toBe(200);
    const profile = await me(member);
    expect(profile.gender).toBe('Female');
    expect(profile.address).toMatchObject({ address: '9 Side Street', postCode: '10110', district: 'Bangkok' });
  });

  it('does not move an ACTIVE member back', async () => {
    const staff = await platform.createStaff();
    const member = await platform.loginMember();
    await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: staff.token, body: { status: 'ACTIVE' } });
    await platform.api('POST', `/auth/api/members/chatapp/sync/${member.id}`, { token: member.token, body: { nickName: 'Still active' } });
    const profile = await me(member);
    expect(profile.nickName).toBe('Still active');
    expect(profile.status).toBe('ACTIVE');
  });

  it('answers 400 on field gender for gender 5 and changes nothing', async () => {
    const member = await platform.loginMember();
    const before = await memberRow(member.id);
    const response = await platform.api('POST', `/auth/api/members/chatapp/sync/${member.id}`, { token: member.token, body: { gender: 5, nickName: 'x' } });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['gender']);
    expect(await memberRow(member.id)).toEqual(before);
  });

  it('answers 403 when a member syncs another member', async () => {
    const member = await platform.loginMember();
    const other = await platform.loginMember();
    const before = await memberRow(other.id);
    const response = await platform.api('POST', `/auth/api/members/chatapp/sync/${other.id}`, { token: member.token, body: { nickName: 'Hijack' } });
    expect(response.status).toBe(403);
    expect(await memberRow(other.id)).toEqual(before);
  });
});

describe('staff updating a member', () => {
  it('lets staff with member:manage update a member', async () => {
    const staff = await platform.createStaff('marketing');
    const member = await platform.loginMember();
    const response = await platform.api('PUT', `/auth/api/members/${member.id}`, { token: staff.token, body: { name: 'Set by staff', gender: 'Other' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    expect(await me(member)).toMatchObject({ name: 'Set by staff', gender: 'Other' });
  });

  it('answers 403 for tenant staff and for a member, and changes nothing', async () => {
    const tenant = await platform.createStaff('tenant');
    const member = await platform.loginMember();
    const before = await memberRow(member.id);
    const byTenant = await platform.api('PUT', `/auth/api/members/${member.id}`, { token: tenant.token, body: { name: 'Nope' } });
    expect(byTenant.status).toBe(403);
    const bySelf = await platform.api('PUT', `/auth/api/members/${member.id}`, { token: member.token, body: { name: 'Nope' } });
    expect(bySelf.status).toBe(403);
    expect(await memberRow(member.id)).toEqual(before);
  });

  it('answers 404 with data.data.id for an unknown member and 400 on the failing field', async () => {
    const staff = await platform.createStaff();
    const unknownId = randomUUID();
    const unknown = await platform.api('PUT', `/auth/api/members/${unknownId}`, { token: staff.token, body: { name: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.data).toEqual({ id: unknownId });
    const member = await platform.loginMember();
    const invalid = await platform.api('PUT', `/auth/api/members/${member.id}`, { token: staff.token, body: { phoneNumber: '1'.repeat(21) } });
    expect(invalid.status).toBe(400);
    expect(fields(invalid)).toEqual(['phoneNumber']);
  });
});

describe('direct member creation', () => {
  it('requires name and phoneNumber', async () => {
    const staff = await platform.createStaff();
    const response = await platform.api('POST', '/auth/api/members/direct', { token: staff.token, body: {} });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['name', 'phoneNumber']);
    const empty = await platform.api('POST', '/auth/api/members/direct', { token: staff.token, body: { name: '', phoneNumber: '' } });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual(['name', 'phoneNumber']);
    const long = await platform.api('POST', '/auth/api/members/direct', { token: staff.token, body: { name: 'n'.repeat(101), phoneNumber: '1'.repeat(21) } });
    expect(long.status).toBe(400);
    expect(fields(long)).toEqual(['name', 'phoneNumber']);
  });

  it('creates an ACTIVE member and answers data.message', async () => {
    const staff = await platform.createStaff('marketing');
    const name = unique('Walkin');
    const response = await platform.api('POST', '/auth/api/members/direct', {
      token: staff.token,
      body: { name, phoneNumber: '0812345678', birthDate: '1985-02-03', gender: 'Male', address: { province: 'Phuket' } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    const list = await platform.api('GET', `/auth/api/members?search=${name}`, { token: staff.token });
    expect(list.body.data.data.data).toHaveLength(1);
    expect(list.body.data.data.data[0]).toMatchObject({
      name,
      phoneNumber: '0812345678',
      birthDate: '1985-02-03T00:00:00.000Z',
      gender: 'Male',
      status: 'ACTIVE',
      openId: null,
      address: { province: 'Phuket' },
    });
  });

  it('answers 403 for tenant staff and creates nobody', async () => {
    const tenant = await platform.createStaff('tenant');
    const name = unique('Refused');
    const response = await platform.api('POST', '/auth/api/members/direct', { token: tenant.token, body: { name, phoneNumber: '0800000000' } });
    expect(response.status).toBe(403);
    expect((await platform.sql.query('select id from auth.member where name = $1', [name])).rowCount).toBe(0);
  });
});

describe('direct member update', () => {
  it('deactivates a member: its refresh token and its chat-app login then fail with 401', async () => {
    const staff = await platform.createStaff();
    const code = unique('code');
    const member = await platform.loginMember(code);
    const response = await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: staff.token, body: { status: 'INACTIVE', name: 'Gone' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String) } });
    const row = await memberRow(member.id);
    expect(row.status).toBe('INACTIVE');
    expect(row.name).toBe('Gone');
    const refresh = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: member.refreshToken } });
    expect(refresh.status).toBe(401);
    const login = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code } });
    expect(login.status).toBe(401);
    expect(login.headers.get('set-cookie')).toBeNull();
  });

  it('reactivates a member so that it can log in again', async () => {
    const staff = await platform.createStaff();
    const code = unique('code');
    const member = await platform.loginMember(code);
    await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: staff.token, body: { status: 'INACTIVE' } });
    const reactivated = await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: staff.token, body: { status: 'ACTIVE' } });
    expect(reactivated.status).toBe(200);
    const login = await platform.api('POST', '/auth/api/members/chatapp/login', { body: { code } });
    expect(login.status).toBe(200);
    expect(login.body.data.data.status).toBe('EXISTING');
  });

  it('answers 400 on field status for an unknown status and 403 for tenant staff', async () => {
    const staff = await platform.createStaff();
    const tenant = await platform.createStaff('tenant');
    const member = await platform.loginMember();
    const before = await memberRow(member.id);
    const invalid = await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: staff.token, body: { status: 'BANNED' } });
    expect(invalid.status).toBe(400);
    expect(fields(invalid)).toEqual(['status']);
    const forbidden = await platform.api('PUT', `/auth/api/members/${member.id}/direct`, { token: tenant.token, body: { status: 'INACTIVE' } });
    expect(forbidden.status).toBe(403);
    expect(await memberRow(member.id)).toEqual(before);
  });
});
