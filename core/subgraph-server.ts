import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import express from 'express';
import { useServer } from 'graphql-ws/use/ws';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { AccessTokens } from './auth/jwt';
import { RequestContext } from './context';
import { formatGraphqlError } from './graphql-errors';
import { serveGraphql } from './graphql-http';
import { RunningServer } from './http';
import { Logger, operationLogPlugin, REQUEST_ID_HEADER } from './logger';
import { BuiltSubgraph } from './subgraph';

export interface SubgraphServerOptions {
  subgraph: BuiltSubgraph;
  orm: MikroORM<PostgreSqlDriver>;
  tokens: AccessTokens;
  logger: Logger;
  port: number;
}

/**
 * Serves a subgraph over HTTP at /graphql, with graphql-ws subscriptions on the same path. Each
 * request gets its own unit of work and the caller's principal from the forwarded Bearer token.
 */
export async function startSubgraphServer(options: SubgraphServerOptions): Promise<RunningServer> {
  const { subgraph, orm, tokens, logger } = options;
  const contextFor = async (authorization: string | undefined, requestId: string | undefined): Promise<RequestContext> => {
    const id = requestId || randomUUID();
    return {
      principal: await tokens.fromHeader(authorization),
      em: orm.em.fork(),
      logger: logger.child({ reqId: id }),
      requestId: id,
    };
  };

  const app = express();
  const httpServer = createServer(app);
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const wsCleanup = useServer(
    {
      schema: subgraph.schema,
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
    formatError: formatGraphqlError(logger),
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      operationLogPlugin(logger),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => void (await wsCleanup.dispose()) }) },
    ],
  });
  return serveGraphql(apollo, app, httpServer, options.port, (req) => contextFor(req.headers.authorization, req.get(REQUEST_ID_HEADER)));
}
