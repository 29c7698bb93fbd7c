import { Request, Response } from 'express';
import { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AccessTokens } from './auth/jwt';
import { Principal } from './auth/principal';
import { Config } from './config';
import { withAdvisoryLock } from './db/orm';

const HOUR_SECONDS = 3600;
const SCHEMA = 'edge';
const TABLE = 'rate_limit';

/** One caller's standing after a request: what the X-RateLimit-* headers and a 429 say. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  /** Seconds until a refused caller may try again. */
  retryAfter: number;
}

/**
 * Per-caller hourly limits (spec Part 1) shared by every REST adapter and gateway through PostgreSQL
 * (`edge.rate_limit`): the standard tier for staff, members and anonymous callers (keyed by token
 * subject, else by client IP), the premium tier for service API keys. Should the database not answer,
 * each instance falls back to counting in memory rather than refusing or letting everyone through.
 */
export class CallerRateLimiter {
  private constructor(
    private readonly pool: Pool,
    private readonly limits: Config['rateLimit'],
    private readonly standard: RateLimiterPostgres,
    private readonly premium: RateLimiterPostgres,
  ) {}

  /** `namespace` separates counters of platforms that share a database but must not share budgets (tests). */
  static async open(databaseUrl: string, limits: Config['rateLimit'], namespace = 'caller'): Promise<CallerRateLimiter> {
    await withAdvisoryLock(databaseUrl, `migrate:${SCHEMA}`, async (client) => {
      await client.query(`create schema if not exists ${SCHEMA}`);
      await client.query(`create table if not exists ${SCHEMA}.${TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`);
    });
    const pool = new Pool({ connectionString: databaseUrl, max: 4 });
    const tier = (keyPrefix: string, points: number) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        schemaName: SCHEMA,
        tableName: TABLE,
        tableCreated: true,
        keyPrefix,
        points,
        duration: HOUR_SECONDS,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: HOUR_SECONDS }),
      });
    return new CallerRateLimiter(pool, limits, tier(`${namespace}:standard`, limits.standardPerHour), tier(`${namespace}:premium`, limits.premiumPerHour));
  }

  /** Counts one request of the caller: its principal when it has a valid token, else its IP. */
  async consume(principal: Principal | undefined, ip: string | undefined): Promise<RateLimitDecision> {
    const isService = principal?.kind === 'service';
    const limiter = isService ? this.premium : this.standard;
    const limit = isService ? this.limits.premiumPerHour : this.limits.standardPerHour;
    const key = principal ? `${principal.kind}:${principal.id}` : `ip:${ip ?? 'unknown'}`;
    try {
      return decision(true, limit, await limiter.consume(key));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
      throw rejection;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

function decision(allowed: boolean, limit: number, state: RateLimiterRes): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, state.remainingPoints),
    resetAt: Math.ceil((Date.now() + state.msBeforeNext) / 1000),
    retryAfter: Math.max(1, Math.ceil(state.msBeforeNext / 1000)),
  };
}

/** X-RateLimit-Limit/Remaining/Reset on every answer, and Retry-After on a refusal. */
export function setRateLimitHeaders(res: Response, state: RateLimitDecision): void {
  res.set({ 'X-RateLimit-Limit': String(state.limit), 'X-RateLimit-Remaining': String(state.remaining), 'X-RateLimit-Reset': String(state.resetAt) });
  if (!state.allowed) res.set('Retry-After', String(state.retryAfter));
}

/**
 * Counts a request against its caller (the verified Bearer token's subject, else the client IP as
 * express sees it through TRUST_PROXY) and sets the rate headers. Leaves the principal on
 * `res.locals.principal`; resolves whether the request may go on.
 */
export async function limitRequest(limiter: CallerRateLimiter, tokens: AccessTokens, req: Request, res: Response): Promise<boolean> {
  const principal = await tokens.fromHeader(req.headers.authorization);
  res.locals.principal = principal;
  const state = await limiter.consume(principal, req.ip);
  setRateLimitHeaders(res, state);
  return state.allowed;
}
