import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import express from 'express';
import { execute as graphqlExecute } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from './auth/internal-credential';
import { AccessTokens } from './auth/jwt';
import { Config } from './config';
import { RequestContext } from './context';
import { errorLogPlugin, formatGraphqlError } from './graphql-errors';
import { directExecutor } from './graphql-direct';
import { Caller, MAX_WS_MESSAGE_BYTES, RunningGraphqlServer, serveGraphql } from './graphql-http';
import { Logger, operationLogPlugin, REQUEST_ID_HEADER } from './logger';
import { BuiltSubgraph } from './subgraph';

export interface SubgraphServerOptions {
  subgraph: BuiltSubgraph;
  orm: MikroORM<PostgreSqlDriver>;
  tokens: AccessTokens;
  logger: Logger;
  port: number;
  /** Loopback by default (`<NAME>_HOST`). */
  host: string;
  /** Only callers presenting it are served: the gateway, over HTTP and graphql-ws. */
  internal: InternalCredential;
  /** The domain's services for one request, on its unit of work. */
  services?: (em: EntityManager) => unknown;
  /** Whether the domain reaches its database (`/readyz`). */
  ready?: () => Promise<boolean>;
}

/** Where a subgraph listens and whom it serves, from the configuration. */
export function subgraphServing(config: Config, name: string): Pick<SubgraphServerOptions, 'host' | 'internal'> {
  return { host: config.domains[name]?.host ?? '127.0.0.1', internal: new InternalCredential(config.internalSecret) };
}

/**
 * Serves a subgraph over HTTP at /graphql, with graphql-ws subscriptions on the same path, to the
 * gateway only (the internal credential). Each request gets its own unit of work and the caller's
 * principal from the forwarded Bearer token.
 */
export async function startSubgraphServer(options: SubgraphServerOptions): Promise<RunningGraphqlServer> {
  const { subgraph, orm, tokens, logger, internal } = options;
  const contextFor = async (authorization: string | undefined, requestId: string | undefined, validateOnly?: boolean): Promise<RequestContext> => {
    const id = requestId || randomUUID();
    const em = orm.em.fork();
    let requestLogger: Logger | undefined;
    return {
      principal: await tokens.fromHeader(authorization),
      em,
      // Made when first used: most requests log nothing.
      get logger() {
        return (requestLogger ??= logger.child({ reqId: id }));
      },
      requestId: id,
      services: options.services?.(em),
      ...(validateOnly ? { validateOnly } : {}),
    };
  };

  const app = express();
  const httpServer = createServer(app);
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: MAX_WS_MESSAGE_BYTES });
  const wsCleanup = useServer(
    {
      schema: subgraph.schema,
      onConnect: (ctx) => internal.matches(ctx.connectionParams?.[INTERNAL_CREDENTIAL_HEADER]),
      context: (ctx) => {
        const params = ctx.connectionParams ?? {};
        return contextFor(params.authorization as string | undefined, params[REQUEST_ID_HEADER] as string | undefined);
      },
    },
    wsServer,
  );
  const apollo = new ApolloServer<RequestContext>({
    schema: subgraph.schema,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError,
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      // No cache hints are served; the default plugin would wrap every field resolver to compute them.
      ApolloServerPluginCacheControlDisabled(),
      operationLogPlugin(logger),
      errorLogPlugin(logger),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => void (await wsCleanup.dispose()) }) },
    ],
  });
  const context = (caller: Caller) => contextFor(caller.authorization, caller.requestId, caller.validateOnly);
  const running = await serveGraphql(apollo, app, httpServer, {
    port: options.port,
    host: options.host,
    context,
    ready: options.ready,
    guard: (req, res, next) => {
      if (internal.matches(req.get(INTERNAL_CREDENTIAL_HEADER))) return next();
      res.status(403).json({ errors: [{ message: 'Forbidden: this endpoint serves the gateway only', extensions: { code: 'FORBIDDEN' } }] });
    },
  });
  const execute = directExecutor({
    schema: subgraph.schema,
    context,
    run: async ({ document, operationName }, variableValues, contextValue) =>
      graphqlExecute({ schema: subgraph.schema, document, operationName, variableValues, contextValue }),
    logger,
  });
  return { ...running, execute };
}
