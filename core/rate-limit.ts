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
 * How many requests an instance takes from a caller's shared budget at a time: a hundredth of the
 * limit (at most 1,000), so that a busy caller costs one database write per block instead of one per
 * request, while a small limit is still counted request by request.
 */
export const reservationBlock = (limit: number): number => Math.min(1000, Math.max(1, Math.floor(limit / 100)));

/** Requests this instance has taken from a caller's shared budget and not used yet, until the window ends. */
interface LocalBudget {
  available: number;
  /** What the shared counter had left when this instance last reserved. */
  sharedRemaining: number;
  /** Epoch milliseconds when the caller's window ends. */
  endsAt: number;
  /** The shared counter is spent: every instance refuses the caller until the window ends. */
  exhausted: boolean;
}

/**
 * The most callers an instance keeps budgets for. At the bound, ended budgets are dropped and then the
 * oldest, down to nine tenths (a dropped caller loses the rest of its block, never gains requests).
 */
const MAX_BUDGETS = 100_000;

/**
 * Per-caller hourly limits (spec Part 1) shared by every REST adapter and gateway through PostgreSQL
 * (`edge.rate_limit`): the standard tier for staff, members and anonymous callers (keyed by token
 * subject, else by client IP), the premium tier for service API keys, or the enterprise tier at the limit a key was given. Each instance reserves a block
 * of requests (`reservationBlock`) in one write and serves the caller from it: together the instances
 * never let a caller exceed the limit, and may refuse it up to a block per other instance early.
 * Should the database not answer, each instance falls back to counting in memory rather than
 * refusing or letting everyone through.
 */
export class CallerRateLimiter {
  private readonly budgets = new Map<string, LocalBudget>();

  /** The enterprise tiers: one counter per limit that API keys were given (`rateLimitPerHour`). */
  private readonly enterprise = new Map<number, RateLimiterPostgres>();

  private constructor(
    private readonly pool: Pool,
    private readonly limits: Config['rateLimit'],
    private readonly tier: (keyPrefix: string, points: number) => RateLimiterPostgres,
    private readonly namespace: string,
    private readonly standard = tier(`${namespace}:standard`, limits.standardPerHour),
    private readonly premium = tier(`${namespace}:premium`, limits.premiumPerHour),
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
    return new CallerRateLimiter(pool, limits, tier, namespace);
  }

  /**
   * Counts one request of the caller: its principal when it has a valid token, else its IP. Service
   * principals (API keys) are premium, or enterprise at the limit their key was given.
   */
  async consume(principal: Principal | undefined, ip: string | undefined): Promise<RateLimitDecision> {
    const { limit, limiter, tierName } = this.tierOf(principal);
    // The key names the tier too, so that a key given another limit starts a counter of its own.
    const key = principal ? `${principal.kind}:${principal.id}${tierName === 'enterprise' ? `:${limit}` : ''}` : `ip:${ip ?? 'unknown'}`;
    const budget = this.budgets.get(key);
    if (budget && budget.endsAt > Date.now()) {
      if (budget.available > 0) return this.take(budget, limit);
      if (budget.exhausted) return decision(false, limit, 0, budget.endsAt);
    }
    return this.reserve(key, limit, limiter);
  }

  private tierOf(principal: Principal | undefined): { limit: number; limiter: RateLimiterPostgres; tierName: 'standard' | 'premium' | 'enterprise' } {
    if (principal?.kind !== 'service') return { limit: this.limits.standardPerHour, limiter: this.standard, tierName: 'standard' };
    const own = principal.rateLimitPerHour;
    if (!own) return { limit: this.limits.premiumPerHour, limiter: this.premium, tierName: 'premium' };
    let limiter = this.enterprise.get(own);
    if (!limiter) {
      limiter = this.tier(`${this.namespace}:enterprise:${own}`, own);
      this.enterprise.set(own, limiter);
    }
    return { limit: own, limiter, tierName: 'enterprise' };
  }

  /** Takes a block from the shared counter; what the counter had left of it (at least one) becomes the local budget. */
  private async reserve(key: string, limit: number, limiter: RateLimiterPostgres): Promise<RateLimitDecision> {
    const block = reservationBlock(limit);
    let state: RateLimiterRes;
    try {
      state = await limiter.consume(key, block);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      state = rejection;
    }
    const granted = Math.min(block, Math.max(0, limit - (state.consumedPoints - block)));
    const endsAt = Date.now() + state.msBeforeNext;
    const current = this.budgets.get(key);
    // Concurrent reservations of one caller pool their blocks while the window is the same.
    const sameWindow = current !== undefined && Math.abs(current.endsAt - endsAt) < 1000;
    const available = (sameWindow ? current.available : 0) + granted;
    const budget: LocalBudget = { available, sharedRemaining: Math.max(0, state.remainingPoints), endsAt, exhausted: granted < block };
    if (!current && this.budgets.size >= MAX_BUDGETS) this.evict();
    this.budgets.set(key, budget);
    return available > 0 ? this.take(budget, limit) : decision(false, limit, 0, endsAt);
  }

  private take(budget: LocalBudget, limit: number): RateLimitDecision {
    budget.available -= 1;
    return decision(true, limit, budget.sharedRemaining + budget.available, budget.endsAt);
  }

  private evict(): void {
    const now = Date.now();
    for (const [key, budget] of this.budgets) if (budget.endsAt <= now) this.budgets.delete(key);
    for (const key of this.budgets.keys()) {
      if (this.budgets.size <= MAX_BUDGETS * 0.9) break;
      this.budgets.delete(key);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

function decision(allowed: boolean, limit: number, remaining: number, endsAt: number): RateLimitDecision {
  const msBeforeNext = Math.max(0, endsAt - Date.now());
  return {
    allowed,
    limit,
    remaining: Math.max(0, remaining),
    resetAt: Math.ceil(endsAt / 1000),
    retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)),
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
