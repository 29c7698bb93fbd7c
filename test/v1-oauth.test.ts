import { createHash } from 'node:crypto';
import { authorizationCode, basic, consent, getAuthorize, hiddenInputs, pkcePair, postAuthorize, postForm, REDIRECT_URI, registerClient, RegisteredClient } from './support/oauth';
import { PLATFORM_START_TIMEOUT_MS, startTestPlatform, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'] });

const issuer = () => platform.config.publicUrl;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A code exchanged at the token endpoint by a confidential client (HTTP Basic). */
async function tokensFor(client: RegisteredClient, staff = admin, extra: Record<string, string> = {}) {
  const { code, verifier } = await authorizationCode(platform, staff, client, extra);
  const response = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uris[0], code_verifier: verifier }, {
    authorization: basic(client.client_id, client.client_secret!),
  });
  expect(response.status).toBe(200);
  return response.body as { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string };
}

const customers = (token: string) => platform.api('GET', '/api/v1/customers?limit=1', { token });

describe('GET /.well-known/oauth-authorization-server', () => {
  it('lists the endpoints under PUBLIC_URL and what the server supports (RFC 8414)', async () => {
    const response = await platform.api('GET', '/.well-known/oauth-authorization-server');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      issuer: issuer(),
      authorization_endpoint: `${issuer()}/oauth/authorize`,
      token_endpoint: `${issuer()}/oauth/token`,
      registration_endpoint: `${issuer()}/oauth/register`,
      revocation_endpoint: `${issuer()}/oauth/revoke`,
      introspection_endpoint: `${issuer()}/oauth/introspect`,
      scopes_supported: ['read', 'write', 'admin', 'analytics'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
  });
});

describe('POST /oauth/register', () => {
  it('registers a confidential client: 201 in the RFC 7591 shape, the secret shown once and stored hashed', async () => {
    const response = await platform.api('POST', '/oauth/register', {
      token: admin.token,
      body: { client_name: 'Partner CRM', redirect_uris: [REDIRECT_URI, 'http://127.0.0.1:8123/cb'], scope: 'read write' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      client_id: expect.stringMatching(/^lpc_/),
      client_secret: expect.stringMatching(/^lpcs_/),
      client_id_issued_at: expect.any(Number),
      client_secret_expires_at: 0,
      client_name: 'Partner CRM',
      redirect_uris: [REDIRECT_URI, 'http://127.0.0.1:8123/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'read write',
    });
    expect(Math.abs(response.body.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);
    const rows = await platform.sql.query('select * from auth.oauth_client where client_id = $1', [response.body.client_id]);
    expect(rows.rows[0].secret_hash).toBe(sha256(response.body.client_secret));
    expect(JSON.stringify(rows.rows[0])).not.toContain(response.body.client_secret);
  });

  it('registers a public client (token_endpoint_auth_method none) without a secret', async () => {
    const client = await registerClient(platform, admin, { token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:3999/callback'] });
    expect(client.client_secret).toBeUndefined();
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.scope).toBe('read write admin analytics');
  });

  it('answers 401 invalid_token without a credential and 403 insufficient_scope to a role without admin', async () => {
    const anonymous = await platform.api('POST', '/oauth/register', { body: { client_name: 'x', redirect_uris: [REDIRECT_URI] } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(anonymous.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    for (const staff of [marketing, tenant]) {
      const refused = await platform.api('POST', '/oauth/register', { token: staff.token, body: { client_name: 'x', redirect_uris: [REDIRECT_URI] } });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="admin"');
      expect(refused.body.error).toBe('insufficient_scope');
    }
  });

  it('takes an API key with the admin scope; its client_credentials tokens act as the key, within its scopes', async () => {
    const key = await platform.api('POST', '/auth/api/services/generate-api-key', {
      token: admin.token,
      body: { name: unique('key'), roleId: await platform.roleId('admin'), scopes: ['read', 'admin'] },
    });
    expect(key.status).toBe(201);
    const registered = await platform.api('POST', '/oauth/register', {
      headers: { 'x-api-key': key.body.data.apiKey },
      body: { client_name: 'Made by a key', grant_types: ['client_credentials'], scope: 'read write' },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.redirect_uris).toEqual([]);
    expect(registered.body.response_types).toEqual([]);
    const auth = { authorization: basic(registered.body.client_id, registered.body.client_secret) };
    const token = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials' }, auth);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('read');
    expect((await customers(token.body.access_token)).status).toBe(200);
    const readOnlyKey = await platform.api('POST', '/auth/api/services/generate-api-key', {
      token: admin.token,
      body: { name: unique('key'), roleId: await platform.roleId('admin'), scopes: ['read'] },
    });
    const refused = await platform.api('POST', '/oauth/register', { token: readOnlyKey.body.data.apiKey, body: { client_name: 'x', redirect_uris: [REDIRECT_URI] } });
    expect(refused.status).toBe(403);
    await platform.api('DELETE', `/auth/api/services/revoke/${key.body.data.id}`, { token: admin.token });
    const afterRevocation = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials' }, auth);
    expect(afterRevocation.status).toBe(400);
    expect(afterRevocation.body.error).toBe('invalid_grant');
  });

  it('refuses redirect URIs that are not https (or http on loopback) with invalid_redirect_uri naming each', async () => {
    const response = await platform.api('POST', '/oauth/register', {
      token: admin.token,
      body: { client_name: 'Bad', redirect_uris: ['http://app.example.com/cb', REDIRECT_URI, 'https://app.example.com/cb#frag', 'not a uri'] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_redirect_uri',
      error_description: expect.any(String),
      details: [
        { field: 'redirect_uris[0]', message: expect.stringContaining('https') },
        { field: 'redirect_uris[2]', message: expect.stringContaining('fragment') },
        { field: 'redirect_uris[3]', message: expect.any(String) },
      ],
    });
  });

  it('refuses bad metadata with invalid_client_metadata naming every bad field', async () => {
    const response = await platform.api('POST', '/oauth/register', {
      token: admin.token,
      body: { client_name: '', redirect_uris: 'https://x.example.com', grant_types: ['implicit'], token_endpoint_auth_method: 'private_key_jwt', scope: 'read everything' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_client_metadata');
    expect(response.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['client_name', 'grant_types', 'redirect_uris', 'scope', 'token_endpoint_auth_method']);
    const publicCredentials = await platform.api('POST', '/oauth/register', {
      token: admin.token,
      body: { client_name: 'P', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['client_credentials'] },
    });
    expect(publicCredentials.status).toBe(400);
    expect(publicCredentials.body.details).toEqual([{ field: 'grant_types', message: expect.stringContaining('public client') }]);
    for (const body of ['[1]', '{"client_name":']) {
      const notAnObject = await platform.api('POST', '/oauth/register', { token: admin.token, body });
      expect(notAnObject.status).toBe(400);
      expect(notAnObject.body.error).toBe('invalid_client_metadata');
    }
  });
});

describe('GET /oauth/authorize', () => {
  let client: RegisteredClient;
  beforeAll(async () => {
    client = await registerClient(platform, admin, { client_name: '<script>alert("x")</script> & Co', scope: 'read write analytics' });
  });
  const request = (extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'read write',
    state: 'st<ate>',
    ...extra,
  });

  it('shows the sign-in and consent page: the client and scopes named and escaped, one form with hidden request and CSRF token', async () => {
    const page = await getAuthorize(platform, request({ code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.html).not.toContain('<script');
    expect(page.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; Co');
    expect(page.html.match(/<form /g)).toHaveLength(1);
    expect(page.html).toContain('<form method="post" action="/oauth/authorize">');
    expect(page.html).toContain('<label for="email">');
    expect(page.html).toContain('<input id="email" name="email" type="email"');
    expect(page.html).toContain('<label for="password">');
    expect(page.html).toContain('<input id="password" name="password" type="password"');
    expect(page.html).toContain('name="decision" value="allow"');
    expect(page.html).toContain('name="decision" value="deny"');
    expect(page.html).toMatch(/<li><strong>read<\/strong>/);
    expect(page.html).toMatch(/<li><strong>write<\/strong>/);
    expect(page.html).not.toMatch(/<li><strong>analytics<\/strong>/);
    const hidden = hiddenInputs(page.html);
    expect(hidden).toEqual({ ...request(), code_challenge: expect.any(String), code_challenge_method: 'S256', csrf_token: expect.any(String) });
    expect(page.cookie).toMatch(/^oauth_csrf=/);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(page.headers.get('set-cookie')).toMatch(/SameSite=Lax/i);
  });

  it('answers 400 HTML, never a redirect, for an unknown client or a redirect URI not registered exactly', async () => {
    for (const params of [
      request({ client_id: 'lpc_unknown' }),
      request({ client_id: undefined }),
      request({ redirect_uri: 'https://evil.example.com/callback' }),
      request({ redirect_uri: `${REDIRECT_URI}/` }),
      request({ redirect_uri: `${REDIRECT_URI}?x=1` }),
    ]) {
      const page = await getAuthorize(platform, params);
      expect(page.status).toBe(400);
      expect(page.location).toBeNull();
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.html).toContain('cannot be completed');
    }
  });

  it('sends other errors back to the redirect URI with error, state and iss', async () => {
    const publicClient = await registerClient(platform, admin, { token_endpoint_auth_method: 'none' });
    const cases: [Record<string, string | undefined>, string][] = [
      [request({ response_type: 'token' }), 'unsupported_response_type'],
      [request({ response_type: undefined }), 'invalid_request'],
      [request({ scope: 'read bogus' }), 'invalid_scope'],
      [request({ scope: 'admin' }), 'invalid_scope'],
      [request({ code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }), 'invalid_request'],
      [request({ code_challenge: pkcePair().challenge }), 'invalid_request'],
      [request({ code_challenge: 'short', code_challenge_method: 'S256' }), 'invalid_request'],
      [request({ client_id: publicClient.client_id }), 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      const page = await getAuthorize(platform, params);
      expect({ params, status: page.status }).toEqual({ params, status: 302 });
      const location = new URL(page.location!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('st<ate>');
      expect(location.searchParams.get('iss')).toBe(issuer());
      expect(location.searchParams.get('code')).toBeNull();
    }
    const repeated = await getAuthorize(platform, {}, `${new URLSearchParams(request()).toString()}&scope=read`);
    expect(new URL(repeated.location!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('POST /oauth/authorize', () => {
  let client: RegisteredClient;
  beforeAll(async () => {
    client = await registerClient(platform, admin);
  });
  const request = () => ({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, scope: 'read write', state: 'abc', ...((p) => ({ code_challenge: p.challenge, code_challenge_method: 'S256' }))(pkcePair()) });

  it('allow: signs the staff member in and redirects with code, state and iss; the code is stored hashed and lives 10 minutes', async () => {
    const answer = await consent(platform, admin, request());
    expect(answer.status).toBe(302);
    const location = new URL(answer.location!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect([...location.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
    expect(location.searchParams.get('state')).toBe('abc');
    expect(location.searchParams.get('iss')).toBe(issuer());
    const code = location.searchParams.get('code')!;
    const stored = await platform.sql.query('select staff_id, scopes, round(extract(epoch from expires_at - created_at))::int as ttl from auth.oauth_authorization_code where code_hash = $1', [sha256(code)]);
    expect(stored.rows[0]).toEqual({ staff_id: admin.id, scopes: ['read', 'write'], ttl: 600 });
  });

  it('deny: redirects with access_denied and state, without signing in', async () => {
    const page = await getAuthorize(platform, request());
    const answer = await postAuthorize(platform, { ...hiddenInputs(page.html), decision: 'deny' }, page.cookie);
    expect(answer.status).toBe(302);
    const location = new URL(answer.location!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('abc');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('a wrong e-mail or password shows the page again (401) with a message and no redirect', async () => {
    for (const credentials of [{ email: admin.email, password: 'wrong' }, { email: `${unique('nobody')}@example.com`, password: admin.password }, { email: '', password: '' }]) {
      const answer = await consent(platform, credentials, request());
      expect(answer.status).toBe(401);
      expect(answer.location).toBeNull();
      expect(answer.html).toContain('Invalid email or password');
      expect(answer.html).toContain('<form method="post" action="/oauth/authorize">');
    }
  });

  it('refuses a form without the CSRF cookie and token, or with a forged one: 400 page, no redirect', async () => {
    const page = await getAuthorize(platform, request());
    const form = { ...hiddenInputs(page.html), email: admin.email, password: admin.password, decision: 'allow' };
    const other = await getAuthorize(platform, request());
    for (const [fields, cookie] of [
      [form, undefined],
      [{ ...form, csrf_token: '' }, page.cookie],
      [{ ...form, csrf_token: 'forged.value' }, 'oauth_csrf=forged.value'],
      [form, other.cookie === page.cookie ? 'oauth_csrf=x' : other.cookie],
    ] as [Record<string, string>, string | undefined][]) {
      const answer = await postAuthorize(platform, fields, cookie);
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
    }
  });

  it('grants only the scopes the role holds: tenant asking read write gets read; asking only write is invalid_scope', async () => {
    const tokens = await tokensFor(client, tenant);
    expect(tokens.scope).toBe('read');
    const answer = await consent(platform, tenant, { ...request(), scope: 'write' });
    expect(new URL(answer.location!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('is rate limited per client IP like the staff login', async () => {
    const limited = await startTestPlatform({ RATE_LIMIT_STANDARD_PER_HOUR: '3' });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const response = await fetch(`${limited.restUrl}/oauth/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=allow&email=a@b.c&password=x' });
        statuses.push(response.status);
        if (response.status === 429) expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);
});

describe('POST /oauth/token', () => {
  let client: RegisteredClient;
  beforeAll(async () => {
    client = await registerClient(platform, admin, { grant_types: ['authorization_code', 'refresh_token', 'client_credentials'] });
  });

  it('exchanges a code with PKCE (HTTP Basic): the token answer with Cache-Control no-store; the access token works on /api/v1', async () => {
    const { code, verifier } = await authorizationCode(platform, admin, client);
    const response = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, {
      authorization: basic(client.client_id, client.client_secret!),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ access_token: expect.stringMatching(/^lpo_at_/), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.stringMatching(/^lpo_rt_/), scope: 'read write' });
    const listed = await customers(response.body.access_token);
    expect(listed.status).toBe(200);
    expect(listed.body.pagination).toEqual(expect.objectContaining({ page: 1, limit: 1 }));
  });

  it('takes client_secret in the body (client_secret_post)', async () => {
    const { code, verifier } = await authorizationCode(platform, admin, client);
    const response = await postForm(platform, '/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: client.client_id, client_secret: client.client_secret!,
    });
    expect(response.status).toBe(200);
  });

  it('a second use of a code is invalid_grant and revokes the tokens issued from it', async () => {
    const { code, verifier } = await authorizationCode(platform, admin, client);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const first = await postForm(platform, '/oauth/token', form, auth);
    expect(first.status).toBe(200);
    expect((await customers(first.body.access_token)).status).toBe(200);
    const second = await postForm(platform, '/oauth/token', form, auth);
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    const after = await customers(first.body.access_token);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('invalid_token');
    const refresh = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, auth);
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('refuses a wrong or missing code_verifier, another redirect_uri, an expired or unknown code: invalid_grant', async () => {
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const wrongVerifier = await authorizationCode(platform, admin, client);
    const missingVerifier = await authorizationCode(platform, admin, client);
    const otherRedirect = await authorizationCode(platform, admin, client);
    const expired = await authorizationCode(platform, admin, client);
    await platform.sql.query("update auth.oauth_authorization_code set expires_at = now() - interval '1 second' where code_hash = $1", [sha256(expired.code)]);
    for (const form of [
      { code: wrongVerifier.code, redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier },
      { code: missingVerifier.code, redirect_uri: REDIRECT_URI, code_verifier: '' },
      { code: otherRedirect.code, redirect_uri: 'https://app.example.com/other', code_verifier: otherRedirect.verifier },
      { code: expired.code, redirect_uri: REDIRECT_URI, code_verifier: expired.verifier },
      { code: 'unknown-code', redirect_uri: REDIRECT_URI, code_verifier: expired.verifier },
    ]) {
      const response = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', ...form }, auth);
      expect({ form, status: response.status, error: response.body.error }).toEqual({ form, status: 400, error: 'invalid_grant' });
    }
  });

  it('answers 401 invalid_client for a wrong secret, an unknown client or no credentials; WWW-Authenticate when Basic was used', async () => {
    const { code, verifier } = await authorizationCode(platform, admin, client);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const wrongBasic = await postForm(platform, '/oauth/token', form, { authorization: basic(client.client_id, 'lpcs_wrong') });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.body.error).toBe('invalid_client');
    expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic /);
    const wrongPost = await postForm(platform, '/oauth/token', { ...form, client_id: client.client_id, client_secret: 'nope' });
    expect(wrongPost.status).toBe(401);
    expect(wrongPost.body.error).toBe('invalid_client');
    const unknown = await postForm(platform, '/oauth/token', { ...form, client_id: 'lpc_nobody', client_secret: 'x' });
    expect(unknown.status).toBe(401);
    const none = await postForm(platform, '/oauth/token', form);
    expect(none.status).toBe(401);
    const noSecret = await postForm(platform, '/oauth/token', { ...form, client_id: client.client_id });
    expect(noSecret.status).toBe(401);
    // The code was not spent by the refused attempts.
    const good = await postForm(platform, '/oauth/token', form, { authorization: basic(client.client_id, client.client_secret!) });
    expect(good.status).toBe(200);
  });

  it('answers 400 unsupported_grant_type, invalid_request and invalid_scope', async () => {
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const password = await postForm(platform, '/oauth/token', { grant_type: 'password', username: admin.email, password: admin.password }, auth);
    expect(password.status).toBe(400);
    expect(password.body.error).toBe('unsupported_grant_type');
    const missingGrant = await postForm(platform, '/oauth/token', {}, auth);
    expect(missingGrant.body.error).toBe('invalid_request');
    const missingCode = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', redirect_uri: REDIRECT_URI }, auth);
    expect(missingCode.status).toBe(400);
    expect(missingCode.body.error).toBe('invalid_request');
    const json = await fetch(`${platform.restUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ grant_type: 'client_credentials' }) });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    const repeated = await fetch(`${platform.restUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: 'grant_type=client_credentials&scope=read&scope=write',
    });
    expect(repeated.status).toBe(400);
    expect(((await repeated.json()) as { error: string }).error).toBe('invalid_request');
    const readOnly = await registerClient(platform, admin, { grant_types: ['client_credentials'], scope: 'read' });
    const scope = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials', scope: 'read admin' }, { authorization: basic(readOnly.client_id, readOnly.client_secret!) });
    expect(scope.status).toBe(400);
    expect(scope.body.error).toBe('invalid_scope');
  });

  it('rotates refresh tokens; presenting a used one is invalid_grant and revokes the whole family', async () => {
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const first = await tokensFor(client);
    const second = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token }, auth);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.any(String), scope: 'read write' });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const narrowed = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: second.body.refresh_token, scope: 'read' }, auth);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('read');
    expect((await customers(narrowed.body.access_token)).status).toBe(200);
    const reused = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token }, auth);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expect((await customers(narrowed.body.access_token)).status).toBe(401);
    expect((await customers(first.access_token)).status).toBe(401);
    const latest = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token }, auth);
    expect(latest.body.error).toBe('invalid_grant');
  });

  it('of two concurrent refreshes with one token, one wins and the other revokes the family (the winner included)', async () => {
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const tokens = await tokensFor(client);
    const answers = await Promise.all([0, 1].map(() => postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await customers(winner.body.access_token)).status).toBe(401);
    const next = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: winner.body.refresh_token }, auth);
    expect(next.body.error).toBe('invalid_grant');
  });

  it('a code issued without a PKCE challenge (confidential client) is exchanged without a verifier and refuses one', async () => {
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const withoutPkce = async () => {
      const answer = await consent(platform, admin, { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, scope: 'read', state: 's' });
      return new URL(answer.location!).searchParams.get('code')!;
    };
    const refused = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code: await withoutPkce(), redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier }, auth);
    expect(refused.body.error).toBe('invalid_grant');
    const accepted = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code: await withoutPkce(), redirect_uri: REDIRECT_URI }, auth);
    expect(accepted.status).toBe(200);
    expect(accepted.body.scope).toBe('read');
  });

  it('client_credentials: a token without refresh_token that acts as the registering admin, narrowed to the client scopes', async () => {
    const response = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials', scope: 'read' }, { authorization: basic(client.client_id, client.client_secret!) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: expect.stringMatching(/^lpo_at_/), token_type: 'Bearer', expires_in: 3600, scope: 'read' });
    expect((await customers(response.body.access_token)).status).toBe(200);
    const register = await platform.api('POST', '/oauth/register', { token: response.body.access_token, body: { client_name: 'x', redirect_uris: [REDIRECT_URI] } });
    expect(register.status).toBe(403);
    expect(register.body.error).toBe('insufficient_scope');
    const stored = await platform.sql.query('select subject_kind, subject_id from auth.oauth_token where access_token_hash = $1', [sha256(response.body.access_token)]);
    expect(stored.rows[0]).toEqual({ subject_kind: 'staff', subject_id: admin.id });
    const notRegistered = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic((await registerClient(platform, admin)).client_id, 'x') });
    expect(notRegistered.status).toBe(401);
  });

  it('gives no refresh token to a client not registered for the refresh grant, and refuses it the grant', async () => {
    const codeOnly = await registerClient(platform, admin, { grant_types: ['authorization_code'] });
    const auth = { authorization: basic(codeOnly.client_id, codeOnly.client_secret!) };
    const { code, verifier } = await authorizationCode(platform, admin, codeOnly);
    const response = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, auth);
    expect(response.status).toBe(200);
    expect(response.body.refresh_token).toBeUndefined();
    const refresh = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'lpo_rt_x' }, auth);
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('unauthorized_client');
  });

  it('a public client authenticates by client_id alone with PKCE, and may not send a secret', async () => {
    const publicClient = await registerClient(platform, admin, { token_endpoint_auth_method: 'none' });
    const { code, verifier } = await authorizationCode(platform, admin, publicClient);
    const withSecret = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: publicClient.client_id, client_secret: 'x' });
    expect(withSecret.status).toBe(401);
    const response = await postForm(platform, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: publicClient.client_id });
    expect(response.status).toBe(200);
    const refreshed = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: response.body.refresh_token, client_id: publicClient.client_id });
    expect(refreshed.status).toBe(200);
    const credentials = await postForm(platform, '/oauth/token', { grant_type: 'client_credentials', client_id: publicClient.client_id });
    expect(credentials.status).toBe(400);
  });
});

describe('OAuth access tokens on /api/v1', () => {
  it('hold the granted scopes narrowed by the role: admin granting read cannot register; marketing asking admin gets none', async () => {
    const client = await registerClient(platform, admin);
    const readOnly = await tokensFor(client, admin, { scope: 'read' });
    expect((await customers(readOnly.access_token)).status).toBe(200);
    const refused = await platform.api('POST', '/oauth/register', { token: readOnly.access_token, body: { client_name: 'x', redirect_uris: [REDIRECT_URI] } });
    expect(refused.status).toBe(403);
    const withAdmin = await tokensFor(client, admin, { scope: 'read admin' });
    const allowed = await platform.api('POST', '/oauth/register', { token: withAdmin.access_token, body: { client_name: 'Made by an OAuth app', redirect_uris: [REDIRECT_URI] } });
    expect(allowed.status).toBe(201);
    const marketingTokens = await tokensFor(client, marketing, { scope: 'read write admin analytics' });
    expect(marketingTokens.scope).toBe('read write analytics');
    const analyticsOnly = await tokensFor(client, admin, { scope: 'analytics' });
    const noRead = await customers(analyticsOnly.access_token);
    expect(noRead.status).toBe(403);
    expect(noRead.body.error).toBe('insufficient_scope');
  });

  it('cannot be exchanged for the platform token by anyone but the REST adapter (the gateway refuses clients)', async () => {
    const client = await registerClient(platform, admin);
    const tokens = await tokensFor(client, admin, { scope: 'read' });
    const exchange = 'mutation($t: String!) { exchangeOAuthAccessToken(accessToken: $t) { accessToken } }';
    const anonymous = await platform.graphql(exchange, { t: tokens.access_token });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const asAdmin = await platform.graphql(exchange, { t: tokens.access_token }, admin.token);
    expect(asAdmin.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(asAdmin.body.data).toBeNull();
    const withTheOAuthToken = await platform.graphql('{ myApiKeys { data { id } } }', {}, tokens.access_token);
    expect(withTheOAuthToken.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('write routes need a granted write: read-only is 403, read write creates (the subgraph sees the user)', async () => {
    const client = await registerClient(platform, admin);
    const readOnly = await tokensFor(client, admin, { scope: 'read' });
    const refused = await platform.api('POST', '/api/v1/customers', { token: readOnly.access_token, body: { name: 'Via OAuth' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write"');
    const writer = await tokensFor(client, admin, { scope: 'read write' });
    const created = await platform.api('POST', '/api/v1/customers', { token: writer.access_token, body: { name: 'Via OAuth' } });
    expect(created.status).toBe(200);
    expect(created.body.data.name).toBe('Via OAuth');
    const tenantWriter = await tokensFor(client, tenant, { scope: 'read write' });
    expect((await platform.api('POST', '/api/v1/customers', { token: tenantWriter.access_token, body: { name: 'Nope' } })).status).toBe(403);
  });

  it('an unknown or malformed OAuth token is 401 invalid_token', async () => {
    for (const token of ['lpo_at_unknowntokenvalue123456', 'lpo_at_!']) {
      const response = await customers(token);
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_token');
    }
  });

  it('stop working when the staff member is deactivated', async () => {
    const staff = await platform.createStaff('admin');
    const client = await registerClient(platform, admin);
    const tokens = await tokensFor(client, staff);
    expect((await customers(tokens.access_token)).status).toBe(200);
    await platform.sql.query("update auth.staff set status = 'INACTIVE' where id = $1", [staff.id]);
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const refresh = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth);
    expect(refresh.body.error).toBe('invalid_grant');
    const introspection = await postForm(platform, '/oauth/introspect', { token: tokens.access_token }, auth);
    expect(introspection.body).toEqual({ active: false });
  });
});

describe('POST /oauth/revoke and /oauth/introspect', () => {
  it('introspects a live token of the calling client; revocation ends it, its family, and its use on /api/v1', async () => {
    const client = await registerClient(platform, admin);
    const auth = { authorization: basic(client.client_id, client.client_secret!) };
    const tokens = await tokensFor(client);
    const active = await postForm(platform, '/oauth/introspect', { token: tokens.access_token }, auth);
    expect(active.status).toBe(200);
    expect(active.headers.get('cache-control')).toBe('no-store');
    expect(active.body).toEqual({
      active: true, scope: 'read write', client_id: client.client_id, token_type: 'Bearer', exp: expect.any(Number), iat: expect.any(Number), sub: admin.id, iss: issuer(),
    });
    expect(active.body.exp - active.body.iat).toBe(3600);
    const refresh = await postForm(platform, '/oauth/introspect', { token: tokens.refresh_token, token_type_hint: 'refresh_token' }, auth);
    expect(refresh.body).toEqual(expect.objectContaining({ active: true, token_type: 'refresh_token' }));
    expect((await customers(tokens.access_token)).status).toBe(200);

    const revoked = await postForm(platform, '/oauth/revoke', { token: tokens.refresh_token, token_type_hint: 'refresh_token' }, auth);
    expect(revoked.status).toBe(200);
    expect((await postForm(platform, '/oauth/introspect', { token: tokens.access_token }, auth)).body).toEqual({ active: false });
    expect((await customers(tokens.access_token)).status).toBe(401);
    const again = await postForm(platform, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth);
    expect(again.body.error).toBe('invalid_grant');
    const unknown = await postForm(platform, '/oauth/revoke', { token: 'never-issued' }, auth);
    expect(unknown.status).toBe(200);
  });

  it("ignores another client's token: inactive to introspection, not revoked", async () => {
    const owner = await registerClient(platform, admin);
    const other = await registerClient(platform, admin);
    const tokens = await tokensFor(owner);
    const otherAuth = { authorization: basic(other.client_id, other.client_secret!) };
    expect((await postForm(platform, '/oauth/introspect', { token: tokens.access_token }, otherAuth)).body).toEqual({ active: false });
    expect((await postForm(platform, '/oauth/revoke', { token: tokens.access_token }, otherAuth)).status).toBe(200);
    expect((await customers(tokens.access_token)).status).toBe(200);
  });

  it('need client authentication (401 invalid_client) and a token parameter (400 invalid_request)', async () => {
    const client = await registerClient(platform, admin);
    for (const path of ['/oauth/revoke', '/oauth/introspect']) {
      const anonymous = await postForm(platform, path, { token: 'x' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toBe('invalid_client');
      const wrong = await postForm(platform, path, { token: 'x' }, { authorization: basic(client.client_id, 'wrong') });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
      const missing = await postForm(platform, path, {}, { authorization: basic(client.client_id, client.client_secret!) });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
    }
  });
});
