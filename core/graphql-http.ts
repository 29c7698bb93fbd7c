import { ApolloServer, BaseContext } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Express, Request, RequestHandler } from 'express';
import { Server } from 'node:http';
import { listenServer, RunningServer } from './http';

export interface GraphqlServing<TContext> {
  port: number;
  host: string;
  context: (req: Request) => Promise<TContext>;
  /** Runs before the body is read: refuses callers (internal credential, rate limit). */
  guard?: RequestHandler;
}

/** The largest GraphQL request body over HTTP. */
export const MAX_GRAPHQL_REQUEST_BYTES = 1024 * 1024;
/** The largest graphql-ws message: a subscription document and its variables. */
export const MAX_WS_MESSAGE_BYTES = 64 * 1024;

/**
 * Starts an Apollo server, mounts it at /graphql with /healthz beside it, and listens.
 * `close` drains: Apollo stops the HTTP server once in-flight operations are done.
 */
export async function serveGraphql<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  app: Express,
  httpServer: Server,
  serving: GraphqlServing<TContext>,
): Promise<RunningServer> {
  await apollo.start();
  app.get('/healthz', (_request, response) => void response.json({ ok: true }));
  const guard: RequestHandler[] = serving.guard ? [serving.guard] : [];
  app.use('/graphql', ...guard, express.json({ limit: MAX_GRAPHQL_REQUEST_BYTES }), expressMiddleware(apollo, { context: ({ req }) => serving.context(req) }));
  const running = await listenServer(httpServer, serving.port, serving.host);
  return { ...running, close: () => apollo.stop() };
}
