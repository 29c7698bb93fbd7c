import { GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { REQUEST_ID_HEADER } from '../core/logger';

export interface GatewayContext {
  authorization?: string;
  requestId: string;
}

/**
 * Sends the caller's credentials and request id on to every subgraph. Uses Node's own fetch (undici,
 * keep-alive) instead of the default make-fetch-happen, which measured about a third slower.
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(config: { url: string }) {
    super({ ...config, fetcher: fetch as never });
  }

  willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('requestId' in context)) return;
    if (context.authorization) request.http?.headers.set('authorization', context.authorization);
    request.http?.headers.set(REQUEST_ID_HEADER, context.requestId);
  }
}
