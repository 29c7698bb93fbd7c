import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const STAFFS = '/auth/api/staffs';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const { platform, admin } = usePlatform({ staff: ['admin'] });
let tenantRoleId: string;
let marketingRoleId: string;
beforeAll(async () => {
  tenantRoleId = await platform.roleId('tenant');
  marketingRoleId = await platform.roleId('marketing');
});

const newStaff = (overrides: Record<string, unknown> = {}) => ({
  email: `${unique('new')}@example.com`,
  firstname: 'Ada',
  lastname: 'Lovelace',
  roleId: tenantRoleId,
  ...overrides,
});

const fieldsOf = (body: { data: { errors?: Array<{ field: string }> } }) => (body.data.errors ?? []).map((error) => error.field).sort();

/** Live and deleted rows with this e-mail, whatever its case. */
const rowsWithEmail = async (email: string) =>
  Number((await platform.sql.query('select count(*) from auth.staff where lower(email) = lower($1)', [email])).rows[0].count);

const create = async (overrides: Record<string, unknown> = {}) => {
  const response = await platform.api('POST', STAFFS, { token: admin.token, body: newStaff(overrides) });
  if (response.status !== 201) throw new Error(`staff creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data.data;
};

const list = (query: string, token = admin.token) => platform.api('GET', `${STAFFS}?${query}`, { token });

describe('GET /staffs', () => {
  it('returns a page in data.data with the default page 1 and limit 10', async () => {
    await create();
    const response = await platform.api('GET', STAFFS, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body.statusCode).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    const { meta, data } = response.body.data.data;
    expect(meta.page).toBe(1);
    expect(meta.limit).toBe(10);
    expect(meta.total).toBeGreaterThanOrEqual(2);
    expect(meta.totalPages).toBe(Math.ceil(meta.total / 10));
    expect(data).toHaveLength(Math.min(10, meta.total));
    expect(Object.keys(data[0]).sort()).toEqual(
      ['createdAt', 'email', 'firstname', 'id', 'lastname', 'locale', 'phoneNumber', 'roleId', 'status', 'storeId', 'updatedAt'].sort(),
    );
  });

  it('pages through the results with page and limit', async () => {
    const storeId = unique('store');
    const created = [await create({ storeId }), await create({ storeId }), await create({ storeId })];
    const first = await list(`storeId=${storeId}&page=1&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.data.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(first.body.data.data.data).toHaveLength(2);
    const second = await list(`storeId=${storeId}&page=2&limit=2`);
    expect(second.body.data.data.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(second.body.data.data.data).toHaveLength(1);
    const seen = [...first.body.data.data.data, ...second.body.data.data.data].map((staff: { id: string }) => staff.id).sort();
    expect(seen).toEqual(created.map((staff) => staff.id).sort());
    const beyond = await list(`storeId=${storeId}&page=3&limit=2`);
    expect(beyond.body.data.data.meta.total).toBe(3);
    expect(beyond.body.data.data.data).toEqual([]);
  });

  it.each(['0', '101', '-1', 'abc', '2.5'])('rejects limit=%s with 400 naming the field limit', async (limit) => {
    const response = await list(`limit=${limit}`);
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(fieldsOf(response.body)).toContain('limit');
  });

  it('accepts the limit bounds 1 and 100', async () => {
    const one = await list('limit=1');
    expect(one.status).toBe(200);
    expect(one.body.data.data.data).toHaveLength(1);
    const hundred = await list('limit=100');
    expect(hundred.status).toBe(200);
    expect(hundred.body.data.data.meta.limit).toBe(100);
  });

  it('rejects page=0 with 400 naming the field page', async () => {
    const response = await list('page=0');
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['page']);
  });

  it('filters by storeId, roleId and status', async () => {
    const storeId = unique('store');
    const tenant = await create({ storeId });
    const marketing = await create({ storeId, roleId: marketingRoleId, status: 'ACTIVE' });
    const elsewhere = await create({ storeId: unique('store'), roleId: marketingRoleId, status: 'ACTIVE' });

    const byStore = await list(`storeId=${storeId}`);
    expect(byStore.body.data.data.data.map((staff: { id: string }) => staff.id).sort()).toEqual([tenant.id, marketing.id].sort());

    const byRole = await list(`storeId=${storeId}&roleId=${marketingRoleId}`);
    expect(byRole.body.data.data.data.map((staff: { id: string }) => staff.id)).toEqual([marketing.id]);
    expect(byRole.body.data.data.meta.total).toBe(1);

    const byStatus = await list(`storeId=${storeId}&status=WAIT_FOR_FIRST_ACTIVE`);
    expect(byStatus.body.data.data.data.map((staff: { id: string }) => staff.id)).toEqual([tenant.id]);

    const roleAcrossStores = await list(`roleId=${marketingRoleId}&limit=100&search=${elsewhere.email}`);
    expect(roleAcrossStores.body.data.data.data.map((staff: { id: string }) => staff.id)).toEqual([elsewhere.id]);
  });

  it('rejects a malformed roleId and an unknown status filter naming the field', async () => {
    const badRole = await list('roleId=not-a-uuid');
    expect(badRole.status).toBe(400);
    expect(fieldsOf(badRole.body)).toEqual(['roleId']);
    const badStatus = await list('status=SLEEPING');
    expect(badStatus.status).toBe(400);
    expect(fieldsOf(badStatus.body)).toEqual(['status']);
  });

  it('searches by first name, last name and e-mail, case-insensitively', async () => {
    const storeId = unique('store');
    const marker = unique('Zed');
    const byFirst = await create({ storeId, firstname: `Ann${marker}` });
    const byLast = await create({ storeId, lastname: `Smith${marker}` });
    const byEmail = await create({ storeId, email: `${marker.toLowerCase()}@example.com` });
    await create({ storeId });

    const ids = async (search: string) =>
      (await list(`storeId=${storeId}&search=${encodeURIComponent(search)}`)).body.data.data.data.map((staff: { id: string }) => staff.id).sort();
    expect(await ids(marker.toUpperCase())).toEqual([byFirst.id, byLast.id, byEmail.id].sort());
    expect(await ids(`ann${marker}`)).toEqual([byFirst.id]);
    expect(await ids(`${marker}@example`)).toEqual([byEmail.id]);
    expect(await ids(byLast.lastname)).toEqual([byLast.id]);
    expect(await ids('%')).toEqual([]);
    expect(await ids('_')).toEqual([]);
  });

  it('hides soft-deleted staff', async () => {
    const storeId = unique('store');
    const kept = await create({ storeId });
    const removed = await create({ storeId });
    expect((await platform.api('DELETE', `${STAFFS}/${removed.id}`, { token: admin.token })).status).toBe(200);
    const response = await list(`storeId=${storeId}`);
    expect(response.body.data.data.data.map((staff: { id: string }) => staff.id)).toEqual([kept.id]);
    expect(response.body.data.data.meta.total).toBe(1);
    const searched = await list(`search=${encodeURIComponent(removed.email)}`);
    expect(searched.body.data.data.data).toEqual([]);
  });
});

