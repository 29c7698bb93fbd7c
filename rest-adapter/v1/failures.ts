import type { V1PlatformFailure, V1RouteFailure } from '../route';
import { IDEMPOTENCY_KEY_HEADER } from './errors';

/** A route's own v1 failures (Route.v1Failure): undefined keeps the usual mapping. */
export type V1Failure = (failure: V1PlatformFailure) => V1RouteFailure | undefined;

/**
 * A 409 naming a field (a value another record holds) as the route's `code` (`DUPLICATE`), its field
 * errors as details; a 409 naming no field stays `INVALID_STATE`, one on the Idempotency-Key stays
 * `IDEMPOTENCY_KEY_REUSED`.
 */
export const conflictOnField =
  (code: string): V1Failure =>
  ({ status, message, fieldErrors }) =>
    status === 409 && fieldErrors?.length && !fieldErrors.some((error) => error.field === IDEMPOTENCY_KEY_HEADER) ? { status, code, message, fieldErrors } : undefined;

/** A 404 naming one of these fields as its own `_NOT_FOUND` code (`{tierId: 'TIER_NOT_FOUND'}`), instead of the route's `notFound`. */
export const notFoundByField =
  (codes: Record<string, string>): V1Failure =>
  ({ status, message, fieldErrors }) => {
    const code = status === 404 ? fieldErrors?.map((error) => codes[error.field]).find(Boolean) : undefined;
    return code ? { status, code, message } : undefined;
  };
