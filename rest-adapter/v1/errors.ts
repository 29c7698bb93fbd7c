import { Response } from 'express';
import { FieldError } from '../../core/errors';
import { IDEMPOTENCY_KEY_HEADER } from '../../core/rest/failures';
import { v1FieldPath } from '../../core/rest/case';

/** The v1 error body: `{error: {code, message, details?}}` (contract section 1). */
export interface V1ErrorBody {
  error: { code: string; message: string; details?: FieldError[] };
}

export function v1ErrorBody(code: string, message: string, details?: FieldError[]): V1ErrorBody {
  return { error: { code, message, ...(details && details.length > 0 ? { details: details.map(({ field, message }) => ({ field: v1FieldPath(field), message })) } : {}) } };
}


/** What a v1 route answers for a platform error, given the `_NOT_FOUND` code of the thing it serves. */
export function v1ErrorOf(status: number, message: string, fieldErrors: FieldError[] | undefined, notFoundCode = 'NOT_FOUND'): V1ErrorBody {
  if (status === 400) return v1ErrorBody('VALIDATION_ERROR', message, fieldErrors);
  if (status === 404) return v1ErrorBody(notFoundCode, message);
  if (status === 409 && fieldErrors?.some((error) => error.field === IDEMPOTENCY_KEY_HEADER)) return v1ErrorBody('IDEMPOTENCY_KEY_REUSED', message);
  if (status === 409) return v1ErrorBody('INVALID_STATE', message, fieldErrors);
  if (status === 429) return v1ErrorBody('RATE_LIMITED', message);
  if (status === 503) return v1ErrorBody('SERVICE_UNAVAILABLE', message);
  return v1ErrorBody('INTERNAL_ERROR', 'Internal server error');
}

/** 401 in the OAuth form (RFC 6750): no credential, or one that is invalid or expired. */
export function answerInvalidToken(res: Response, description = 'The access token is missing, invalid or expired'): void {
  res.set('WWW-Authenticate', 'Bearer error="invalid_token"');
  res.status(401).json({ error: 'invalid_token', error_description: description });
}

/** 403 in the OAuth form (RFC 6750): the credential lacks the scope (or role) the route needs. */
export function answerInsufficientScope(res: Response, scope: string, description = `This request needs the "${scope}" scope`): void {
  res.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${scope}"`);
  res.status(403).json({ error: 'insufficient_scope', error_description: description });
}
