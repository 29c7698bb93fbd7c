import { InternalCredential } from '../core/auth/internal-credential';
import { AppError } from '../core/errors';
import { GraphqlAnswer, OperationExecutor } from '../core/graphql-http';
import { post } from '../core/http-client';
import { REQUEST_ID_HEADER } from '../core/logger';

/**
 * Runs operations on the gateway over HTTP (when the gateway runs apart), forwarding the caller's
 * Bearer token and the request id, and presenting the internal credential: the adapter has
 * rate-limited the caller already.
 */
export function gatewayOverHttp(url: string, internal: InternalCredential): OperationExecutor {
  return async (operation, caller) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', [REQUEST_ID_HEADER]: caller.requestId, ...internal.headers() };
    if (caller.authorization) headers.authorization = caller.authorization;
    try {
      const response = await post(url, JSON.stringify(operation), headers);
      return JSON.parse(response.text) as GraphqlAnswer;
    } catch (error) {
      throw new AppError('UNAVAILABLE', 'Service temporarily unavailable', [], undefined, error);
    }
  };
}
