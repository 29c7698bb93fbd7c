import { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { SpanKind } from '@opentelemetry/api';
import { OperationExecutor } from '../core/graphql-http';
import { inSpan } from '../core/tracing';
import { GatewayContext } from './forwarding-data-source';

/**
 * Reaches a subgraph that shares the gateway's process by calling it: the same operation, caller
 * and request id as over HTTP, without serializing, sending and parsing it twice. Traced as the
 * subgraph's server span would be over HTTP (`subgraph <name>`), its statements within it.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  constructor(
    private readonly execute: OperationExecutor,
    private readonly name: string,
  ) {}

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): ReturnType<GraphQLDataSource['process']> {
    const { request } = options;
    const caller: Partial<GatewayContext> = 'context' in options ? options.context : {};
    const answer = await inSpan(`subgraph ${this.name}`, { kind: SpanKind.SERVER }, () =>
      this.execute(
        { query: request.query!, variables: request.variables as Record<string, unknown> | undefined, operationName: request.operationName },
        { authorization: caller.authorization, requestId: caller.requestId ?? 'gateway', validateOnly: caller.validateOnly },
      ),
    );
    return answer as Awaited<ReturnType<GraphQLDataSource['process']>>;
  }
}
