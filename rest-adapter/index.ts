import 'reflect-metadata';
import { runPart } from '../core/entry-point';
import { listen } from '../core/http';
import { CallerRateLimiter } from '../core/rate-limit';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from './app';

/** Runs the REST adapter alone, in front of the gateway at GATEWAY_URL. */
runPart('rest', '', async (config, databaseUrl, logger) => {
  const rateLimiter = await CallerRateLimiter.open(databaseUrl, config.rateLimit);
  const server = await listen(createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger, rateLimiter }), config.port, config.hosts.rest);
  return { ...server, close: () => server.close().then(() => rateLimiter.close()) };
});