describe('GET /staffs/me', () => {
  it('returns the staff member of the token', async () => {
    const response = await platform.api('GET', `${STAFFS}/me`, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toMatchObject({
      id: admin.id,
      email: admin.email,
      roleId: await platform.roleId('admin'),
      status: 'ACTIVE',
      locale: 'en',
    });
    expect(response.body.data.data.createdAt).toMatch(ISO_MS);
  });

  it('works for a staff member without staff:manage', async () => {
    const marketing = await platform.createStaff('marketing');
    const response = await platform.api('GET', `${STAFFS}/me`, { token: marketing.token });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ id: marketing.id, roleId: marketingRoleId });
  });

  it('answers 404 with data.data.id when the staff row is gone', async () => {
    const staff = await platform.createStaff();
    await platform.sql.query('update auth.staff set deleted_at = now() where id = $1', [staff.id]);
    const response = await platform.api('GET', `${STAFFS}/me`, { token: staff.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, data: { message: expect.any(String), data: { id: staff.id } } });
  });

  it('answers 401 without a token and 403 for a member', async () => {
    expect((await platform.api('GET', `${STAFFS}/me`)).status).toBe(401);
    const member = await platform.loginMember();
    const response = await platform.api('GET', `${STAFFS}/me`, { token: member.token });
    expect(response.status).toBe(403);
    expect(response.body.data.message).toEqual(expect.any(String));
  });
});

