import { AppError } from './errors';
import { Logger } from './logger';

/** Seconds a client is told to wait (Retry-After) when the database cannot be reached. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/**
 * SQLSTATEs that say the database, not the request, failed: connection exceptions (08), the server
 * shutting down or restarting (57P01-57P03), too many connections (53300), a statement cancelled by
 * its deadline (57014), a lock not granted in time (55P03), and serialization failures and deadlocks
 * (40001, 40P01) that outlived their retries.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|57014|55P03|40001|40P01)$/;
/** Node socket errors of a lost or unreachable server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What pg, knex and MikroORM say when a connection is gone, could not be had in time, or a statement outlived its deadline. */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
  /knex: timeout acquiring a connection/i,
  /query read timeout/i,
  /transaction query already complete/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection/i,
  /connection (is )?(closed|ended)/i,
  /cannot use a pool after calling end/i,
  /\b(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)\b/,
];

/** Whether `error` (or what it wraps) says the database could not be reached or answered in time. */
export function isUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  if (error instanceof AppError) return error.code === 'UNAVAILABLE';
  const { code, message, cause, originalError } = error as { code?: unknown; message?: unknown; cause?: unknown; originalError?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || SOCKET_CODES.has(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  return isUnavailable(cause, depth + 1) || isUnavailable(originalError, depth + 1);
}

/** The 503 a request answers when the database cannot serve it: retry after a few seconds. */
export function unavailable(cause?: unknown): AppError {
  const error = new AppError('UNAVAILABLE', 'Service temporarily unavailable: try again shortly', [], undefined, cause);
  Object.assign(error.extensions, { retryAfter: RETRY_AFTER_UNAVAILABLE_SECONDS });
  return error;
}

/** Logs a failure of background work: a warning when the database is unavailable (expected, retried), an error otherwise. */
export function logFailure(logger: Logger, error: unknown, message: string, fields: Record<string, unknown> = {}): void {
  if (isUnavailable(error)) logger.warn({ ...fields, err: error }, `${message}: database unavailable`);
  else logger.error({ ...fields, err: error }, message);
}

/** Whether a GraphQL answer failed because the database was unavailable (its errors carry code UNAVAILABLE). */
export const answeredUnavailable = (result: { errors?: readonly { extensions?: Record<string, unknown> }[] } | undefined): boolean =>
  result?.errors?.some((error) => error.extensions?.code === 'UNAVAILABLE') ?? false;

/**
 * `work`, tried again while it fails because the database is unavailable (a quarter second, doubling to
 * two), for `forMs` at most and until `signal` aborts; any other failure, or the last, is thrown. For
 * what must be recorded once done elsewhere (a webhook the receiver took): recorded late rather than
 * done again.
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, forMs: number, signal?: AbortSignal): Promise<T> {
  const until = Date.now() + forMs;
  for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 2_000)) {
    try {
      return await work();
    } catch (error) {
      if (!isUnavailable(error) || signal?.aborted || Date.now() + waitMs > until) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
