import { ApolloServer, BaseContext } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { livenessRoute, readinessRoute } from './db/readiness';
import express, { Express, RequestHandler } from 'express';
import { GraphQLFormattedError } from 'graphql';
import { randomUUID } from 'node:crypto';
import { Server } from 'node:http';
import { listenServer, RunningServer } from './http';
import { REQUEST_ID_HEADER } from './logger';

/** Who sent an operation: the Bearer header it carried and its request id. */
export interface Caller {
  authorization?: string;
  requestId: string;
  /** The client's address as the HTTP server sees it through TRUST_PROXY; none for callers in the process. */
  address?: string;
  /**
   * Check the operation's arguments (authorization, then the subgraphs' validation) and run nothing:
   * every resolver answers a VALIDATION error instead (core/subgraph.ts).
   */
  validateOnly?: boolean;
}

/** Carries `Caller.validateOnly` over HTTP, from the REST adapter to the gateway and on to the subgraphs. */
export const VALIDATE_ONLY_HEADER = 'x-validate-only';

export interface GraphqlOperation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

/** Runs an operation for a caller: over HTTP, or in the same process as the server that owns it. */
export type OperationExecutor = (operation: GraphqlOperation, caller: Caller) => Promise<GraphqlAnswer>;

/** A GraphQL server that also runs operations in-process for parts sharing its process. */
export interface RunningGraphqlServer extends RunningServer {
  execute: OperationExecutor;
}

export interface GraphqlServing<TContext> {
  port: number;
  host: string;
  context: (caller: Caller) => Promise<TContext>;
  /** Runs before the body is read: refuses callers (internal credential, rate limit). */
  guard?: RequestHandler;
  /** Whether the server reaches its database (`/readyz`); without it /readyz is /healthz. */
  ready?: () => Promise<boolean>;
}

/** The largest GraphQL request body over HTTP. */
export const MAX_GRAPHQL_REQUEST_BYTES = 1024 * 1024;
/** The largest graphql-ws message: a subscription document and its variables. */
export const MAX_WS_MESSAGE_BYTES = 64 * 1024;

/**
 * Starts an Apollo server, mounts it at /graphql with /healthz beside it, and listens; operations run
 * in-process (`execute`) are the caller's (core/graphql-direct.ts). `close` drains: Apollo stops the
 * HTTP server once in-flight operations are done.
 */
export async function serveGraphql<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  app: Express,
  httpServer: Server,
  serving: GraphqlServing<TContext>,
): Promise<RunningServer> {
  await apollo.start();
  app.get('/healthz', (_request, response) => void response.json({ ok: true }));
  app.get('/livez', livenessRoute);
  app.get('/readyz', readinessRoute(serving.ready ?? (async () => true)));
  const guard: RequestHandler[] = serving.guard ? [serving.guard] : [];
  const contextOf = ({ req }: { req: express.Request }) =>
    serving.context({ authorization: req.headers.authorization, requestId: req.get(REQUEST_ID_HEADER) || randomUUID(), address: req.ip, validateOnly: req.get(VALIDATE_ONLY_HEADER) === 'true' || undefined });
  app.use('/graphql', ...guard, express.json({ limit: MAX_GRAPHQL_REQUEST_BYTES }), expressMiddleware(apollo, { context: contextOf }));
  const running = await listenServer(httpServer, serving.port, serving.host);
  return { ...running, close: () => apollo.stop() };
}