describe('GET /staffs/:id', () => {
  it('returns the staff member', async () => {
    const created = await create({ phoneNumber: '+66800000001', storeId: 'store-1' });
    const response = await platform.api('GET', `${STAFFS}/${created.id}`, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual(created);
  });

  it('answers 404 with data.data.id for an unknown id', async () => {
    const id = randomUUID();
    const response = await platform.api('GET', `${STAFFS}/${id}`, { token: admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, data: { message: expect.any(String), data: { id } } });
  });

  it('answers 400 naming the field id for a malformed id', async () => {
    const response = await platform.api('GET', `${STAFFS}/not-a-uuid`, { token: admin.token });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['id']);
  });
});

describe('POST /staffs', () => {
  it('creates a staff member, waiting for first activation with locale en by default', async () => {
    const body = newStaff({ phoneNumber: '+66800000002', storeId: 'store-7' });
    const response = await platform.api('POST', STAFFS, { token: admin.token, body });
    expect(response.status).toBe(201);
    expect(response.body.statusCode).toBe(201);
    expect(response.body.data.message).toEqual(expect.any(String));
    const staff = response.body.data.data;
    expect(staff).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      email: body.email,
      firstname: 'Ada',
      lastname: 'Lovelace',
      phoneNumber: '+66800000002',
      roleId: tenantRoleId,
      storeId: 'store-7',
      status: 'WAIT_FOR_FIRST_ACTIVE',
      locale: 'en',
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const stored = await platform.sql.query('select email, status, locale, deleted_at, role_id from auth.staff where id = $1', [staff.id]);
    expect(stored.rows).toEqual([{ email: body.email, status: 'WAIT_FOR_FIRST_ACTIVE', locale: 'en', deleted_at: null, role_id: tenantRoleId }]);
  });

  it('keeps a given status and locale', async () => {
    const staff = await create({ status: 'INACTIVE', locale: 'th' });
    expect(staff.status).toBe('INACTIVE');
    expect(staff.locale).toBe('th');
  });

  it('stores the e-mail in lower case and refuses the same address in another case with 409 on email', async () => {
    const email = `${unique('Mixed')}@Example.COM`;
    const created = await create({ email });
    expect(created.email).toBe(email.toLowerCase());
    const duplicate = await platform.api('POST', STAFFS, { token: admin.token, body: newStaff({ email: email.toUpperCase() }) });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.statusCode).toBe(409);
    expect(fieldsOf(duplicate.body)).toEqual(['email']);
    expect(await rowsWithEmail(email)).toBe(1);
  });

  it('lets only one of two concurrent creations with the same e-mail succeed', async () => {
    const body = newStaff();
    const results = await Promise.all([1, 2].map(() => platform.api('POST', STAFFS, { token: admin.token, body })));
    expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
    expect(await rowsWithEmail(body.email)).toBe(1);
  });

  it('accepts the e-mail of a deleted staff member again', async () => {
    const first = await create();
    expect((await platform.api('DELETE', `${STAFFS}/${first.id}`, { token: admin.token })).status).toBe(200);
    const again = await platform.api('POST', STAFFS, { token: admin.token, body: newStaff({ email: first.email }) });
    expect(again.status).toBe(201);
    expect(again.body.data.data.id).not.toBe(first.id);
    expect(await rowsWithEmail(first.email)).toBe(2);
  });

  it('accepts names of exactly 256 characters', async () => {
    const staff = await create({ firstname: 'f'.repeat(256), lastname: 'l'.repeat(256), phoneNumber: '1'.repeat(256) });
    expect(staff.firstname).toHaveLength(256);
    expect(staff.lastname).toHaveLength(256);
  });

  const invalid: Array<[string, Record<string, unknown>, string[]]> = [
    ['an over-long firstname', { firstname: 'f'.repeat(257) }, ['firstname']],
    ['an over-long lastname', { lastname: 'l'.repeat(257) }, ['lastname']],
    ['an over-long phone number', { phoneNumber: '1'.repeat(257) }, ['phoneNumber']],
    ['an empty firstname', { firstname: '' }, ['firstname']],
    ['a malformed e-mail', { email: 'not-an-email' }, ['email']],
    ['a malformed roleId', { roleId: 'not-a-uuid' }, ['roleId']],
    ['an unknown roleId', { roleId: randomUUID() }, ['roleId']],
    ['an unknown status', { status: 'SLEEPING' }, ['status']],
    ['an unknown locale', { locale: 'fr' }, ['locale']],
    ['a number as firstname', { firstname: 123 }, ['firstname']],
    ['an object as lastname', { lastname: { text: 'x' } }, ['lastname']],
    ['a boolean as e-mail', { email: true }, ['email']],
    ['an array as phone number', { phoneNumber: ['1'] }, ['phoneNumber']],
    ['a number as status', { status: 1 }, ['status']],
  ];
  it.each(invalid)('rejects %s with 400 on that field and creates nothing', async (_case, overrides, fields) => {
    const body = newStaff(overrides);
    const response = await platform.api('POST', STAFFS, { token: admin.token, body });
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(fieldsOf(response.body)).toEqual(fields);
    if (typeof body.email === 'string') {
      expect(await rowsWithEmail(body.email)).toBe(0);
      expect(platform.smtp.lastTo(body.email)).toBeUndefined();
    }
  });

  it('names every missing required field', async () => {
    const response = await platform.api('POST', STAFFS, { token: admin.token, body: {} });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['email', 'firstname', 'lastname', 'roleId']);
    const partial = newStaff();
    const { lastname: _lastname, roleId: _roleId, ...rest } = partial;
    const missingTwo = await platform.api('POST', STAFFS, { token: admin.token, body: rest });
    expect(missingTwo.status).toBe(400);
    expect(fieldsOf(missingTwo.body)).toEqual(['lastname', 'roleId']);
    expect(await rowsWithEmail(partial.email)).toBe(0);
  });

  it('answers 400 naming the field body for malformed JSON', async () => {
    const email = `${unique('json')}@example.com`;
    const response = await platform.api('POST', STAFFS, {
      token: admin.token,
      body: `{"email":"${email}","firstname":"A","lastname":"B","roleId":"${tenantRoleId}"`,
    });
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['body']);
    expect(await rowsWithEmail(email)).toBe(0);
  });
});

