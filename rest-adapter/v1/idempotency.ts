import { IncomingHttpHeaders } from 'node:http';
import { validationError } from '../../core/errors';
import { IDEMPOTENCY_KEY_HEADER } from '../../core/rest/failures';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` of an idempotent v1 POST (Route.idempotent): 1 to 255 visible ASCII
 * characters, or none (the request is then not deduplicated). Anything else is 400 on the header.
 */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const given = headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (given === undefined) return undefined;
  if (typeof given !== 'string' || !KEY.test(given)) {
    throw validationError([{ field: IDEMPOTENCY_KEY_HEADER, message: `${IDEMPOTENCY_KEY_HEADER} is 1 to 255 visible ASCII characters` }]);
  }
  return given;
}
