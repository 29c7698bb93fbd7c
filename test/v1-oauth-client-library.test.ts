import { createServer } from 'node:net';
import * as oauth from 'oauth4webapi';
import { getAuthorize, hiddenInputs, postAuthorize, REDIRECT_URI, registerClient } from './support/oauth';
import { usePlatform } from './support/use-platform';

/**
 * A third-party application driving the OAuth server with a maintained client library (oauth4webapi),
 * as it would in production: discovery, authorization code with PKCE, the callback's `iss` and `state`
 * checked, refresh rotation, client_credentials, introspection and revocation. Only the staff member's
 * sign-in form is posted with fetch, as a browser would. The issuer must be the URL the server answers
 * on, so the platform gets a port picked beforehand and PUBLIC_URL on it.
 */
let publicUrl = '';
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  publicUrl = `http://127.0.0.1:${port}`;
});
const { platform, admin } = usePlatform({ staff: ['admin'], env: () => ({ PORT: new URL(publicUrl).port, PUBLIC_URL: publicUrl }) });

/** The test server speaks http on 127.0.0.1; production issuers are https. */
const insecure = { [oauth.allowInsecureRequests]: true };

async function discover(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(publicUrl);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
}

/** The browser's part: open the authorization URL, sign in on the page and allow; returns the callback URL. */
async function signInAndAllow(authorizationUrl: URL): Promise<URL> {
  const page = await getAuthorize(platform, {}, authorizationUrl.search.slice(1));
  expect(page.status).toBe(200);
  const answer = await postAuthorize(platform, { ...hiddenInputs(page.html), email: admin.email, password: admin.password, decision: 'allow' }, page.cookie);
  expect(answer.status).toBe(302);
  return new URL(answer.location!);
}

describe('a third-party app using oauth4webapi', () => {
  it('discovers the server, gets tokens by authorization code with PKCE, rotates its refresh token, introspects and revokes', async () => {
    const as = await discover();
    expect(as.issuer).toBe(publicUrl);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    const registered = await registerClient(platform, admin);
    const client: oauth.Client = { client_id: registered.client_id };
    const clientAuth = oauth.ClientSecretBasic(registered.client_secret!);

    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'read write',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    })) {
      authorizationUrl.searchParams.set(name, value);
    }
    const callback = await signInAndAllow(authorizationUrl);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, codeVerifier, insecure),
    );
    expect(tokens).toEqual(expect.objectContaining({ token_type: 'bearer', expires_in: 3600, scope: 'read write', access_token: expect.any(String), refresh_token: expect.any(String) }));
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: tokens.access_token })).status).toBe(200);

    // The same code again: refused, and the tokens issued from it are revoked.
    await expect(
      oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, codeVerifier, insecure)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: tokens.access_token })).status).toBe(401);

    // A fresh authorization, then refresh rotation.
    const secondState = oauth.generateRandomState();
    const secondVerifier = oauth.generateRandomCodeVerifier();
    authorizationUrl.searchParams.set('state', secondState);
    authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(secondVerifier));
    const second = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, oauth.validateAuthResponse(as, client, await signInAndAllow(authorizationUrl), secondState), REDIRECT_URI, secondVerifier, insecure),
    );
    const rotated = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, insecure));
    expect(rotated.refresh_token).not.toBe(second.refresh_token);
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: rotated.access_token })).status).toBe(200);

    const introspection = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, rotated.access_token, insecure));
    expect(introspection).toEqual(expect.objectContaining({ active: true, scope: 'read write', client_id: client.client_id, sub: admin.id }));

    // Presenting the used refresh token again revokes the family.
    await expect(
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, insecure)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: rotated.access_token })).status).toBe(401);

    // A third authorization, revoked by the app.
    const thirdState = oauth.generateRandomState();
    const thirdVerifier = oauth.generateRandomCodeVerifier();
    authorizationUrl.searchParams.set('state', thirdState);
    authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(thirdVerifier));
    const third = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, oauth.validateAuthResponse(as, client, await signInAndAllow(authorizationUrl), thirdState), REDIRECT_URI, thirdVerifier, insecure),
    );
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, third.refresh_token!, insecure));
    const revoked = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, third.access_token, insecure));
    expect(revoked.active).toBe(false);
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: third.access_token })).status).toBe(401);
  });

  it('a public client (none) with PKCE, and a confidential client with client_credentials (client_secret_post)', async () => {
    const as = await discover();
    const publicRegistration = await registerClient(platform, admin, { token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:8765/callback'] });
    const publicClient: oauth.Client = { client_id: publicRegistration.client_id, token_endpoint_auth_method: 'none' };
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      client_id: publicClient.client_id,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      response_type: 'code',
      scope: 'read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    const params = oauth.validateAuthResponse(as, publicClient, await signInAndAllow(authorizationUrl), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      publicClient,
      await oauth.authorizationCodeGrantRequest(as, publicClient, oauth.None(), params, 'http://127.0.0.1:8765/callback', codeVerifier, insecure),
    );
    expect(tokens.scope).toBe('read');
    const refreshed = await oauth.processRefreshTokenResponse(as, publicClient, await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), tokens.refresh_token!, insecure));
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: refreshed.access_token })).status).toBe(200);

    const service = await registerClient(platform, admin, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post', scope: 'read analytics' });
    const serviceClient: oauth.Client = { client_id: service.client_id };
    const machine = await oauth.processClientCredentialsResponse(
      as,
      serviceClient,
      await oauth.clientCredentialsGrantRequest(as, serviceClient, oauth.ClientSecretPost(service.client_secret!), { scope: 'read' }, insecure),
    );
    expect(machine).toEqual(expect.objectContaining({ token_type: 'bearer', expires_in: 3600, scope: 'read' }));
    expect(machine.refresh_token).toBeUndefined();
    expect((await platform.api('GET', '/api/v1/customers?limit=1', { token: machine.access_token })).status).toBe(200);
    await expect(
      oauth.processClientCredentialsResponse(as, serviceClient, await oauth.clientCredentialsGrantRequest(as, serviceClient, oauth.ClientSecretPost('wrong'), {}, insecure)),
    ).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
  });
});
