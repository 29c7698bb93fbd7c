import { RequestHandler } from 'express';
import { answeredUnavailable, unavailable } from '../../core/unavailable';
import { createHash } from 'node:crypto';
import { AccessTokens } from '../../core/auth/jwt';
import { OAUTH_ACCESS_TOKEN_PREFIX, REST_ADAPTER_PRINCIPAL } from '../../core/auth/oauth';
import { ServiceIdentity } from '../../core/auth/service-identity';
import { OperationExecutor } from '../../core/graphql-http';
import { OAUTH_OPERATIONS } from './operations';

/**
 * How long an exchange is reused. A revoked token stops working at once all the same: the platform token
 * it was exchanged for names its family and client, which revocations void in every process.
 */
const REUSE_MS = 30_000;
const KEPT = 10_000;
const TOKEN = /^lpo_at_[A-Za-z0-9_-]{16,256}$/;

/**
 * OAuth access tokens as Bearer credentials (contract section 2 item 4). The opaque token is exchanged
 * (auth subgraph) for the platform token of its user, carrying the granted scopes narrowed to the
 * user's role; the request goes on with that token, so rate limits, v1 scopes and the subgraphs'
 * checks see it. A token that does not exchange (unknown, expired, revoked) leaves the request without
 * a credential (401). Exchanges are reused for 30 s (the platform token they hold is revoked with them).
 */
export class OAuthAccessTokenCredentials {
  private readonly exchanged = new Map<string, { authorization: string | undefined; until: number }>();

  private readonly identity: ServiceIdentity;

  constructor(
    private readonly gateway: OperationExecutor,
    jwtSecret: string,
  ) {
    this.identity = new ServiceIdentity(new AccessTokens(jwtSecret), REST_ADAPTER_PRINCIPAL);
  }

  readonly middleware: RequestHandler = async (req, res, next) => {
    try {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer?.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) return next();
      const hash = createHash('sha256').update(bearer).digest('hex');
      let known = this.exchanged.get(hash);
      if (!known || known.until <= Date.now()) {
        const result = TOKEN.test(bearer)
          ? await this.gateway({ query: OAUTH_OPERATIONS.ExchangeOAuthAccessToken, variables: { accessToken: bearer } }, { authorization: await this.identity.authorization(), requestId: res.locals.requestId })
          : undefined;
        const answer = (result?.data as { exchangeOAuthAccessToken?: { accessToken?: string; expiresIn?: number } } | undefined)?.exchangeOAuthAccessToken;
        const reuse = Math.min(REUSE_MS, Math.max(0, ((answer?.expiresIn ?? 0) - 5) * 1000));
        known = { authorization: answer?.accessToken ? `Bearer ${answer.accessToken}` : undefined, until: Date.now() + (answer?.accessToken ? reuse : REUSE_MS) };
        // An outage is neither a token nor a refusal: the request answers 503 rather than go on unauthenticated.
        if (!answer?.accessToken && answeredUnavailable(result)) throw unavailable();
        // A refusal of the token is remembered as well as a token; an outage (no answer about the token) is not.
        const refused = !result || result.errors?.some((error) => error.extensions?.code === 'UNAUTHENTICATED' || error.extensions?.code === 'VALIDATION');
        if (this.exchanged.size >= KEPT) this.exchanged.delete(this.exchanged.keys().next().value!);
        if (answer?.accessToken || refused) this.exchanged.set(hash, known);
      }
      if (known.authorization) req.headers.authorization = known.authorization;
      else delete req.headers.authorization;
      next();
    } catch (error) {
      next(error);
    }
  };
}
