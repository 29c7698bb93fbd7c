import { GraphQLFormattedError } from 'graphql';
import { InternalCredential } from '../core/auth/internal-credential';
import { AppError } from '../core/errors';
import { post } from '../core/http-client';
import { REQUEST_ID_HEADER } from '../core/logger';

export interface GatewayResponse {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

/**
 * Runs operations on the gateway over HTTP, forwarding the caller's Bearer token and the request id,
 * and presenting the internal credential: the adapter has rate-limited the caller already.
 */
export class GatewayClient {
  constructor(
    private readonly url: string,
    private readonly internal: InternalCredential,
  ) {}

  async execute(query: string, variables: Record<string, unknown>, authorization: string | undefined, requestId: string): Promise<GatewayResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json', [REQUEST_ID_HEADER]: requestId, ...this.internal.headers() };
    if (authorization) headers.authorization = authorization;
    try {
      const response = await post(this.url, JSON.stringify({ query, variables }), headers);
      return JSON.parse(response.text) as GatewayResponse;
    } catch (error) {
      throw new AppError('UNAVAILABLE', 'Service temporarily unavailable', [], undefined, error);
    }
  }
}