describe('PUT /staffs/:id', () => {
  it('updates the staff member and keeps the phone number and store when they are not given', async () => {
    const staff = await create({ phoneNumber: '+66811111111', storeId: 'store-a' });
    const email = `${unique('moved')}@example.com`;
    const response = await platform.api('PUT', `${STAFFS}/${staff.id}`, {
      token: admin.token,
      body: { email: email.toUpperCase(), firstname: 'Grace', lastname: 'Hopper', roleId: marketingRoleId },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toMatchObject({
      id: staff.id,
      email,
      firstname: 'Grace',
      lastname: 'Hopper',
      roleId: marketingRoleId,
      phoneNumber: '+66811111111',
      storeId: 'store-a',
      status: 'WAIT_FOR_FIRST_ACTIVE',
      createdAt: staff.createdAt,
    });
    expect(new Date(response.body.data.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(staff.updatedAt).getTime());
    const fetched = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(fetched.body.data.data).toEqual(response.body.data.data);
  });

  it('changes the phone number and store when they are given, and ignores a status in the body', async () => {
    const staff = await create({ phoneNumber: '+66822222222', storeId: 'store-b' });
    const response = await platform.api('PUT', `${STAFFS}/${staff.id}`, {
      token: admin.token,
      body: { email: staff.email, firstname: 'A', lastname: 'B', roleId: tenantRoleId, phoneNumber: '+66833333333', storeId: 'store-c', status: 'ACTIVE' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ email: staff.email, phoneNumber: '+66833333333', storeId: 'store-c', status: 'WAIT_FOR_FIRST_ACTIVE' });
  });

  it('clears the phone number and store when they are given as null', async () => {
    const staff = await create({ phoneNumber: '+66844444444', storeId: 'store-d' });
    const response = await platform.api('PUT', `${STAFFS}/${staff.id}`, {
      token: admin.token,
      body: { email: staff.email, firstname: 'A', lastname: 'B', roleId: tenantRoleId, phoneNumber: null, storeId: null },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ phoneNumber: null, storeId: null });
  });

  it('refuses the e-mail of another staff member with 409 on email', async () => {
    const first = await create();
    const second = await create();
    const response = await platform.api('PUT', `${STAFFS}/${second.id}`, {
      token: admin.token,
      body: { email: first.email.toUpperCase(), firstname: 'X', lastname: 'Y', roleId: tenantRoleId },
    });
    expect(response.status).toBe(409);
    expect(fieldsOf(response.body)).toEqual(['email']);
    const unchanged = await platform.api('GET', `${STAFFS}/${second.id}`, { token: admin.token });
    expect(unchanged.body.data.data).toEqual(second);
  });

  it('rejects missing and malformed fields with 400 and changes nothing', async () => {
    const staff = await create();
    const missing = await platform.api('PUT', `${STAFFS}/${staff.id}`, { token: admin.token, body: { firstname: 'Only' } });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['email', 'lastname', 'roleId']);
    const malformed = await platform.api('PUT', `${STAFFS}/${staff.id}`, {
      token: admin.token,
      body: { email: 'nope', firstname: 'f'.repeat(257), lastname: 'B', roleId: 'x' },
    });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['email', 'firstname', 'roleId']);
    const unknownRole = await platform.api('PUT', `${STAFFS}/${staff.id}`, {
      token: admin.token,
      body: { email: staff.email, firstname: 'A', lastname: 'B', roleId: randomUUID() },
    });
    expect(unknownRole.status).toBe(400);
    expect(fieldsOf(unknownRole.body)).toEqual(['roleId']);
    const unchanged = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(unchanged.body.data.data).toEqual(staff);
  });

  it('answers 404 with data.data.id for an unknown or deleted staff member', async () => {
    const id = randomUUID();
    const body = { email: `${unique('x')}@example.com`, firstname: 'A', lastname: 'B', roleId: tenantRoleId };
    const unknown = await platform.api('PUT', `${STAFFS}/${id}`, { token: admin.token, body });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, data: { message: expect.any(String), data: { id } } });
    const deleted = await create();
    await platform.api('DELETE', `${STAFFS}/${deleted.id}`, { token: admin.token });
    const afterDelete = await platform.api('PUT', `${STAFFS}/${deleted.id}`, { token: admin.token, body });
    expect(afterDelete.status).toBe(404);
    expect(await rowsWithEmail(body.email)).toBe(0);
  });
});

