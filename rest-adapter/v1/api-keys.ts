import { RequestHandler } from 'express';
import { answeredUnavailable, unavailable } from '../../core/unavailable';
import { createHash } from 'node:crypto';
import { OperationExecutor } from '../../core/graphql-http';

const API_KEY = /^lpk_[A-Za-z0-9_-]{8,512}$/;
/**
 * How long an exchanged key's token is reused. A revoked key stops working at once all the same: its
 * revocation voids the tokens made from it in every process (core/auth/revocations.ts).
 */
const REUSE_MS = 60_000;
const KEPT = 10_000;

export const API_KEY_EXCHANGE = 'mutation ExchangeApiKey($apiKey: String!) { exchangeApiKey(apiKey: $apiKey) { accessToken expiresIn } }';

/**
 * API keys on /api/v1 (contract section 2): `Authorization: Bearer lpk_...` or `X-API-Key: lpk_...`.
 * The key is exchanged (auth subgraph) for the service access token it stands for, and the request goes
 * on with that token, so rate limits, scopes and the subgraphs' checks see a service caller. A key that
 * does not exchange leaves the request without a credential (401). Exchanges are reused for a minute.
 */
export function apiKeyCredential(gateway: OperationExecutor): RequestHandler {
  const exchanged = new Map<string, { authorization: string | undefined; until: number }>();
  return async (req, res, next) => {
    try {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const header = req.get('x-api-key');
      const apiKey = bearer?.startsWith('lpk_') ? bearer : !req.headers.authorization && header ? header.trim() : undefined;
      if (apiKey === undefined) return next();
      const hash = createHash('sha256').update(apiKey).digest('hex');
      let known = exchanged.get(hash);
      if (!known || known.until <= Date.now()) {
        const result = API_KEY.test(apiKey) ? await gateway({ query: API_KEY_EXCHANGE, variables: { apiKey } }, { requestId: res.locals.requestId }) : undefined;
        const token = (result?.data as { exchangeApiKey?: { accessToken?: string } } | undefined)?.exchangeApiKey?.accessToken;
        known = { authorization: token ? `Bearer ${token}` : undefined, until: Date.now() + REUSE_MS };
        // An outage is neither a token nor a refusal: the request answers 503 rather than go on unauthenticated.
        if (!token && answeredUnavailable(result)) throw unavailable();
        // A refusal is remembered as well as a token; an outage (no answer about the key) is not.
        const refused = !result || result.errors?.some((error) => error.extensions?.code === 'UNAUTHENTICATED' || error.extensions?.code === 'VALIDATION');
        if (exchanged.size >= KEPT) exchanged.delete(exchanged.keys().next().value!);
        if (token || refused) exchanged.set(hash, known);
      }
      if (known.authorization) req.headers.authorization = known.authorization;
      else delete req.headers.authorization;
      next();
    } catch (error) {
      next(error);
    }
  };
}
