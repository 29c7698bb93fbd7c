import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import OAuth2Server from '@node-oauth/oauth2-server';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../core/auth/jwt';
import { mayExchangeOAuthTokens, OAUTH_REFRESH_TOKEN_TTL_SECONDS } from '../../../core/auth/oauth';
import { Principal } from '../../../core/auth/principal';
import { databaseNowMs } from '../../../core/auth/revocations';
import { narrowPermissions } from '../../../core/auth/scopes';
import { hashToken } from '../../../core/auth/secrets';
import { forbidden, unauthenticated } from '../../../core/errors';
import { AuthDeps } from '../auth-deps';
import { OAuthClient } from '../entities/oauth-client';
import { OAuthToken } from '../entities/oauth-token';
import { OAuthClientCallOutcome, OAuthErrorAnswer, OAuthIntrospection, OAuthParamInput, OAuthTokenOutcome } from '../types/oauth.types';
import { ServiceAccessToken } from '../types/session.types';
import { OAuthModel, oauthSubjectPrincipal, revokeOAuthFamily, scopesFor } from './oauth-model';
import { clientAuthenticates, clientCredentialsOf, findActiveClient, oauthError, OAuthParams, oauthParams } from './oauth-params';

/** How long a platform token exchanged for an OAuth access token lives (the adapter reuses it for less). */
const EXCHANGED_TOKEN_TTL_SECONDS = 120;
/** OAuth 2.1: no implicit or password grant. */
const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'];

/**
 * The token endpoint (RFC 6749 with OAuth 2.1 rules, run by @node-oauth/oauth2-server on our model),
 * revocation (RFC 7009), introspection (RFC 7662), and the exchange of an OAuth access token for the
 * platform token the gateway and subgraphs accept.
 */
