import { SignJWT } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import { PasswordHasher } from '../core/auth/secrets';
import { startTestPlatform, unique, PLATFORM_START_TIMEOUT_MS } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const JWT_SECRET = randomBytes(32).toString('hex');

const { platform } = usePlatform({ env: { JWT_SECRET } });

describe('staff login', () => {
  it('returns tokens in data.data with a message and sets an HTTP-only refresh cookie', async () => {
    const staff = await platform.createStaff();
    const response = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
    expect(response.status).toBe(200);
    expect(response.body.statusCode).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`refreshToken=${response.body.data.data.refreshToken}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('refuses a wrong password with 401', async () => {
    const staff = await platform.createStaff();
    const response = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: 'wrong-password' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, data: { message: 'Invalid email or password' } });
  });

  it('rejects a malformed e-mail and an empty password with field errors', async () => {
    const response = await platform.api('POST', '/auth/api/staffs/login', { body: { email: 'not-an-email', password: '' } });
    expect(response.status).toBe(400);
    expect(response.body.data.errors.map((error: { field: string }) => error.field).sort()).toEqual(['email', 'password']);
  });
});

describe('access token session check', () => {
  it('answers valid for a live token and 401 without one', async () => {
    const staff = await platform.createStaff();
    const ok = await platform.api('GET', '/auth/api/check-access-token-session', { token: staff.token });
    expect(ok.status).toBe(200);
    expect(ok.body.data.data).toEqual({ valid: true });
    expect(ok.body.data.message).toEqual(expect.any(String));
    const missing = await platform.api('GET', '/auth/api/check-access-token-session');
    expect(missing.status).toBe(401);
    const forged = await platform.api('GET', '/auth/api/check-access-token-session', { token: `${staff.token}x` });
    expect(forged.status).toBe(401);
  });

  it('refuses the token once the staff member is deleted (401): deletion revokes it', async () => {
    const admin = await platform.createStaff();
    const staff = await platform.createStaff();
    expect((await platform.api('DELETE', `/auth/api/staffs/${staff.id}`, { token: admin.token })).status).toBe(200);
    const check = await platform.api('GET', '/auth/api/check-access-token-session', { token: staff.token });
    expect(check.status).toBe(401);
  });
});

describe('refresh tokens', () => {
  it('rotates a refresh token given in the body', async () => {
    const staff = await platform.createStaff();
    const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
    const first = login.body.data.data.refreshToken;
    const refreshed = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: first } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(refreshed.body.data.refreshToken).not.toBe(first);
    expect(refreshed.headers.get('set-cookie')).toContain(`refreshToken=${refreshed.body.data.refreshToken}`);
    const me = await platform.api('GET', '/auth/api/staffs/me', { token: refreshed.body.data.accessToken });
    expect(me.body.data.data.id).toBe(staff.id);
  });

  it('reads the refresh token from the cookie when the body has none', async () => {
    const staff = await platform.createStaff();
    const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const refreshed = await platform.api('POST', '/auth/api/get-new-access-token', { headers: { cookie } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.accessToken).toEqual(expect.any(String));
  });

  it('answers 401 with data.message when no refresh token is found', async () => {
    const response = await platform.api('POST', '/auth/api/get-new-access-token', { body: {} });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, data: { message: 'Refresh token not found' } });
    const unknown = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: 'unknown' } });
    expect(unknown.status).toBe(401);
  });

  it('revokes the whole session family when a used refresh token is presented again', async () => {
    const staff = await platform.createStaff();
    const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
    const first = login.body.data.data.refreshToken;
    const second = (await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: first } })).body.data.refreshToken;
    const replay = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: first } });
    expect(replay.status).toBe(401);
    const afterReplay = await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: second } });
    expect(afterReplay.status).toBe(401);
  });

  it('lets only one of two concurrent refreshes with the same token succeed', async () => {
    const staff = await platform.createStaff();
    const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
    const token = login.body.data.data.refreshToken;
    const results = await Promise.all(
      [1, 2].map(() => platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: token } })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 401]);
  });

  it('revokes the winner of a race too: after two concurrent refreshes no issued refresh token works (20 runs)', async () => {
    const staff = await platform.createStaff();
    for (let run = 0; run < 20; run += 1) {
      const login = await platform.api('POST', '/auth/api/staffs/login', { body: { email: staff.email, password: staff.password } });
      const token = login.body.data.data.refreshToken;
      const results = await Promise.all(
        [1, 2].map(() => platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: token } })),
      );
      expect(results.map((result) => result.status).sort()).toEqual([200, 401]);
      const winner = results.find((result) => result.status === 200)!.body.data.refreshToken;
      // One after the other: the winner's token first, as the loser's reuse must already have revoked it.
      expect((await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: winner } })).status).toBe(401);
      expect((await platform.api('POST', '/auth/api/get-new-access-token', { body: { refreshToken: token } })).status).toBe(401);
    }
  });
});

describe('access token issuer and audience', () => {
  /** A token signed with the platform's own secret, with the given `iss` and `aud` (none when undefined). */
  function tokenFor(staffId: string, claims: { iss?: string; aud?: string }): Promise<string> {
    const jwt = new SignJWT({ typ: 'staff', role: 'admin', perms: ['*'] }).setProtectedHeader({ alg: 'HS256' }).setSubject(staffId).setIssuedAt().setExpirationTime('1h');
    if (claims.iss !== undefined) jwt.setIssuer(claims.iss);
    if (claims.aud !== undefined) jwt.setAudience(claims.aud);
    return jwt.sign(new TextEncoder().encode(JWT_SECRET));
  }

  it('puts iss and aud in the tokens it issues', async () => {
    const staff = await platform.createStaff();
    const claims = JSON.parse(Buffer.from(staff.token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ iss: 'loyalty-platform', aud: 'loyalty-platform-api', sub: staff.id });
  });

  const foreign: Array<[string, { iss?: string; aud?: string }]> = [
    ['neither iss nor aud', {}],
    ['no aud', { iss: 'loyalty-platform' }],
    ['no iss', { aud: 'loyalty-platform-api' }],
    ['another issuer', { iss: 'someone-else', aud: 'loyalty-platform-api' }],
    ['another audience', { iss: 'loyalty-platform', aud: 'another-api' }],
  ];
  it.each(foreign)('refuses a token with the right secret but %s: 401 through REST and GraphQL', async (_case, claims) => {
    const staff = await platform.createStaff();
    const token = await tokenFor(staff.id, claims);
    const rest = await platform.api('GET', '/auth/api/staffs/me', { token });
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
    const graphql = await platform.graphql('{ currentStaff { id } }', {}, token);
    expect(graphql.body.data).toBeNull();
    expect(graphql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('accepts a token with the platform issuer and audience', async () => {
    const staff = await platform.createStaff();
    const token = await tokenFor(staff.id, { iss: 'loyalty-platform', aud: 'loyalty-platform-api' });
    const rest = await platform.api('GET', '/auth/api/staffs/me', { token });
    expect(rest.status).toBe(200);
    expect(rest.body.data.data.id).toBe(staff.id);
    const graphql = await platform.graphql('{ currentStaff { id } }', {}, token);
    expect(graphql.body.data.currentStaff.id).toBe(staff.id);
  });
});

describe('password hashing cost', () => {
  it('hashes at the OWASP cost by default, and a login upgrades a hash made with older parameters', async () => {
    // An empty PASSWORD_SCRYPT_COST is unset: the platform runs with its default, not the tests' low cost.
    const owasp = await startTestPlatform({ PASSWORD_SCRYPT_COST: '' });
    try {
      const id = randomUUID();
      const email = `${unique('rehash')}@example.com`;
      const password = unique('pw');
      const oldHash = await new PasswordHasher(16384).hash(password);
      expect(oldHash).toMatch(/^scrypt\$16384\$8\$1\$/);
      await owasp.sql.query(
        `insert into auth.staff (id, email, firstname, lastname, role_id, status, locale, password_hash, created_at, updated_at)
         values ($1, $2, 'Old', 'Hash', $3, 'ACTIVE', 'en', $4, now(), now())`,
        [id, email, await owasp.roleId('tenant'), oldHash],
      );
      const storedHash = async () => (await owasp.sql.query('select password_hash from auth.staff where id = $1', [id])).rows[0].password_hash as string;
      const login = (secret: string) => owasp.api('POST', '/auth/api/staffs/login', { body: { email, password: secret } });

      expect((await login('wrong-password')).status).toBe(401);
      expect(await storedHash()).toBe(oldHash);

      expect((await login(password)).status).toBe(200);
      const upgraded = await storedHash();
      expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);

      expect((await login(password)).status).toBe(200);
      expect(await storedHash()).toBe(upgraded);
      expect((await login('wrong-password')).status).toBe(401);
    } finally {
      await owasp.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);
});
