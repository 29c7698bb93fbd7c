import { GraphQLFormattedError } from 'graphql';
import { ErrorCode, FieldError, STATUS_BY_CODE } from '../core/errors';

/**
 * The service-scoped envelopes of spec Part 1:
 * - `data`: `{statusCode, data: payload}`
 * - `nested`: `{statusCode, data: {message, data: payload}}`
 * - `message`: `{statusCode, data: {message}}`
 * - `dataWithMessage`: `{statusCode, data: payload, message}` (message beside data)
 * - `empty`: no body (204)
 */
export type Envelope = 'data' | 'nested' | 'message' | 'dataWithMessage' | 'empty' | V1Envelope;
/** The version-1 surface's envelopes (rest-adapter/v1/envelope.ts): `{data}` and `{data: [...], pagination}`. */
export type V1Envelope = 'v1' | 'v1List';

export function successBody(envelope: Envelope, statusCode: number, payload: unknown, message: string): unknown {
  switch (envelope) {
    case 'data':
      return { statusCode, data: payload };
    case 'nested':
      return { statusCode, data: { message, data: payload } };
    case 'message':
      return { statusCode, data: { message } };
    case 'dataWithMessage':
      return { statusCode, data: payload, message };
    case 'empty':
      return undefined;
    case 'v1':
    case 'v1List':
      throw new Error('v1 routes answer through rest-adapter/v1/envelope.ts');
  }
}

export interface ErrorBody {
  statusCode: number;
  data: { message: string; errors?: FieldError[]; data?: unknown; error?: string };
}

export function errorBody(statusCode: number, message: string, errors?: FieldError[], data?: unknown, error?: string): ErrorBody {
  return { statusCode, data: { message, ...(errors && errors.length > 0 ? { errors } : {}), ...(data ? { data } : {}), ...(error ? { error } : {}) } };
}

/** The Retry-After header (seconds) of a rate-limited or unavailable (503) error: its `extensions.retryAfter`. */
export function retryAfterOf(error: Pick<GraphQLFormattedError, 'extensions'>): string | undefined {
  const seconds = error.extensions?.retryAfter;
  return RETRY_CODES.has(String(error.extensions?.code)) && typeof seconds === 'number' ? String(Math.max(1, Math.ceil(seconds))) : undefined;
}

const RETRY_CODES = new Set(['RATE_LIMITED', 'UNAVAILABLE']);

const REQUEST_ERROR_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT']);

/** Maps the first GraphQL error of a gateway answer to a status and the error body. */
export function errorFromGraphql(error: GraphQLFormattedError): ErrorBody {
  const code = String(error.extensions?.code ?? 'INTERNAL');
  const status = STATUS_BY_CODE[code as ErrorCode] ?? (REQUEST_ERROR_CODES.has(code) ? 400 : 500);
  if (status >= 500) return errorBody(status, status === 503 ? error.message : 'Internal server error');
  const name = typeof error.extensions?.error === 'string' ? error.extensions.error : undefined;
  return errorBody(status, error.message, error.extensions?.errors as FieldError[] | undefined, error.extensions?.data, name);
}
