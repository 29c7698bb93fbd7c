import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { OAUTH_CLIENT_ID_PREFIX, OAUTH_CLIENT_SECRET_PREFIX } from '../../../core/auth/oauth';
import { Principal } from '../../../core/auth/principal';
import { recordRevocation, revocationSubject } from '../../../core/auth/revocations';
import { API_SCOPES } from '../../../core/auth/scopes';
import { hashToken, randomToken } from '../../../core/auth/secrets';
import { badRequest, FieldError, notFound, validationError } from '../../../core/errors';
import { offsetOf, Page, PageArgs, pageOf } from '../../../core/pagination';
import { OAuthClient } from '../entities/oauth-client';
import { OAuthToken } from '../entities/oauth-token';
import { RegisteredOAuthClient, RotatedOAuthClientSecret } from '../types/oauth.types';

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'];
const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];
const MAX_REDIRECT_URIS = 10;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI is refused, or undefined: absolute, `https` (or `http` on a loopback host, for
 * native and development apps), no fragment (RFC 6749 §3.1.2), no user info. Matched exactly later.
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2000) return 'must be an absolute URI of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain user information';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname))) return undefined;
  return 'must use https, or http on a loopback host (localhost, 127.0.0.1, [::1])';
}

/** OAuth clients (RFC 7591 dynamic registration, by an admin). */
export class OAuthClientService {
  constructor(private readonly em: EntityManager) {}

  /**
   * Registers a client. Every bad field is reported (`redirect_uris[1]`, `scope`, ...). Defaults:
   * `grant_types` [authorization_code, refresh_token], `token_endpoint_auth_method`
   * client_secret_basic, `scope` every v1 scope. A public client (`none`) cannot use client_credentials.
   */
  async register(metadata: Record<string, unknown>, caller: Principal): Promise<RegisteredOAuthClient> {
    const errors: FieldError[] = [];
    const { client_name: name, redirect_uris: redirectUris, grant_types: grantTypesGiven, token_endpoint_auth_method: methodGiven, scope: scopeGiven } = metadata;
    if (typeof name !== 'string' || name.trim().length === 0 || name.length > 200) errors.push({ field: 'client_name', message: 'client_name must be a non-empty string of at most 200 characters' });
    const grantTypes = grantTypesGiven === undefined ? ['authorization_code', 'refresh_token'] : grantTypesGiven;
    const method = methodGiven === undefined ? 'client_secret_basic' : methodGiven;
    const scope = scopeGiven === undefined ? API_SCOPES.join(' ') : scopeGiven;
    if (!Array.isArray(grantTypes) || grantTypes.length === 0 || grantTypes.some((grant) => !GRANT_TYPES.includes(grant))) {
      errors.push({ field: 'grant_types', message: `grant_types must be a non-empty array of ${GRANT_TYPES.join(', ')}` });
    }
    if (typeof method !== 'string' || !AUTH_METHODS.includes(method)) errors.push({ field: 'token_endpoint_auth_method', message: `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}` });
    else if (method === 'none' && Array.isArray(grantTypes) && grantTypes.includes('client_credentials')) {
      errors.push({ field: 'grant_types', message: 'a public client (token_endpoint_auth_method none) cannot use client_credentials' });
    }
    const scopes = typeof scope === 'string' ? scope.trim().split(/\s+/) : [];
    if (typeof scope !== 'string' || scopes.length === 0 || scopes.some((item) => !(API_SCOPES as readonly string[]).includes(item))) {
      errors.push({ field: 'scope', message: `scope must be a space-separated list of ${API_SCOPES.join(', ')}` });
    }
    const usesRedirects = !Array.isArray(grantTypes) || grantTypes.includes('authorization_code');
    if (redirectUris === undefined && !usesRedirects) {
      // A client_credentials-only client never redirects.
    } else if (!Array.isArray(redirectUris) || redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS) {
      errors.push({ field: 'redirect_uris', message: `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs` });
    } else {
      redirectUris.forEach((uri, index) => {
        const problem = redirectUriProblem(uri);
        if (problem) errors.push({ field: `redirect_uris[${index}]`, message: `redirect URI ${problem}` });
      });
    }
    if (errors.length > 0) throw validationError(errors, 'Invalid client metadata');

    const confidential = method !== 'none';
    const clientSecret = confidential ? `${OAUTH_CLIENT_SECRET_PREFIX}${randomToken(32)}` : null;
    const client = this.em.create(OAuthClient, {
      clientId: `${OAUTH_CLIENT_ID_PREFIX}${randomToken(18)}`,
      secretHash: clientSecret ? hashToken(clientSecret) : null,
      name: (name as string).trim(),
      redirectUris: [...new Set((redirectUris as string[] | undefined) ?? [])],
      grantTypes: [...new Set(grantTypes as string[])],
      tokenEndpointAuthMethod: method as string,
      scopes: API_SCOPES.filter((item) => scopes.includes(item)),
      createdByKind: caller.kind === 'service' ? 'service' : 'staff',
      createdById: caller.id,
    });
    await this.em.flush();
    return {
      clientId: client.clientId,
      clientSecret,
      clientIdIssuedAt: Math.floor(client.createdAt.getTime() / 1000),
      clientSecretExpiresAt: 0,
      clientName: client.name,
      redirectUris: client.redirectUris,
      grantTypes: client.grantTypes,
      responseTypes: client.grantTypes.includes('authorization_code') ? ['code'] : [],
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
      scope: client.scopes.join(' '),
    };
  }

