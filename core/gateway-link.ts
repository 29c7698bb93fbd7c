import { InternalCredential } from './auth/internal-credential';
import { Config } from './config';
import { AppError } from './errors';
import { GraphqlAnswer, OperationExecutor, VALIDATE_ONLY_HEADER } from './graphql-http';
import { post } from './http-client';
import { REQUEST_ID_HEADER } from './logger';

/**
 * Runs operations on the gateway over HTTP (when the gateway runs apart), forwarding the caller's
 * Bearer token and the request id, and presenting the internal credential: the caller (the REST
 * adapter, or a domain calling the supergraph) has rate-limited its own caller already.
 */
export function gatewayOverHttp(url: string, internal: InternalCredential): OperationExecutor {
  return async (operation, caller) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', [REQUEST_ID_HEADER]: caller.requestId, ...internal.headers() };
    if (caller.authorization) headers.authorization = caller.authorization;
    if (caller.validateOnly) headers[VALIDATE_ONLY_HEADER] = 'true';
    try {
      const response = await post(url, JSON.stringify(operation), headers);
      return JSON.parse(response.text) as GraphqlAnswer;
    } catch (error) {
      throw new AppError('UNAVAILABLE', 'Service temporarily unavailable', [], undefined, error);
    }
  };
}

/** How a domain reaches the gateway: an executor, and `bind` to point it at the gateway once that runs. */
export interface GatewayLink {
  execute: OperationExecutor;
  bind: (gateway: OperationExecutor) => void;
}

/**
 * The gateway as a domain calls it (another domain's fields and mutations, through the supergraph as any
 * client): GATEWAY_URL over HTTP with the internal credential, until `bind` names another executor. A
 * platform that starts its domains before its gateway binds the link once the gateway runs (in-process
 * or at the port it took).
 */
export function gatewayLink(config: Pick<Config, 'gatewayUrl' | 'internalSecret'>): GatewayLink {
  let target = gatewayOverHttp(config.gatewayUrl, new InternalCredential(config.internalSecret));
  return {
    execute: (operation, caller) => target(operation, caller),
    bind: (gateway) => void (target = gateway),
  };
}
