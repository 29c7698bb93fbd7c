import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import express from 'express';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { formatGraphqlError } from '../core/graphql-errors';
import { serveGraphql } from '../core/graphql-http';
import { RunningServer } from '../core/http';
import { Logger, operationLogPlugin, REQUEST_ID_HEADER } from '../core/logger';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { ForwardingDataSource, GatewayContext } from './forwarding-data-source';
import { attachSubscriptionForwarder } from './subscriptions';

export interface GatewayOptions {
  port: number;
  subgraphUrls: Record<string, string>;
  logger: Logger;
  supergraphSdl?: string;
}

/** The Apollo gateway over the committed supergraph, at /graphql, with subscriptions forwarded over graphql-ws. */
export async function startGateway(options: GatewayOptions): Promise<RunningServer> {
  const supergraphSdl = options.supergraphSdl ?? readSupergraphSdl();
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }) => {
      const url = options.subgraphUrls[name];
      if (!url) throw new Error(`No URL configured for subgraph "${name}"`);
      return new ForwardingDataSource({ url });
    },
  });
  const app = express();
  const httpServer = createServer(app);
  const forwarder = attachSubscriptionForwarder({
    httpServer,
    apiSchema: apiSchemaOf(supergraphSdl),
    supergraphSdl,
    subgraphUrls: options.subgraphUrls,
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError(options.logger),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      operationLogPlugin(options.logger),
      { serverWillStart: async () => ({ drainServer: forwarder.dispose }) },
    ],
  });
  return serveGraphql(apollo, app, httpServer, options.port, async (req) => ({
    authorization: req.headers.authorization,
    requestId: req.get(REQUEST_ID_HEADER) || randomUUID(),
  }));
}