  /** Every registered client, disabled ones included, newest first. */
  async list(args: PageArgs): Promise<Page<OAuthClient>> {
    const [items, total] = await this.em.findAndCount(OAuthClient, {}, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: args.limit, offset: offsetOf(args) });
    return pageOf(items, total, args);
  }

  /** Disabling revokes every token the client holds, in every process; enabling lets it authenticate again. */
  async setActive(clientId: string, active: boolean): Promise<OAuthClient> {
    return this.em.transactional(async (em) => {
      const client = await this.lockedClient(em, clientId);
      if (active === client.active) return client;
      client.disabledAt = active ? null : new Date();
      await em.flush();
      if (!active) await revokeClientTokens(em, client);
      return client;
    });
  }

  /** Deletes the client with its codes and tokens; tokens exchanged for them stop working in every process. */
  async delete(clientId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const client = await this.lockedClient(em, clientId);
      await revokeClientTokens(em, client);
      await em.nativeDelete(OAuthClient, { id: client.id });
    });
  }

  /**
   * A new secret for a confidential client, shown once: the old one stops working at once (secrets are
   * checked against the database on every call), and the tokens issued to the client are revoked, since
   * a rotation usually answers a leak. A public client has no secret (400).
   */
  async rotateSecret(clientId: string): Promise<RotatedOAuthClientSecret> {
    return this.em.transactional(async (em) => {
      const client = await this.lockedClient(em, clientId);
      if (client.isPublic) throw badRequest('A public client (token_endpoint_auth_method none) has no secret', 'clientId');
      const clientSecret = `${OAUTH_CLIENT_SECRET_PREFIX}${randomToken(32)}`;
      client.secretHash = hashToken(clientSecret);
      await em.flush();
      await revokeClientTokens(em, client);
      return { clientId: client.clientId, clientSecret };
    });
  }

  private async lockedClient(em: EntityManager, clientId: string): Promise<OAuthClient> {
    const client = await em.findOne(OAuthClient, { clientId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!client) throw notFound('OAuth client', clientId);
    return client;
  }
}

/** Revokes every live token of a client, and the platform tokens exchanged for them in every process. */
async function revokeClientTokens(em: EntityManager, client: OAuthClient): Promise<void> {
  await em.nativeUpdate(OAuthToken, { client: client.id, revokedAt: null }, { revokedAt: new Date() });
  await recordRevocation(em, revocationSubject.oauthClient(client.id));
}
