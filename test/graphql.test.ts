import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, admin } = usePlatform({ staff: ['admin'] });

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STAFF_FIELDS = 'id email firstname lastname phoneNumber roleId storeId status locale createdAt updatedAt';

interface GraphqlError {
  message: string;
  path?: string[];
  extensions?: Record<string, any>;
}

/** Every key anywhere in a value, to make sure nothing like a stack trace is nested in an answer. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, nested]) => [key, ...keysOf(nested)]);
  return [];
}

/** The one error of an answer, checked for the shape every error shares. */
function onlyError(body: { errors?: GraphqlError[] }): GraphqlError {
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors!;
  expect(error.message).toEqual(expect.any(String));
  expect(error.extensions?.code).toEqual(expect.any(String));
  expect(keysOf(body.errors)).not.toContain('stacktrace');
  expect(keysOf(body.errors)).not.toContain('exception');
  return error;
}

const STAFF_LOGIN = 'mutation Login($input: StaffLoginInput!) { staffLogin(input: $input) { accessToken refreshToken } }';
const STAFFS = `query Staffs($page: Int, $limit: Int, $search: String, $status: StaffStatus) {
  staffs(page: $page, limit: $limit, search: $search, status: $status) { meta { page limit total totalPages } data { ${STAFF_FIELDS} } } }`;
const STAFF = `query Staff($id: ID!) { staff(id: $id) { ${STAFF_FIELDS} } }`;
const CREATE_STAFF = `mutation CreateStaff($input: CreateStaffInput!) { createStaff(input: $input) { ${STAFF_FIELDS} } }`;
const UPDATE_STAFF = `mutation UpdateStaff($id: ID!, $input: UpdateStaffInput!) { updateStaff(id: $id, input: $input) { ${STAFF_FIELDS} } }`;
const DELETE_STAFF = 'mutation DeleteStaff($id: ID!) { deleteStaff(id: $id) { id deletedAt } }';
const CHATAPP_LOGIN = 'mutation Login($code: String!) { chatappLogin(code: $code) { status accessToken refreshToken } }';
const CURRENT_MEMBER = 'query { currentMember { id openId name nickName status birthDate address { province district } createdAt } }';
const MEMBERS = `query Members($page: Int, $limit: Int, $search: String, $birthdayFrom: String) {
  members(page: $page, limit: $limit, search: $search, birthdayFrom: $birthdayFrom) { meta { page limit total totalPages } data { id name status } } }`;
const ROLES = 'query Roles($locale: Locale) { roles(locale: $locale) { id key name_en name_th name_cn permissions } }';

async function createStaff(token: string, overrides: Record<string, unknown> = {}) {
  const input = {
    email: `${unique('gql')}@example.com`,
    firstname: 'Graph',
    lastname: 'Staff',
    roleId: await platform.roleId('tenant'),
    ...overrides,
  };
  return platform.graphql(CREATE_STAFF, { input }, token);
}

describe('staff login', () => {
  it('returns a token pair that authenticates the staff member', async () => {
    const staff = await platform.createStaff('marketing');
    const response = await platform.graphql(STAFF_LOGIN, { input: { email: staff.email, password: staff.password } });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const { accessToken, refreshToken } = response.body.data.staffLogin;
    expect(accessToken).toEqual(expect.any(String));
    expect(refreshToken).toEqual(expect.any(String));
    const me = await platform.graphql('query { currentStaff { id email } }', {}, accessToken);
    expect(me.body.data.currentStaff).toEqual({ id: staff.id, email: staff.email });
  });

  it('answers UNAUTHENTICATED for a wrong password', async () => {
    const staff = await platform.createStaff();
    const response = await platform.graphql(STAFF_LOGIN, { input: { email: staff.email, password: 'wrong-password' } });
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('UNAUTHENTICATED');
    expect(error.message).toBe('Invalid email or password');
    expect(response.body.data).toBeNull();
  });

  it('answers VALIDATION with field errors for a malformed e-mail and an empty password', async () => {
    const response = await platform.graphql(STAFF_LOGIN, { input: { email: 'not-an-email', password: '' } });
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('VALIDATION');
    const errors = error.extensions?.errors as Array<{ field: string; message: string }>;
    expect(errors.map((entry) => entry.field).sort()).toEqual(['email', 'password']);
    for (const entry of errors) expect(entry.message).toEqual(expect.any(String));
  });
});

