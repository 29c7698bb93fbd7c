import { GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { REQUEST_ID_HEADER } from '../core/logger';

export interface GatewayContext {
  authorization?: string;
  requestId: string;
}

/** Sends the caller's credentials and request id on to every subgraph. */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('requestId' in context)) return;
    if (context.authorization) request.http?.headers.set('authorization', context.authorization);
    request.http?.headers.set(REQUEST_ID_HEADER, context.requestId);
  }
}