describe('DELETE /staffs/:id', () => {
  it('soft-deletes: 200 with data.data.id, then hidden from the list and GET answers 404', async () => {
    const storeId = unique('store');
    const staff = await create({ storeId });
    const response = await platform.api('DELETE', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: expect.any(String), data: { id: staff.id } } });
    const row = await platform.sql.query('select deleted_at from auth.staff where id = $1', [staff.id]);
    expect(row.rows[0].deleted_at).toBeInstanceOf(Date);
    expect((await list(`storeId=${storeId}`)).body.data.data.data).toEqual([]);
    const fetched = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(fetched.status).toBe(404);
    expect(fetched.body.data.data).toEqual({ id: staff.id });
    const again = await platform.api('DELETE', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(again.status).toBe(404);
  });

  it('ends the sessions of the deleted staff member, who can no longer log in', async () => {
    const staff = await platform.createStaff('tenant');
    const login = await platform.api('POST', `${STAFFS}/login`, { body: { email: staff.email, password: staff.password } });
    expect((await platform.api('DELETE', `${STAFFS}/${staff.id}`, { token: admin.token })).status).toBe(200);
    const relogin = await platform.api('POST', `${STAFFS}/login`, { body: { email: staff.email, password: staff.password } });
    expect(relogin.status).toBe(401);
    const refresh = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: login.body.data.data.refreshToken } });
    expect(refresh.status).toBe(401);
  });

  it('refuses to delete the caller with 400', async () => {
    const self = await platform.createStaff();
    const response = await platform.api('DELETE', `${STAFFS}/${self.id}`, { token: self.token });
    expect(response.status).toBe(400);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(fieldsOf(response.body)).toEqual(['id']);
    const row = await platform.sql.query('select deleted_at from auth.staff where id = $1', [self.id]);
    expect(row.rows[0].deleted_at).toBeNull();
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const id = randomUUID();
    const unknown = await platform.api('DELETE', `${STAFFS}/${id}`, { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.data).toEqual({ id });
    const malformed = await platform.api('DELETE', `${STAFFS}/123`, { token: admin.token });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['id']);
  });
});

