import { Request, Response } from 'express';
import { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AccessTokens } from './auth/jwt';
import { Principal } from './auth/principal';
import { Config } from './config';
import { withAdvisoryLock } from './db/orm';
import { rateLimitRefusals } from './metrics';

const WINDOW_MS = 3_600_000;
const TABLE = 'edge.rate_limit';
/** A statement of the shared counter that takes longer than this is given up: the requests are counted in memory. */
const DATABASE_TIMEOUT_MS = 2_000;
/** How often ended windows are deleted from the shared counter. */
const PRUNE_EVERY_MS = 5 * 60_000;
/** The most spent callers an instance remembers; at the bound, ended ones are dropped, then the oldest. */
const MAX_SPENT = 100_000;

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

/** Where a request stands in its caller's window: its number in the window and the time left. */
interface Count {
  count: number;
  msLeft: number;
}

interface Waiter {
  resolve: (count: Count) => void;
  reject: (error: unknown) => void;
}

/**
 * Adds each request to its caller's row of `edge.rate_limit` (hourly windows on the database's clock)
 * in one atomic statement. Requests that arrive while a statement runs wait for the next, which
 * counts all of them, for every caller at once; each request gets its own number in its caller's
 * window, so consecutive requests of a caller, whichever instance serves them, count one by one.
 */
const COUNT_SQL = `
  with clock as (select (extract(epoch from statement_timestamp()) * 1000)::bigint as now)
  insert into ${TABLE} as counter (key, points, expire)
  select request.key, request.n, clock.now + ${WINDOW_MS} from unnest($1::varchar[], $2::int[]) as request(key, n), clock
  on conflict (key) do update set
    points = case when counter.expire <= excluded.expire - ${WINDOW_MS} then excluded.points else counter.points + excluded.points end,
    expire = case when counter.expire <= excluded.expire - ${WINDOW_MS} then excluded.expire else counter.expire end
  returning counter.key, counter.points, counter.expire - (select now from clock) as ms_left`;

class SharedCounter {
  private queued = new Map<string, Waiter[]>();
  private running = false;

  constructor(private readonly pool: Pool) {}