export class OAuthTokenService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /**
   * One token request in one transaction, committed whatever the answer: a refused reuse of a code or
   * refresh token still revokes the family it started.
   */
  async token(given: OAuthParamInput[], authorization: string | undefined): Promise<OAuthTokenOutcome> {
    const params = oauthParams(given);
    if (params.repeated.length > 0) return { error: oauthError(400, 'invalid_request', `Repeated parameter: ${params.repeated.join(', ')}`) };
    if (authorization && params.get('client_secret')) return { error: oauthError(400, 'invalid_request', 'Use one client authentication method, not HTTP Basic and client_secret together') };
    const credentials = clientCredentialsOf(params, authorization);
    if (credentials.malformed) return { error: oauthError(401, 'invalid_client', 'Malformed client credentials', true) };
    // The client must be known before anything else is said (RFC 6749 §5.2: invalid_client first).
    const client = credentials.clientId ? await findActiveClient(this.em, credentials.clientId) : null;
    if (!client || !clientAuthenticates(client, credentials.clientSecret)) {
      return { error: oauthError(401, 'invalid_client', 'Client authentication failed', credentials.basic) };
    }
    const grantType = params.get('grant_type');
    if (!grantType) return { error: oauthError(400, 'invalid_request', 'Missing parameter: grant_type') };
    if (!GRANT_TYPES.includes(grantType)) return { error: oauthError(400, 'unsupported_grant_type', `Supported grant types: ${GRANT_TYPES.join(', ')}`) };
    if (!client.grantTypes.includes(grantType)) return { error: oauthError(400, 'unauthorized_client', `This client is not registered for ${grantType}`) };
    if (grantType === 'client_credentials' && client.isPublic) {
      return { error: oauthError(400, 'unauthorized_client', 'A public client cannot use client_credentials') };
    }
    const body: Record<string, string> = {};
    for (const { name } of given) body[name] = params.get(name) ?? '';
    // The library reads HTTP Basic without the form-decoding of RFC 6749 §2.3.1: it gets the decoded credentials as parameters.
    body.client_id = client.clientId;
    if (credentials.clientSecret !== undefined) body.client_secret = credentials.clientSecret;
    else delete body.client_secret;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' };
    return this.em.transactional(async (em) => {
      const server = new OAuth2Server({
        model: new OAuthModel(em),
        accessTokenLifetime: ACCESS_TOKEN_TTL_SECONDS,
        refreshTokenLifetime: OAUTH_REFRESH_TOKEN_TTL_SECONDS,
        // Public clients authenticate by id alone; getClient still refuses a confidential client without its secret.
        requireClientAuthentication: { authorization_code: false, refresh_token: false, client_credentials: true },
        alwaysIssueNewRefreshToken: true,
      });
      try {
        const token = await server.token(new OAuth2Server.Request({ method: 'POST', headers, query: {}, body }), new OAuth2Server.Response());
        // No refresh token for client_credentials, nor for a client not registered for the refresh grant.
        const refreshToken = grantType === 'client_credentials' || !client.grantTypes.includes('refresh_token') ? null : (token.refreshToken ?? null);
        return { token: { accessToken: token.accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, refreshToken, scope: (token.scope ?? []).join(' ') } };
      } catch (error) {
        return { error: libraryError(error, credentials.basic) };
      }
    });
  }

  /** RFC 7009: the token's whole family is revoked when it belongs to the calling client; any other token is ignored. */
  async revoke(given: OAuthParamInput[], authorization: string | undefined): Promise<OAuthClientCallOutcome> {
    const checked = await this.authenticatedCall(given, authorization);
    if ('error' in checked) return { error: checked.error };
    const { token } = checked;
    if (token && token.client.id === checked.client.id) await this.em.transactional((em) => revokeOAuthFamily(em, token.familyId));
    return {};
  }

  /** RFC 7662: active only for a live token of the calling client whose subject still stands. */
  async introspect(given: OAuthParamInput[], authorization: string | undefined, issuer: string): Promise<OAuthClientCallOutcome> {
    const checked = await this.authenticatedCall(given, authorization);
    if ('error' in checked) return { error: checked.error };
    const { token, client, kind } = checked;
    const inactive: OAuthClientCallOutcome = { introspection: { active: false } };
    if (!token || token.client.id !== client.id || token.revokedAt) return inactive;
    const expiresAt = kind === 'access' ? token.accessExpiresAt : token.refreshExpiresAt;
    if (!expiresAt || expiresAt <= new Date() || (kind === 'refresh' && token.refreshUsedAt)) return inactive;
    const principal = await oauthSubjectPrincipal(this.em, token.subjectKind, token.subjectId);
    if (!principal) return inactive;
    const introspection: OAuthIntrospection = {
      active: true,
      scope: scopesFor(principal, token.scopes).join(' '),
      clientId: client.clientId,
      tokenType: kind === 'access' ? 'Bearer' : 'refresh_token',
      exp: Math.floor(expiresAt.getTime() / 1000),
      iat: Math.floor(token.createdAt.getTime() / 1000),
      sub: token.subjectId,
      iss: issuer,
    };
    return { introspection };
  }

  /**
   * The platform token an OAuth access token stands for (the REST adapter exchanges it, as it does API
   * keys): the subject's principal now, carrying the granted scopes narrowed to its role. 401 when the
   * token is unknown, expired, revoked (its family too), or its subject no longer stands. Only the
   * adapter's own identity may ask: the answer must never reach a client (it holds the role's permissions).
   */
  async exchange(accessToken: string, caller: Principal): Promise<ServiceAccessToken> {
    if (!mayExchangeOAuthTokens(caller)) throw forbidden('Only the REST adapter exchanges OAuth access tokens');
    return this.em.transactional(async (em) => {
      // The token's and its subject's rows stay share-locked until the platform token is signed: a
      // revocation of either (which updates the row) comes wholly before (401) or after (revoked).
      const token = await em.findOne(OAuthToken, { accessTokenHash: hashToken(accessToken), revokedAt: null }, { lockMode: LockMode.PESSIMISTIC_READ });
      const remaining = token ? Math.floor((token.accessExpiresAt.getTime() - Date.now()) / 1000) : 0;
      const subject = token && remaining > 0 ? await oauthSubjectPrincipal(em, token.subjectKind, token.subjectId, { lock: true }) : undefined;
      if (!token || !subject) throw unauthenticated('Invalid OAuth access token');
      const scopes = scopesFor(subject, token.scopes);
      const principal = new Principal(subject.kind, subject.id, subject.role, narrowPermissions(subject.permissions, scopes, this.deps.permissionScopes), scopes);
      const ttl = Math.min(EXCHANGED_TOKEN_TTL_SECONDS, remaining);
      const issue = { ttlSeconds: ttl, issuedAtMs: await databaseNowMs(em), oauthFamily: token.familyId, oauthClient: token.client.id };
      return { accessToken: await this.deps.tokens.sign(principal, issue), expiresIn: ttl };
    });
  }

  /** Client authentication and the `token` parameter of revocation and introspection. */
  private async authenticatedCall(
    given: OAuthParamInput[],
    authorization: string | undefined,
  ): Promise<{ error: OAuthErrorAnswer } | { client: OAuthClient; token: OAuthToken | null; kind: 'access' | 'refresh' }> {
    const params: OAuthParams = oauthParams(given);
    const credentials = clientCredentialsOf(params, authorization);
    if (credentials.malformed) return { error: oauthError(401, 'invalid_client', 'Malformed client credentials', true) };
    const client = credentials.clientId ? await findActiveClient(this.em, credentials.clientId) : null;
    if (!client || !clientAuthenticates(client, credentials.clientSecret)) {
      return { error: oauthError(401, 'invalid_client', 'Client authentication failed', credentials.basic) };
    }
    if (params.repeated.length > 0) return { error: oauthError(400, 'invalid_request', `Repeated parameter: ${params.repeated.join(', ')}`) };
    const value = params.get('token');
    if (!value) return { error: oauthError(400, 'invalid_request', 'Missing parameter: token') };
    const hash = hashToken(value);
    // token_type_hint only orders the look-ups (RFC 7009 §2.1); both kinds are tried.
    const access = await this.em.findOne(OAuthToken, { accessTokenHash: hash }, { populate: ['client'] });
    if (access) return { client, token: access, kind: 'access' };
    return { client, token: await this.em.findOne(OAuthToken, { refreshTokenHash: hash }, { populate: ['client'] }), kind: 'refresh' };
  }
}

/** The library's OAuth errors as RFC 6749 §5.2 answers; invalid_client is always 401 (contract section 3). */
function libraryError(error: unknown, basic: boolean): OAuthErrorAnswer {
  if (!(error instanceof OAuth2Server.OAuthError) || error.name === 'server_error') throw error;
  const name = error.name === 'invalid_argument' ? 'invalid_request' : error.name;
  if (name === 'invalid_client') return oauthError(401, name, error.message, basic);
  // A redirect_uri other than the code's is an invalid grant (RFC 6749 §5.2), which the library calls invalid_request.
  if (/redirect_uri/.test(error.message) && name === 'invalid_request') return oauthError(400, 'invalid_grant', error.message);
  return oauthError(error.code >= 400 && error.code < 500 ? error.code : 400, name, error.message);
}
