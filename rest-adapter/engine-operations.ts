import { HEALTH } from './app';
import { OAUTH_OPERATIONS } from './oauth/operations';
import { API_KEY_EXCHANGE } from './v1/api-keys';

/**
 * The documents the adapter's own engine runs on the gateway, besides the domains' routes: the health
 * check, the API key exchange and the OAuth endpoints'. `npm run schema:check` validates each against the supergraph.
 */
export const ENGINE_OPERATIONS: Readonly<Record<string, string>> = { Health: HEALTH, ExchangeApiKey: API_KEY_EXCHANGE, ...OAUTH_OPERATIONS };