  count(key: string): Promise<Count> {
    return new Promise((resolve, reject) => {
      const waiting = this.queued.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.queued.set(key, [{ resolve, reject }]);
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queued.size > 0) {
      const round = this.queued;
      this.queued = new Map();
      // Rows are locked in key order, so that two instances counting the same callers never deadlock.
      const keys = [...round.keys()].sort();
      try {
        const { rows } = await this.pool.query({ name: 'rate-limit-count', text: COUNT_SQL, values: [keys, keys.map((key) => round.get(key)!.length)] });
        for (const row of rows as Array<{ key: string; points: number; ms_left: string }>) {
          const waiters = round.get(row.key)!;
          round.delete(row.key);
          const first = row.points - waiters.length + 1;
          waiters.forEach((waiter, index) => waiter.resolve({ count: first + index, msLeft: Number(row.ms_left) }));
        }
        if (round.size > 0) throw new Error('the rate-limit statement did not count every caller');
      } catch (error) {
        for (const waiters of round.values()) for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.running = false;
  }
}

/**
 * Per-caller hourly limits (spec Part 1) shared by every REST adapter and gateway through PostgreSQL
 * (`edge.rate_limit`, unlogged: counters need no crash safety): the standard tier for staff, members
 * and anonymous callers (keyed by token subject, else by client IP), the premium tier for service API
 * keys, or the enterprise tier at the limit a key was given. Every request is counted in the shared
 * row before it is answered, so X-RateLimit-Remaining falls by one with each request of a caller,
 * whichever instance answers it. A spent caller is refused from memory, without a statement, until
 * its window ends. Should the database not answer, the instance counts in memory meanwhile rather than
 * refusing everyone or letting everyone through.
 */
export class CallerRateLimiter {
  private readonly counter: SharedCounter;
  /** Spent callers and when their window ends (epoch ms). */
  private readonly spent = new Map<string, number>();
  /** The counters used while the database does not answer, one per limit. */
  private readonly fallbacks = new Map<number, RateLimiterMemory>();
  private readonly pruning: NodeJS.Timeout;

  private constructor(
    private readonly pool: Pool,
    private readonly limits: Config['rateLimit'],
    private readonly namespace: string,
  ) {
    this.counter = new SharedCounter(pool);
    const prune = `delete from ${TABLE} where expire < (extract(epoch from statement_timestamp()) * 1000)::bigint`;
    this.pruning = setInterval(() => void pool.query(prune).catch(() => undefined), PRUNE_EVERY_MS);
    this.pruning.unref();
  }

  /** `namespace` separates counters of platforms that share a database but must not share budgets (tests). */
  static async open(databaseUrl: string, limits: Config['rateLimit'], namespace = 'caller'): Promise<CallerRateLimiter> {
    await withAdvisoryLock(databaseUrl, 'migrate:edge', async (client) => {
      await client.query('create schema if not exists edge');
      await client.query(`create unlogged table if not exists ${TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`);
      // Created logged by earlier versions: a counter needs no WAL (no crash safety, no replicas).
      const { rows } = await client.query(`select relpersistence from pg_class where oid = '${TABLE}'::regclass`);
      if (rows[0].relpersistence === 'p') await client.query(`alter table ${TABLE} set unlogged`);
    });
    // The server gives a statement up first (nothing counted late), the client shortly after should the server not answer at all.
    const pool = new Pool({ connectionString: databaseUrl, max: 2, connectionTimeoutMillis: DATABASE_TIMEOUT_MS, statement_timeout: DATABASE_TIMEOUT_MS, query_timeout: DATABASE_TIMEOUT_MS + 500 });
    // A lost idle connection: the next statement fails over to memory.
    pool.on('error', () => undefined);
    return new CallerRateLimiter(pool, limits, namespace);
  }

  /**
   * Counts one request of the caller: its principal when it has a valid token, else its IP. Service
   * principals (API keys) are premium, or enterprise at the limit their key was given.
   */
  async consume(principal: Principal | undefined, ip: string | undefined): Promise<RateLimitDecision> {
    const { limit, key, tier } = this.callerOf(principal, ip);
    const spentUntil = this.spent.get(key);
    if (spentUntil !== undefined) {
      if (spentUntil > Date.now()) return refusal(tier, limit, spentUntil);
      this.spent.delete(key);
    }
    const { count, msLeft } = await this.counter.count(key).catch(() => this.countInMemory(key, limit));
    const endsAt = Date.now() + msLeft;
    if (count <= limit) return decision(true, limit, limit - count, endsAt);
    this.rememberSpent(key, endsAt);
    return refusal(tier, limit, endsAt);
  }

  /** The caller's limit and counter key; the key names the tier, so that a key given another limit starts a counter of its own. */
  private callerOf(principal: Principal | undefined, ip: string | undefined): { limit: number; key: string; tier: string } {
    if (!principal) return { limit: this.limits.standardPerHour, key: `${this.namespace}:standard:ip:${ip ?? 'unknown'}`, tier: 'standard' };
    const caller = `${principal.kind}:${principal.id}`;
    if (principal.kind !== 'service') return { limit: this.limits.standardPerHour, key: `${this.namespace}:standard:${caller}`, tier: 'standard' };
    const own = principal.rateLimitPerHour;
    if (!own) return { limit: this.limits.premiumPerHour, key: `${this.namespace}:premium:${caller}`, tier: 'premium' };
    return { limit: own, key: `${this.namespace}:enterprise:${own}:${caller}:${own}`, tier: 'enterprise' };
  }

  private async countInMemory(key: string, limit: number): Promise<Count> {
    let fallback = this.fallbacks.get(limit);
    if (!fallback) {
      fallback = new RateLimiterMemory({ points: limit, duration: WINDOW_MS / 1000 });
      this.fallbacks.set(limit, fallback);
    }
    const state: RateLimiterRes = await fallback.consume(key).catch((refused: RateLimiterRes) => refused);
    return { count: state.consumedPoints, msLeft: state.msBeforeNext };
  }

  private rememberSpent(key: string, endsAt: number): void {
    if (this.spent.size >= MAX_SPENT) {
      const now = Date.now();
      for (const [spentKey, until] of this.spent) if (until <= now) this.spent.delete(spentKey);
      for (const spentKey of this.spent.keys()) {
        if (this.spent.size < MAX_SPENT * 0.9) break;
        this.spent.delete(spentKey);
      }
    }
    this.spent.set(key, endsAt);
  }

  close(): Promise<void> {
    clearInterval(this.pruning);
    return this.pool.end();
  }
}

/** A refusal, counted (`rate_limit_refusals_total`). */
function refusal(tier: string, limit: number, endsAt: number): RateLimitDecision {
  rateLimitRefusals.inc({ tier });
  return decision(false, limit, 0, endsAt);
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
 * express sees it through TRUST_PROXY; always the IP when `byAddress`, for requests that check a
 * secret or issue a credential, so that no token raises the budget of guessing) and sets the rate
 * headers. Leaves the principal on `res.locals.principal`; resolves whether the request may go on.
 */
export async function limitRequest(limiter: CallerRateLimiter, tokens: AccessTokens, req: Request, res: Response, byAddress = false): Promise<boolean> {
  const principal = await tokens.fromHeader(req.headers.authorization);
  res.locals.principal = principal;
  const state = await limiter.consume(byAddress ? undefined : principal, req.ip);
  setRateLimitHeaders(res, state);
  return state.allowed;
}
