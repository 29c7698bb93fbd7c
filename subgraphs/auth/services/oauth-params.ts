import { EntityManager } from '@mikro-orm/postgresql';
import { timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../../core/auth/secrets';
import { OAuthClient } from '../entities/oauth-client';
import { OAuthErrorAnswer, OAuthParamInput } from '../types/oauth.types';

/** The parameters of one OAuth request by name; names sent more than once are listed apart (RFC 6749 §3.1). */
export interface OAuthParams {
  get(name: string): string | undefined;
  repeated: string[];
}

export function oauthParams(given: OAuthParamInput[]): OAuthParams {
  const values = new Map<string, string>();
  const repeated = new Set<string>();
  for (const { name, value } of given) {
    if (values.has(name)) repeated.add(name);
    else values.set(name, value);
  }
  // An empty value is the same as a missing one (RFC 6749 §3.1).
  return { get: (name) => values.get(name) || undefined, repeated: [...repeated] };
}

export const oauthError = (status: number, error: string, errorDescription: string, basic = false): OAuthErrorAnswer => ({ status, error, errorDescription, basic });

/** A client's credentials as sent: HTTP Basic (RFC 6749 §2.3.1, form-encoded id and secret), or body parameters. */
export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
  basic: boolean;
  malformed?: boolean;
}

export function clientCredentialsOf(params: OAuthParams, authorization: string | undefined): ClientCredentials {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (authorization && !basic) return { basic: true, malformed: true };
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { basic: true, malformed: true };
    try {
      const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
      // An empty password (some libraries send `id:` for public clients) is no secret.
      return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) || undefined, basic: true };
    } catch {
      return { basic: true, malformed: true };
    }
  }
  return { clientId: params.get('client_id'), clientSecret: params.get('client_secret'), basic: false };
}

/** A registered client that is not disabled (a disabled one is unknown to every OAuth endpoint). */
export const findActiveClient = (em: EntityManager, clientId: string): Promise<OAuthClient | null> => em.findOne(OAuthClient, { clientId, disabledAt: null });

/**
 * Whether the credentials authenticate the client: a confidential client by its secret (compared as
 * hashes, in constant time), a public client by its id alone (it has no secret to send).
 */
export function clientAuthenticates(client: OAuthClient, clientSecret: string | undefined): boolean {
  if (client.isPublic || !client.secretHash) return clientSecret === undefined;
  if (clientSecret === undefined) return false;
  return timingSafeEqual(Buffer.from(hashToken(clientSecret)), Buffer.from(client.secretHash));
}

/** The scopes of a space-separated `scope` parameter, or undefined when it is malformed. */
export function parseScope(scope: string): string[] | undefined {
  const scopes = scope.trim().split(/\s+/);
  return scopes.every((item) => /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(item)) ? [...new Set(scopes)] : undefined;
}
