import { GraphQLFormattedError } from 'graphql';
import { AppError } from '../core/errors';
import { post } from '../core/http-client';
import { REQUEST_ID_HEADER } from '../core/logger';

export interface GatewayResponse {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

/** Runs operations on the gateway over HTTP, forwarding the caller's Bearer token and the request id. */
export class GatewayClient {
  constructor(private readonly url: string) {}

  async execute(query: string, variables: Record<string, unknown>, authorization: string | undefined, requestId: string): Promise<GatewayResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json', [REQUEST_ID_HEADER]: requestId };
    if (authorization) headers.authorization = authorization;
    try {
      const response = await post(this.url, JSON.stringify({ query, variables }), headers);
      return JSON.parse(response.text) as GatewayResponse;
    } catch (error) {
      throw new AppError('UNAVAILABLE', 'Service temporarily unavailable', [], undefined, error);
    }
  }
}