describe('staff management', () => {
  it('creates, lists page by page, updates and deletes staff', async () => {
    const marker = unique('Team');
    const created = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await createStaff(admin.token, { lastname: `${marker}${i}`, storeId: 'store-1', phoneNumber: '0800000000' });
      expect(response.body.errors).toBeUndefined();
      created.push(response.body.data.createStaff);
    }
    expect(created[0]).toEqual({
      id: expect.any(String),
      email: expect.stringMatching(/@example\.com$/),
      firstname: 'Graph',
      lastname: `${marker}0`,
      phoneNumber: '0800000000',
      roleId: await platform.roleId('tenant'),
      storeId: 'store-1',
      status: 'WAIT_FOR_FIRST_ACTIVE',
      locale: 'en',
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      updatedAt: expect.stringMatching(ISO_TIMESTAMP),
    });

    const page1 = await platform.graphql(STAFFS, { page: 1, limit: 2, search: marker }, admin.token);
    expect(page1.body.errors).toBeUndefined();
    expect(page1.body.data.staffs.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page1.body.data.staffs.data).toHaveLength(2);
    const page2 = await platform.graphql(STAFFS, { page: 2, limit: 2, search: marker }, admin.token);
    expect(page2.body.data.staffs.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const listed = [...page1.body.data.staffs.data, ...page2.body.data.staffs.data].map((staff: { id: string }) => staff.id).sort();
    expect(listed).toEqual(created.map((staff) => staff.id).sort());
    const waiting = await platform.graphql(STAFFS, { search: marker, status: 'ACTIVE' }, admin.token);
    expect(waiting.body.data.staffs.meta.total).toBe(0);

    const target = created[0];
    const updated = await platform.graphql(
      UPDATE_STAFF,
      { id: target.id, input: { email: target.email, firstname: 'Renamed', lastname: target.lastname, roleId: await platform.roleId('marketing') } },
      admin.token,
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateStaff).toMatchObject({ id: target.id, firstname: 'Renamed', roleId: await platform.roleId('marketing'), storeId: 'store-1' });
    const fetched = await platform.graphql(STAFF, { id: target.id }, admin.token);
    expect(fetched.body.data.staff.firstname).toBe('Renamed');

    const deleted = await platform.graphql(DELETE_STAFF, { id: target.id }, admin.token);
    expect(deleted.body.errors).toBeUndefined();
    expect(deleted.body.data.deleteStaff).toEqual({ id: target.id, deletedAt: expect.stringMatching(ISO_TIMESTAMP) });
    const after = await platform.graphql(STAFFS, { search: marker }, admin.token);
    expect(after.body.data.staffs.meta.total).toBe(2);
  });

  it('answers NOT_FOUND with extensions.data.id for a deleted or unknown staff member', async () => {
    const created = (await createStaff(admin.token)).body.data.createStaff;
    await platform.graphql(DELETE_STAFF, { id: created.id }, admin.token);
    const deleted = await platform.graphql(STAFF, { id: created.id }, admin.token);
    const error = onlyError(deleted.body);
    expect(error.extensions?.code).toBe('NOT_FOUND');
    expect(error.extensions?.data).toEqual({ id: created.id });
    const unknownId = randomUUID();
    const unknown = await platform.graphql(UPDATE_STAFF, { id: unknownId, input: { email: 'x@example.com', firstname: 'a', lastname: 'b', roleId: await platform.roleId('tenant') } }, admin.token);
    expect(onlyError(unknown.body).extensions).toMatchObject({ code: 'NOT_FOUND', data: { id: unknownId } });
  });

  it('answers CONFLICT for an e-mail already in use', async () => {
    const email = `${unique('dup')}@example.com`;
    expect((await createStaff(admin.token, { email })).body.errors).toBeUndefined();
    const duplicate = await createStaff(admin.token, { email: email.toUpperCase() });
    const error = onlyError(duplicate.body);
    expect(error.extensions?.code).toBe('CONFLICT');
    expect(duplicate.body.data).toBeNull();
    const rows = await platform.sql.query('select id from auth.staff where email = $1', [email]);
    expect(rows.rowCount).toBe(1);
  });

  it('answers VALIDATION with the failing fields of createStaff', async () => {
    const response = await createStaff(admin.token, { email: 'nope', firstname: '', roleId: 'not-a-uuid' });
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('VALIDATION');
    expect((error.extensions?.errors as Array<{ field: string }>).map((entry) => entry.field).sort()).toEqual(['email', 'firstname', 'roleId']);
  });

  it('answers UNAUTHENTICATED without a token and FORBIDDEN without staff:manage', async () => {
    const anonymous = await platform.graphql(STAFFS, {});
    expect(onlyError(anonymous.body).extensions?.code).toBe('UNAUTHENTICATED');
    const tenant = await platform.createStaff('tenant');
    const forbidden = await platform.graphql(STAFFS, {}, tenant.token);
    expect(onlyError(forbidden.body).extensions?.code).toBe('FORBIDDEN');
    const email = `${unique('nope')}@example.com`;
    const create = await createStaff(tenant.token, { email });
    expect(onlyError(create.body).extensions?.code).toBe('FORBIDDEN');
    expect((await platform.sql.query('select id from auth.staff where email = $1', [email])).rowCount).toBe(0);
  });

  it('answers UNAUTHENTICATED for a forged token', async () => {
    const response = await platform.graphql(STAFFS, {}, `${admin.token}x`);
    expect(onlyError(response.body).extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('answers VALIDATION on limit for a page size out of bounds', async () => {
    const response = await platform.graphql(STAFFS, { limit: 101 }, admin.token);
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('VALIDATION');
    expect(error.extensions?.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
  });
});

describe('members', () => {
  it('logs a member in with chatappLogin and answers currentMember', async () => {
    const code = unique('code');
    const first = await platform.graphql(CHATAPP_LOGIN, { code });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.chatappLogin).toEqual({ status: 'NEW', accessToken: expect.any(String), refreshToken: expect.any(String) });
    const second = await platform.graphql(CHATAPP_LOGIN, { code });
    expect(second.body.data.chatappLogin.status).toBe('EXISTING');
    const me = await platform.graphql(CURRENT_MEMBER, {}, first.body.data.chatappLogin.accessToken);
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data.currentMember).toEqual({
      id: expect.any(String),
      openId: `openid-${code}`,
      name: null,
      nickName: null,
      status: 'PENDING',
      birthDate: null,
      address: null,
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
    });
    const again = await platform.graphql(CURRENT_MEMBER, {}, second.body.data.chatappLogin.accessToken);
    expect(again.body.data.currentMember.id).toBe(me.body.data.currentMember.id);
  });

  it('answers UNAUTHENTICATED for a code the provider refuses', async () => {
    const response = await platform.graphql(CHATAPP_LOGIN, { code: unique('bad') });
    expect(onlyError(response.body).extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('lists members for staff, with search and pagination', async () => {
    const marker = unique('Gm');
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const member = await platform.loginMember();
      const update = await platform.graphql('mutation($input: MemberProfileInput!) { updateCurrentMember(input: $input) { id name } }', { input: { name: `${marker} ${i}` } }, member.token);
      expect(update.body.data.updateCurrentMember).toEqual({ id: member.id, name: `${marker} ${i}` });
      ids.push(member.id);
    }
    const tenant = await platform.createStaff('tenant');
    const page1 = await platform.graphql(MEMBERS, { search: marker, limit: 2 }, tenant.token);
    expect(page1.body.errors).toBeUndefined();
    expect(page1.body.data.members.meta).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const page2 = await platform.graphql(MEMBERS, { search: marker, limit: 2, page: 2 }, tenant.token);
    const listed = [...page1.body.data.members.data, ...page2.body.data.members.data].map((member: { id: string }) => member.id).sort();
    expect(listed).toEqual([...ids].sort());
  });

  it('answers FORBIDDEN when a member lists members and NOT_FOUND with extensions.data.id for an unknown member', async () => {
    const member = await platform.loginMember();
    const forbidden = await platform.graphql(MEMBERS, {}, member.token);
    expect(onlyError(forbidden.body).extensions?.code).toBe('FORBIDDEN');
    const unknownId = randomUUID();
    const unknown = await platform.graphql('query($id: ID!) { member(id: $id) { id } }', { id: unknownId }, admin.token);
    expect(onlyError(unknown.body).extensions).toMatchObject({ code: 'NOT_FOUND', data: { id: unknownId } });
  });

  it('answers VALIDATION with nested field names for a bad profile', async () => {
    const member = await platform.loginMember();
    const response = await platform.graphql(
      'mutation($input: MemberProfileInput!) { updateCurrentMember(input: $input) { id } }',
      { input: { name: 'n'.repeat(101), address: { latitude: 100 } } },
      member.token,
    );
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('VALIDATION');
    expect((error.extensions?.errors as Array<{ field: string }>).map((entry) => entry.field).sort()).toEqual(['address.latitude', 'name']);
  });
});

describe('roles', () => {
  it('lists the roles with their permissions, projected to a locale', async () => {
    const response = await platform.graphql(ROLES, {}, admin.token);
    expect(response.body.errors).toBeUndefined();
    const byKey = Object.fromEntries(response.body.data.roles.map((role: { key: string }) => [role.key, role]));
    expect(Object.keys(byKey)).toEqual(expect.arrayContaining(['admin', 'marketing', 'tenant', 'customer']));
    expect(byKey.admin.permissions).toEqual(['*']);
    expect(byKey.tenant.id).toBe(await platform.roleId('tenant'));
    const thai = await platform.graphql(ROLES, { locale: 'th' }, admin.token);
    const thaiTenant = thai.body.data.roles.find((role: { key: string }) => role.key === 'tenant');
    expect(thaiTenant).toMatchObject({ name_th: byKey.tenant.name_th, name_en: null, name_cn: null });
  });

  it('answers FORBIDDEN for a member and UNAUTHENTICATED without a token', async () => {
    const member = await platform.loginMember();
    expect(onlyError((await platform.graphql(ROLES, {}, member.token)).body).extensions?.code).toBe('FORBIDDEN');
    expect(onlyError((await platform.graphql(ROLES, {})).body).extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('request errors', () => {
  it('answers a query naming an unknown field without a stack trace', async () => {
    const response = await platform.graphql('query { currentStaff { id noSuchField } }', {}, admin.token);
    expect(response.status).toBe(400);
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers a syntax error without a stack trace', async () => {
    const response = await platform.graphql('query { currentStaff { id ', {}, admin.token);
    expect(response.status).toBe(400);
    expect(onlyError(response.body).extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('answers a variable of the wrong type without a stack trace', async () => {
    const response = await platform.graphql(STAFFS, { limit: 'ten' }, admin.token);
    expect(response.status).toBe(400);
    expect(onlyError(response.body).extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('answers a malformed custom scalar in a variable as BAD_USER_INPUT, not an internal error', async () => {
    const response = await platform.graphql(
      'mutation Publish($input: PublishConsentVersionInput!) { publishConsentVersion(input: $input) { id } }',
      { input: { type: 'TERMS', version: 'never-published', effectiveAt: 'soon' } },
      admin.token,
    );
    const error = onlyError(response.body);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain('effectiveAt');
  });

  it('does not expose the federation entry points through the gateway', async () => {
    const response = await platform.graphql('query { _service { sdl } }', {}, admin.token);
    expect(onlyError(response.body).extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('federation entity resolver on the auth subgraph', () => {
  const ENTITIES = 'query Entities($representations: [_Any!]!) { _entities(representations: $representations) { ... on Member { id name } } }';

  async function entities(ids: string[]) {
    const response = await fetch(platform.subgraphUrls.auth, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}`, 'x-internal-credential': platform.config.internalSecret },
      body: JSON.stringify({ query: ENTITIES, variables: { representations: ids.map((id) => ({ __typename: 'Member', id })) } }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { data: { _entities: Array<{ id: string; name: string | null } | null> }; errors?: unknown[] };
  }

  it('resolves a Member by its key, in the order asked, and null for unknown or deleted members', async () => {
    const member = await platform.loginMember();
    const other = await platform.loginMember();
    const name = unique('Entity');
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name } });
    const deleted = await platform.loginMember();
    await platform.sql.query('update auth.member set deleted_at = now() where id = $1', [deleted.id]);
    const unknownId = randomUUID();
    const body = await entities([other.id, member.id, unknownId, deleted.id]);
    expect(body.errors).toBeUndefined();
    expect(body.data._entities).toEqual([{ id: other.id, name: null }, { id: member.id, name }, null, null]);
  });
});
