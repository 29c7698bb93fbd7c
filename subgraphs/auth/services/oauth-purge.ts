import { EntityManager } from '@mikro-orm/postgresql';
import { OAuthAuthorizationCode } from '../entities/oauth-authorization-code';
import { OAuthToken } from '../entities/oauth-token';

/** The queue of the daily purge of spent OAuth records. */
export const OAUTH_PURGE_QUEUE = 'auth.oauth-purge';
/** Records are kept a day past their expiry (a late retry still meets a clear invalid_grant, and reuse detection). */
const KEPT_PAST_EXPIRY_MS = 24 * 3600 * 1000;

/**
 * Deletes authorization codes and token rows that can no longer be used: codes a day past their
 * expiry, and token rows a day past the expiry of the longest-lived token they hold (the refresh
 * token, else the access token). Live rows of a family are untouched.
 */
export async function purgeOAuthRecords(em: EntityManager): Promise<{ codes: number; tokens: number }> {
  const before = new Date(Date.now() - KEPT_PAST_EXPIRY_MS);
  const codes = await em.nativeDelete(OAuthAuthorizationCode, { expiresAt: { $lt: before } });
  const tokens = await em.nativeDelete(OAuthToken, {
    $or: [{ refreshExpiresAt: { $lt: before } }, { refreshExpiresAt: null, accessExpiresAt: { $lt: before } }],
  });
  return { codes, tokens };
}
