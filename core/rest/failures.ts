import type { V1PlatformFailure, V1RouteFailure } from './route';
import { snakeCase } from './case';

/** The header of idempotent v1 POSTs, as field errors name it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** v1 error codes by status, each with when it is answered (`{422: {CAMPAIGN_FULL: 'max_uses completions reached'}}`). */
export type V1ErrorCodes = Record<number, Record<string, string>>;

/**
 * A route's own v1 failures (Route.v1Failure): undefined keeps the usual mapping. `codes` are those it
 * answers, for the OpenAPI description; a code that depends on the route (a business rule) is the
 * route's to declare (`doc.errors`).
 */
export interface V1Failure {
  (failure: V1PlatformFailure): V1RouteFailure | undefined;
  readonly codes: V1ErrorCodes;
}

/** A route's own failures answered by `answer`, which answers only `codes`. */
export const declaredFailure = (codes: V1ErrorCodes, answer: (failure: V1PlatformFailure) => V1RouteFailure | undefined): V1Failure => Object.assign(answer, { codes });

/**
 * A 409 naming a field (a value another record holds) as the route's `code` (`DUPLICATE`), its field
 * errors as details; a 409 naming no field stays `INVALID_STATE`, one on the Idempotency-Key stays
 * `IDEMPOTENCY_KEY_REUSED`.
 */
export const conflictOnField = (code: string): V1Failure =>
  declaredFailure({ 409: { [code]: 'a value another record holds (`details` names the field)' } }, ({ status, message, fieldErrors }) =>
    status === 409 && fieldErrors?.length && !fieldErrors.some((error) => error.field === IDEMPOTENCY_KEY_HEADER) ? { status, code, message, fieldErrors } : undefined,
  );

/** A 404 naming one of these fields as its own `_NOT_FOUND` code (`{tierId: 'TIER_NOT_FOUND'}`), instead of the route's `notFound`. */
export const notFoundByField = (codes: Record<string, string>): V1Failure =>
  declaredFailure({ 404: Object.fromEntries(Object.entries(codes).map(([field, code]) => [code, `nothing by that ${snakeCase(field)}`])) }, ({ status, message, fieldErrors }) => {
    const code = status === 404 ? fieldErrors?.map((error) => codes[error.field]).find(Boolean) : undefined;
    return code ? { status, code, message } : undefined;
  });
