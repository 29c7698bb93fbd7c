import { ExecutionArgs, ExecutionResult, FormattedExecutionResult, GraphQLError, GraphQLSchema, Kind, OperationDefinitionNode, parse, print } from 'graphql';
import { Client, createClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from '../core/auth/internal-credential';
import { MAX_WS_MESSAGE_BYTES } from '../core/graphql-http';
import { REQUEST_ID_HEADER } from '../core/logger';

/** Which subgraph owns each root Subscription field, read from the supergraph's join directives. */
export function subscriptionOwners(supergraphSdl: string): Map<string, string> {
  const document = parse(supergraphSdl);
  const graphNames = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.ENUM_TYPE_DEFINITION && definition.name.value === 'join__Graph') {
      for (const value of definition.values ?? []) {
        const graph = value.directives?.find((directive) => directive.name.value === 'join__graph');
        const name = graph?.arguments?.find((argument) => argument.name.value === 'name')?.value;
        if (name?.kind === Kind.STRING) graphNames.set(value.name.value, name.value);
      }
    }
  }
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION || definition.name.value !== 'Subscription') continue;
    const typeGraphs = graphsOf(definition.directives, 'join__type');
    for (const field of definition.fields ?? []) {
      const graph = graphsOf(field.directives, 'join__field')[0] ?? (typeGraphs.length === 1 ? typeGraphs[0] : undefined);
      const name = graph && graphNames.get(graph);
      if (name) owners.set(field.name.value, name);
    }
  }
  return owners;
}

function graphsOf(directives: readonly { name: { value: string }; arguments?: readonly any[] }[] | undefined, directive: string): string[] {
  return (directives ?? [])
    .filter((node) => node.name.value === directive)
    .map((node) => node.arguments?.find((argument: any) => argument.name.value === 'graph')?.value)
    .filter((value) => value?.kind === Kind.ENUM)
    .map((value) => value.value as string);
}

interface ForwarderOptions {
  httpServer: Server;
  apiSchema: GraphQLSchema;
  supergraphSdl: string;
  subgraphUrls: Record<string, string>;
  internal: InternalCredential;
}

/**
 * The gateway cannot execute subscriptions itself, so this graphql-ws server on the gateway's
 * /graphql validates each subscription against the API schema and forwards it to the graphql-ws
 * endpoint of the subgraph that owns its root field, relaying results and mapping upstream errors.
 */
export function attachSubscriptionForwarder(options: ForwarderOptions): { dispose: () => Promise<void> } {
  const owners = subscriptionOwners(options.supergraphSdl);
  const wsServer = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: MAX_WS_MESSAGE_BYTES });
  const server = useServer(
    {
      schema: options.apiSchema,
      context: (ctx) => ({ connectionParams: ctx.connectionParams ?? {} }),
      subscribe: (args: ExecutionArgs) => forward(args, owners, options.subgraphUrls, options.internal),
    },
    wsServer,
  );
  return { dispose: async () => void (await server.dispose()) };
}

/**
 * The subscription at the owning subgraph, over a graphql-ws client of its own. Its `return()` (the
 * client left) closes the upstream connection at once: an async generator's would wait for the next
 * upstream event, which may never come, and keep the subgraph's stream open meanwhile.
 */
function forward(
  args: ExecutionArgs,
  owners: Map<string, string>,
  subgraphUrls: Record<string, string>,
  internal: InternalCredential,
): AsyncIterableIterator<ExecutionResult> {
  const operation = args.document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION && (!args.operationName || definition.name?.value === args.operationName),
  );
  const rootField = operation?.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
  const owner = rootField?.kind === Kind.FIELD ? owners.get(rootField.name.value) : undefined;
  const url = owner && subgraphUrls[owner];
  if (!url) return (async function* () { yield { errors: [upstreamError('No subgraph serves this subscription', 'BAD_REQUEST')] }; })();
  const params = (args.contextValue as { connectionParams: Record<string, unknown> }).connectionParams;
  const client: Client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    lazy: true,
    retryAttempts: 0,
    connectionParams: { authorization: params.authorization, [REQUEST_ID_HEADER]: params[REQUEST_ID_HEADER], [INTERNAL_CREDENTIAL_HEADER]: internal.secret },
  });
  const results = (async function* () {
    try {
      const upstream = client.iterate({
        query: print(args.document),
        variables: (args.variableValues ?? undefined) as Record<string, unknown> | undefined,
        operationName: args.operationName ?? undefined,
      });
      for await (const result of upstream) yield relayed(result as FormattedExecutionResult);
    } catch (error) {
      yield { errors: upstreamErrors(error) };
    } finally {
      await client.dispose();
    }
  })();
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: () => results.next(),
    return: async () => {
      await client.dispose();
      void results.return(undefined);
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * An upstream result as the gateway's graphql-ws server sends it on: a source that failed to open
 * answers one result with errors (plain JSON on the wire), which become GraphQL errors again.
 */
function relayed(result: FormattedExecutionResult): ExecutionResult {
  if (!result.errors) return result as ExecutionResult;
  return { ...result, errors: result.errors.map((error) => upstreamError(error.message, String(error.extensions?.code ?? 'INTERNAL'), error.extensions)) } as ExecutionResult;
}

/** graphql-ws rejects with an array of GraphQL errors, a CloseEvent or an Error: map each to GraphQL errors. */
function upstreamErrors(error: unknown): GraphQLError[] {
  if (Array.isArray(error)) {
    return error.map((item) => upstreamError(item?.message ?? 'Subscription failed', item?.extensions?.code ?? 'INTERNAL', item?.extensions));
  }
  if (error && typeof error === 'object' && 'code' in error && 'reason' in error) {
    return [upstreamError(`Subscription source closed: ${(error as { reason: string }).reason || 'no reason given'}`, 'UNAVAILABLE')];
  }
  return [upstreamError('Subscription source is unavailable', 'UNAVAILABLE')];
}

function upstreamError(message: string, code: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}