describe('access control', () => {
  /** Every staff-management endpoint, on the given staff member, with the given body for writes. */
  const managementCalls = (id: string, body: Record<string, unknown>): Array<[string, string, unknown?]> => [
    ['GET', STAFFS],
    ['GET', `${STAFFS}/${id}`],
    ['POST', STAFFS, body],
    ['PUT', `${STAFFS}/${id}`, { ...body, firstname: 'Changed' }],
    ['DELETE', `${STAFFS}/${id}`],
  ];

  it('answers 401 on every staff-management endpoint without a token or with a forged one', async () => {
    const staff = await create();
    const body = newStaff();
    const calls = managementCalls(staff.id, body);
    for (const token of [undefined, `${admin.token}x`, 'not-a-jwt']) {
      for (const [method, path, payload] of calls) {
        const response = await platform.api(method, path, { token, body: payload });
        expect([method, path, response.status]).toEqual([method, path, 401]);
        expect(response.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
      }
    }
    expect(await rowsWithEmail(body.email)).toBe(0);
    const unchanged = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(unchanged.body.data.data).toEqual(staff);
  });

  it('answers 403 to a staff member whose role lacks staff:manage and changes nothing', async () => {
    const marketing = await platform.createStaff('marketing');
    const staff = await create();
    const body = newStaff();
    const calls = managementCalls(staff.id, body);
    for (const [method, path, payload] of calls) {
      const response = await platform.api(method, path, { token: marketing.token, body: payload });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      expect(response.body).toEqual({ statusCode: 403, data: { message: expect.any(String) } });
    }
    expect(await rowsWithEmail(body.email)).toBe(0);
    const unchanged = await platform.api('GET', `${STAFFS}/${staff.id}`, { token: admin.token });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data.data).toEqual(staff);
  });

  it('answers 403 to a member', async () => {
    const member = await platform.loginMember();
    const response = await platform.api('GET', STAFFS, { token: member.token });
    expect(response.status).toBe(403);
  });
});
