import { ApolloServer, BaseContext } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Express, Request } from 'express';
import { Server } from 'node:http';
import { listenServer, RunningServer } from './http';

/**
 * Starts an Apollo server, mounts it at /graphql with /healthz beside it, and listens.
 * `close` drains: Apollo stops the HTTP server once in-flight operations are done.
 */
export async function serveGraphql<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  app: Express,
  httpServer: Server,
  port: number,
  context: (req: Request) => Promise<TContext>,
): Promise<RunningServer> {
  await apollo.start();
  app.get('/healthz', (_request, response) => void response.json({ ok: true }));
  app.use('/graphql', express.json({ limit: '1mb' }), expressMiddleware(apollo, { context: ({ req }) => context(req) }));
  const running = await listenServer(httpServer, port);
  return { ...running, close: () => apollo.stop() };
}
