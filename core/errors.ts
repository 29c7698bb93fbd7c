import { GraphQLError } from 'graphql';

/** Stable error codes, shared by every subgraph and mapped to HTTP statuses by the REST adapter. */
export type ErrorCode =
  | 'VALIDATION'
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export interface FieldError {
  field: string;
  message: string;
}

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/**
 * A domain error: a code, a message a client may read, field errors, optional payload (`data.data`)
 * and an optional error name (`data.error`, such as 'Not Found', which some spec bodies show).
 */
export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly payload?: Record<string, unknown>,
    cause?: unknown,
    readonly errorName?: string,
  ) {
    super(message, {
      originalError: cause instanceof Error ? cause : undefined,
      extensions: {
        code,
        ...(fieldErrors.length > 0 ? { errors: fieldErrors } : {}),
        ...(payload ? { data: payload } : {}),
        ...(errorName ? { error: errorName } : {}),
      },
    });
  }
}

export const validationError = (errors: FieldError[], message = 'Validation failed') =>
  new AppError('VALIDATION', message, errors);
export const badRequest = (message: string, field?: string) =>
  new AppError('BAD_REQUEST', message, field ? [{ field, message }] : []);
export const unauthenticated = (message = 'Unauthorized') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'Forbidden: insufficient permissions') => new AppError('FORBIDDEN', message);
/** A 404 that names what was not found (`extensions.entity`: `Member`), so that a surface can answer it by entity. */
export function notFound(what: string, id?: string): AppError {
  const error = new AppError('NOT_FOUND', `${what} not found`, [], id ? { id } : undefined);
  Object.assign(error.extensions, { entity: what });
  return error;
}
/**
 * A business rule's refusal with its stable reason code (`extensions.reason`: `NO_AVAILABILITY`), which a
 * surface answers as its own code: the message stays for people, the reason is for programs.
 */
export function refusal(code: ErrorCode, reason: string, message: string, payload?: Record<string, unknown>): AppError {
  const error = new AppError(code, message, [], payload);
  Object.assign(error.extensions, { reason });
  return error;
}
/** A 404 whose body also carries `data.error: 'Not Found'`. */
export function notFoundNamed(what: string): AppError {
  const error = new AppError('NOT_FOUND', `${what} not found`, [], undefined, undefined, 'Not Found');
  Object.assign(error.extensions, { entity: what });
  return error;
}
export const conflict = (message: string, field?: string) =>
  new AppError('CONFLICT', message, field ? [{ field, message }] : []);

/** A 429 whose `extensions.retryAfter` (seconds) the REST adapter sends as the Retry-After header. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super('RATE_LIMITED', message);
    Object.assign(this.extensions, { retryAfter });
  }
}
