import 'reflect-metadata';
import { runPart } from '../core/entry-point';
import { CallerRateLimiter } from '../core/rate-limit';
import { startGateway } from './gateway';

/** Runs the gateway alone; subgraph URLs come from AUTH_URL, POINT_URL and the other *_URL variables. */
runPart('gateway', '/graphql', async (config, databaseUrl, logger) => {
  const rateLimiter = await CallerRateLimiter.open(databaseUrl, config.rateLimit);
  const server = await startGateway({ config, port: config.gatewayPort, host: config.hosts.gateway, subgraphUrls: config.subgraphUrls, logger, rateLimiter });
  return { ...server, close: () => server.close().then(() => rateLimiter.close()) };
});
