import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import express, { RequestHandler } from 'express';
import { GraphQLError, GraphQLSchema } from 'graphql';
import { createServer } from 'node:http';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from '../core/auth/internal-credential';
import { AccessTokens } from '../core/auth/jwt';
import { Config } from '../core/config';
import { errorLogPlugin, formatGraphqlError } from '../core/graphql-errors';
import { CompiledOperation, directExecutor } from '../core/graphql-direct';
import { Caller, OperationExecutor, RunningGraphqlServer, serveGraphql } from '../core/graphql-http';
import { graphqlOperations, observeHttp, operationLabel } from '../core/metrics';
import { Logger, operationLogPlugin } from '../core/logger';
import { CallerRateLimiter, limitRequest, RateLimitDecision } from '../core/rate-limit';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { ForwardingDataSource, GatewayContext } from './forwarding-data-source';
import { InProcessDataSource } from './in-process-data-source';
import { namesAnyRootField, oncePerRequestFields, operationProtection } from './operation-limits';
import { callerMistake, callerMistakesPlugin } from './caller-mistakes';
import { attachSubscriptionForwarder } from './subscriptions';
import { serveExplorer } from './explorer';

export interface GatewayOptions {
  config: Pick<Config, 'jwtSecret' | 'internalSecret' | 'trustProxy' | 'introspection' | 'explorer' | 'gatewaySockets'>;
  port: number;
  host: string;
  subgraphUrls: Record<string, string>;
  /** Subgraphs in this process: reached by calling them, not over HTTP. */
  localSubgraphs?: Record<string, OperationExecutor>;
  logger: Logger;
  /** Shared with the REST adapters and other gateways (PostgreSQL). */
  rateLimiter: CallerRateLimiter;
  supergraphSdl?: string;
  /** Whether this process reaches the database (`/readyz`). */
  ready?: () => Promise<boolean>;
}

/**
 * The Apollo gateway over the committed supergraph, at /graphql, with subscriptions forwarded over
 * graphql-ws. It protects itself as the REST adapter does: per-caller rate limits, operation limits
 * (depth, aliases, cost, root fields, once-per-request mutations), introspection off in production.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGraphqlServer> {
  const { config } = options;
  const supergraphSdl = options.supergraphSdl ?? readSupergraphSdl();
  const internal = new InternalCredential(config.internalSecret);
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }) => {
      const local = options.localSubgraphs?.[name];
      if (local) return new InProcessDataSource(local, name);
      const url = options.subgraphUrls[name];
      if (!url) throw new Error(`No URL configured for subgraph "${name}"`);
      return new ForwardingDataSource({ url, internal });
    },
  });
  const app = express();
  app.use(observeHttp('gateway'));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  if (config.explorer) serveExplorer(app, '/graphql');
  const httpServer = createServer(app);
  const apiSchema = apiSchemaOf(supergraphSdl);
  const tokens = new AccessTokens(config.jwtSecret);
  const protection = operationProtection(supergraphSdl);
  const forwarder = attachSubscriptionForwarder({
    httpServer,
    apiSchema,
    supergraphSdl,
    subgraphUrls: options.subgraphUrls,
    internal,
    tokens,
    rateLimiter: options.rateLimiter,
    protection,
    sockets: config.gatewaySockets,
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: config.introspection,
    includeStacktraceInErrorResponses: false,
    parseOptions: protection.parseOptions,
    validationRules: protection.validationRules,
    formatError: formatGraphqlError,
    plugins: [
      // First: the other plugins' hooks may take the operation for granted.
      callerMistakesPlugin(apiSchema),
      // No cache hints are served; the default plugin would wrap every field resolver to compute them.
      ApolloServerPluginCacheControlDisabled(),
      // Apollo's landing page loads its explorer from a CDN: browsers get ours (serveExplorer) or none.
      ApolloServerPluginLandingPageDisabled(),
      ...protection.plugins,
      signInByAddress(options.rateLimiter, tokens, internal, oncePerRequestFields(supergraphSdl)),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      operationLogPlugin(options.logger),
      operationMetricsPlugin(),
      errorLogPlugin(options.logger),
      { serverWillStart: async () => ({ drainServer: forwarder.dispose }) },
    ],
  });
  const context = async (caller: Caller): Promise<GatewayContext> => caller;
  const running = await serveGraphql(apollo, app, httpServer, {
    port: options.port,
    host: options.host,
    guard: rateLimit(options.rateLimiter, tokens, internal),
    context,
    ready: options.ready,
  });
  const execute = directExecutor({
    schema: apiSchema,
    parseOptions: protection.parseOptions,
    validationRules: protection.validationRules,
    refuse: ({ document, operation }, variables) => callerMistake(apiSchema, document, operation, { variables }),
    rewriteMessage: protection.hideSuggestions,
    context,
    run: runOnGateway(gateway, apiSchema, options.logger),
    observe: countOperation,
    logger: options.logger,
  });
  return { ...running, execute };
}

/** Counts an operation the gateway answered, by its name and whether the answer holds errors. */
const countOperation = (operationName: string | null | undefined, answer: { errors?: readonly unknown[] }) =>
  graphqlOperations.inc({ operation: operationLabel(operationName), outcome: answer.errors?.length ? 'error' : 'success' });

