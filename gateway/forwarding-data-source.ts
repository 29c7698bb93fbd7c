import { GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import type { FetcherResponse } from '@apollo/utils.fetcher';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { InternalCredential, INTERNAL_CREDENTIAL_HEADER } from '../core/auth/internal-credential';
import { postFetch } from '../core/http-client';
import { VALIDATE_ONLY_HEADER } from '../core/graphql-http';
import { REQUEST_ID_HEADER } from '../core/logger';

export interface GatewayContext {
  authorization?: string;
  requestId: string;
  /** The client's address (HTTP callers): sign-in mutations are rate limited by it. */
  address?: string;
  validateOnly?: boolean;
}

/**
 * Sends the caller's credentials and request id on to every subgraph, with the internal credential
 * the subgraphs require, over keep-alive connections (the default make-fetch-happen fetcher measured
 * about half as fast).
 */
export class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  private readonly internal: InternalCredential;

  constructor(config: { url: string; internal: InternalCredential }) {
    super({ url: config.url, fetcher: postFetch as never });
    this.internal = config.internal;
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
    request.http?.headers.set(INTERNAL_CREDENTIAL_HEADER, this.internal.secret);
    if (!('requestId' in context)) return;
    if (context.authorization) request.http?.headers.set('authorization', context.authorization);
    request.http?.headers.set(REQUEST_ID_HEADER, context.requestId);
    if (context.validateOnly) request.http?.headers.set(VALIDATE_ONLY_HEADER, 'true');
  }
}
