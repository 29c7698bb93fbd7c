import { ExecutionArgs, ExecutionResult, FormattedExecutionResult, GraphQLError, GraphQLSchema, Kind, OperationDefinitionNode, parse, print } from 'graphql';
import { Client, createClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from '../core/auth/internal-credential';
import { AccessTokens } from '../core/auth/jwt';
import { Config } from '../core/config';
import { RateLimitedError } from '../core/errors';
import { compile } from '../core/graphql-direct';
import { MAX_WS_MESSAGE_BYTES } from '../core/graphql-http';
import { REQUEST_ID_HEADER } from '../core/logger';
import { CallerRateLimiter } from '../core/rate-limit';
import { OperationProtection } from './operation-limits';

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
  tokens: AccessTokens;
  /** Shared with the HTTP path: each subscription is a request of its caller. */
  rateLimiter: CallerRateLimiter;
  /** The HTTP path's operation limits (gateway/operation-limits.ts). */
  protection: OperationProtection;
  sockets: Config['gatewaySockets'];
}

/** What an acknowledged socket is: whose, and whether it is the REST adapter's (its caller was counted there). */
interface Connection {
  caller: string;
  internal: boolean;
}

/** The WebSocket close code of a caller past its sockets: a policy refusal, which clients do not retry. */
export const TOO_MANY_SOCKETS_CLOSE_CODE = 1008;

/**
 * The gateway cannot execute subscriptions itself, so this graphql-ws server on the gateway's
 * /graphql validates each subscription against the API schema and forwards it to the graphql-ws
 * endpoint of the subgraph that owns its root field, relaying results and mapping upstream errors.
 * It acknowledges `connection_init` only with a valid access token in `authorization` (else 4403),
 * holds at most `sockets.perCaller` acknowledged sockets of one caller (else closed 1008) and
 * `sockets.maxOpen` sockets in all (else the upgrade is answered 503), both per process; each
 * `subscribe` message is a request of its caller under the rate limit and the HTTP operation limits.
 */
export function attachSubscriptionForwarder(options: ForwarderOptions): { dispose: () => Promise<void> } {
  const owners = subscriptionOwners(options.supergraphSdl);
  const { apiSchema, protection, tokens, rateLimiter } = options;
  const wsServer: WebSocketServer = new WebSocketServer({
    server: options.httpServer,
    path: '/graphql',
    maxPayload: MAX_WS_MESSAGE_BYTES,
    // Every socket counts, acknowledged or not: one that sends no connection_init is closed after 3 s.
    verifyClient: (_info, accept) => (wsServer.clients.size < options.sockets.maxOpen ? accept(true) : accept(false, 503, 'Too many open sockets')),
  });
  const sockets = new SocketsPerCaller(options.sockets.perCaller);
  const connections = new WeakMap<object, Connection>();
  const server = useServer(
    {
      schema: apiSchema,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const principal = await tokens.fromHeader(stringParam(params.authorization));
        if (!principal) return false;
        const caller = `${principal.kind}:${principal.id}`;
        if (!sockets.open(caller)) {
          ctx.extra.socket.close(TOO_MANY_SOCKETS_CLOSE_CODE, 'Too many open sockets for this caller');
          return false;
        }
        connections.set(ctx, { caller, internal: options.internal.matches(stringParam(params[INTERNAL_CREDENTIAL_HEADER])) });
        return true;
      },
      onClose: (ctx) => {
        const connection = connections.get(ctx);
        if (!connection) return;
        connections.delete(ctx);
        sockets.close(connection.caller);
      },
      onSubscribe: async (ctx, _id, payload) => {
        // The token is checked again: it may have expired since the socket opened.
        const principal = await tokens.fromHeader(stringParam(ctx.connectionParams?.authorization));
        if (!principal) return [new GraphQLError('The access token of this connection is no longer valid', { extensions: { code: 'UNAUTHENTICATED' } })];
        if (!connections.get(ctx)?.internal) {
          const state = await rateLimiter.consume(principal, undefined);
          if (!state.allowed) return [new RateLimitedError('Too many requests: rate limit exceeded', state.retryAfter)];
        }
        const compiled = compile(
          { schema: apiSchema, validationRules: protection.validationRules, parseOptions: protection.parseOptions },
          { query: payload.query, operationName: payload.operationName ?? undefined },
        );
        if (!('document' in compiled)) return compiled.map((error) => withMessage(error, protection.hideSuggestions(error.message)));
        if (compiled.operation.operation !== 'subscription') {
          return [new GraphQLError('Only subscriptions are served over the socket: send queries and mutations over HTTP', { extensions: { code: 'BAD_REQUEST' } })];
        }
        return {
          schema: apiSchema,
          document: compiled.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: { connectionParams: ctx.connectionParams ?? {} },
        };
      },
      subscribe: (args: ExecutionArgs) => forward(args, owners, options.subgraphUrls, options.internal),
    },
    wsServer,
  );
  return { dispose: async () => void (await server.dispose()) };
}

/** The acknowledged sockets of each caller in this process. */
class SocketsPerCaller {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts a socket of the caller, unless it holds the most it may. */
  open(caller: string): boolean {
    const open = this.counts.get(caller) ?? 0;
    if (open >= this.max) return false;
    this.counts.set(caller, open + 1);
    return true;
  }

  close(caller: string): void {
    const open = (this.counts.get(caller) ?? 1) - 1;
    if (open > 0) this.counts.set(caller, open);
    else this.counts.delete(caller);
  }
}

const stringParam = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const withMessage = (error: GraphQLError, message: string) =>
  new GraphQLError(message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: error.extensions });

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