/** `countOperation` for the operations sent to the gateway over HTTP. */
function operationMetricsPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ operationName, response }) {
          if (response.body.kind === 'single') countOperation(operationName, response.body.singleResult);
        },
      };
    },
  };
}

/**
 * Runs a compiled operation on the gateway's executor (query plan cache, plan execution, result
 * shaping), with the request context Apollo Server would hand it. Without an operation name (a
 * document of one operation) the plan is cached under the text's hash alone.
 */
function runOnGateway(gateway: ApolloGateway, schema: GraphQLSchema, logger: Logger) {
  return (compiled: CompiledOperation, variables: Record<string, unknown> | undefined, context: GatewayContext) => {
    const { source, document, operation, queryHash, operationName } = compiled;
    const requestContext = {
      request: { query: source, variables, operationName },
      logger,
      schema,
      context,
      queryHash,
      document,
      source,
      operationName: operation.name?.value ?? null,
      operation,
      metrics: {},
    } as unknown as Parameters<ApolloGateway['executor']>[0];
    return gateway.executor(requestContext);
  };
}

/** Per-caller limits for clients of the gateway; the REST adapter's calls (internal credential) were counted there. */
function rateLimit(limiter: CallerRateLimiter, tokens: AccessTokens, internal: InternalCredential): RequestHandler {
  return async (req, res, next) => {
    if (internal.matches(req.get(INTERNAL_CREDENTIAL_HEADER))) return next();
    try {
      if (await limitRequest(limiter, tokens, req, res)) return next();
      res.status(429).json({ errors: [{ message: 'Too many requests: rate limit exceeded', extensions: { code: 'RATE_LIMITED' } }] });
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Logins, password resets and key exchanges (the once-per-request mutations: they check a secret or
 * issue a credential) are counted by the client address even when a token comes with them: the guard
 * counted the token, and no credential may raise the budget of guessing. An anonymous caller was
 * counted by its address already.
 */
function signInByAddress(limiter: CallerRateLimiter, tokens: AccessTokens, internal: InternalCredential, signIns: Set<string>): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart({ request }) {
      if (internal.matches(request.http?.headers.get(INTERNAL_CREDENTIAL_HEADER))) return;
      return {
        async didResolveOperation({ operation, document, contextValue, response }) {
          if (!operation || !namesAnyRootField(operation, document, signIns) || !(await tokens.fromHeader(contextValue.authorization))) return;
          const state = await limiter.consume(undefined, contextValue.address);
          const headers = rateLimitHeaders(state);
          for (const [name, value] of headers) response.http.headers.set(name, value);
          if (!state.allowed) {
            throw new GraphQLError('Too many requests: rate limit exceeded', { extensions: { code: 'RATE_LIMITED', retryAfter: state.retryAfter, http: { status: 429, headers } } });
          }
        },
      };
    },
  };
}

function rateLimitHeaders(state: RateLimitDecision): HeaderMap {
  const headers = new HeaderMap([
    ['x-ratelimit-limit', String(state.limit)],
    ['x-ratelimit-remaining', String(state.remaining)],
    ['x-ratelimit-reset', String(state.resetAt)],
  ]);
  if (!state.allowed) headers.set('retry-after', String(state.retryAfter));
  return headers;
}
