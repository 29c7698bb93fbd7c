import { Principal } from './principal';

/** What every part knows of the OAuth 2.0 authorization server (contract section 3). */

/** Opaque OAuth access tokens start with this; the REST adapter exchanges them for platform tokens. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'lpo_at_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'lpo_rt_';
export const OAUTH_CLIENT_ID_PREFIX = 'lpc_';
export const OAUTH_CLIENT_SECRET_PREFIX = 'lpcs_';
/** Authorization codes live at most ten minutes (contract section 3). */
export const OAUTH_CODE_TTL_SECONDS = 600;
export const OAUTH_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** The issuer identifier (RFC 8414, RFC 9207 `iss`): PUBLIC_URL without a trailing slash. */
export const oauthIssuerOf = (publicUrl: string): string => publicUrl.replace(/\/+$/, '');

/**
 * The REST adapter acting as itself when it exchanges an OAuth access token: only this identity may
 * (the platform token it gets back carries the user's role permissions, which the subgraphs check,
 * while the OAuth scopes are enforced by the adapter's v1 routes; it must never reach a client).
 */
export const OAUTH_EXCHANGE_PERMISSION = 'oauth:exchange';
export const REST_ADAPTER_PRINCIPAL = new Principal('service', 'internal:rest-adapter', 'internal', [OAUTH_EXCHANGE_PERMISSION]);
export const mayExchangeOAuthTokens = (caller: Principal): boolean =>
  caller.kind === 'service' && caller.id === REST_ADAPTER_PRINCIPAL.id && caller.permissions.includes(OAUTH_EXCHANGE_PERMISSION);
