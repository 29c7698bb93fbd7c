import { RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AccessTokens } from '../core/auth/jwt';
import { Config } from '../core/config';
import { errorBody } from './envelope';

const HOUR_SECONDS = 3600;

/**
 * Per-caller rate limits (spec Part 1): the standard tier for staff, members and anonymous callers
 * (keyed by token subject, else by IP), the premium tier for service API keys. Every response carries
 * X-RateLimit-Limit/Remaining/Reset; past the limit, 429 with Retry-After. Leaves the verified
 * principal (or undefined) on `res.locals.principal` for the routes.
 */
export function rateLimit(limits: Config['rateLimit'], tokens: AccessTokens): RequestHandler {
  const standard = new RateLimiterMemory({ points: limits.standardPerHour, duration: HOUR_SECONDS });
  const premium = new RateLimiterMemory({ points: limits.premiumPerHour, duration: HOUR_SECONDS });
  return async (req, res, next) => {
    const principal = await tokens.fromHeader(req.headers.authorization);
    res.locals.principal = principal;
    const isService = principal?.kind === 'service';
    const limiter = isService ? premium : standard;
    const limit = isService ? limits.premiumPerHour : limits.standardPerHour;
    const key = principal ? `${principal.kind}:${principal.id}` : `ip:${req.ip}`;
    try {
      const state = await limiter.consume(key);
      setHeaders(res, limit, state);
      next();
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return next(rejection);
      setHeaders(res, limit, rejection);
      res.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      res.status(429).json(errorBody(429, 'Too many requests: rate limit exceeded'));
    }
  };
}

function setHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.set({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)),
  });
}
