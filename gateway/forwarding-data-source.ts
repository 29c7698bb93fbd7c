import { GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import type { FetcherResponse } from '@apollo/utils.fetcher';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { postFetch } from '../core/http-client';
import { REQUEST_ID_HEADER } from '../core/logger';

export interface GatewayContext {
  authorization?: string;
  requestId: string;
}

/**
 * Sends the caller's credentials and request id on to every subgraph, over keep-alive connections
 * (the default make-fetch-happen fetcher measured about half as fast).
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(config: { url: string }) {
    super({ ...config, fetcher: postFetch as never });
  }

  /**
   * A subgraph answers a request it refuses (a variable its schema cannot coerce) with HTTP 400 and
   * GraphQL errors: pass its first error on as it is instead of a generic upstream failure.
   */
  async errorFromResponse(response: FetcherResponse): Promise<GraphQLError> {
    const body = (await response.clone().json().catch(() => undefined)) as { errors?: GraphQLFormattedError[] } | undefined;
    const first = body?.errors?.[0];
    if (response.status >= 400 && response.status < 500 && first) {
      return new GraphQLError(first.message, { extensions: first.extensions });
    }
    return super.errorFromResponse(response);
  }

  willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('requestId' in context)) return;
    if (context.authorization) request.http?.headers.set('authorization', context.authorization);
    request.http?.headers.set(REQUEST_ID_HEADER, context.requestId);
  }
}
