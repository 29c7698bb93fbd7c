import '../core/tracing-start';
import 'reflect-metadata';
import { runPart } from '../core/entry-point';
import { listen, RunningServer } from '../core/http';
import { startDomain } from '../core/module';
import { CallerRateLimiter } from '../core/rate-limit';
import { databaseReachable } from '../core/db/readiness';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { startGateway } from '../gateway/gateway';
import { createRestApp } from '../rest-adapter/app';
import { loadPlatformConfig, MODULES, moduleNamed, platformSurface, platformTables } from '../subgraphs/registry';

const USAGE = `Usage: npm run start:part -- <part>   (one of: ${[...MODULES.map((module) => module.contract.name), 'gateway', 'rest'].join(', ')})`;

/** What a part facing clients holds: the rate limits shared in the database (closed last), and its readiness (`/readyz`). */
async function withFacingClients(start: (rateLimiter: CallerRateLimiter, ready: () => Promise<boolean>) => Promise<RunningServer>, databaseUrl: string, limits: { standardPerHour: number; premiumPerHour: number }) {
  const rateLimiter = await CallerRateLimiter.open(databaseUrl, limits);
  const server = await start(rateLimiter, databaseReachable(databaseUrl));
  return { ...server, close: () => server.close().then(() => rateLimiter.close()) };
}

/**
 * `npm run start:part -- <part>`: one part of the platform alone (docker-compose runs each as its own
 * service): a domain's subgraph with its jobs and consumers, the gateway, or the REST adapter.
 */
const part = process.argv[2];
const domain = part ? moduleNamed(part) : undefined;
if (domain) {
  runPart(part, '/graphql', loadPlatformConfig, (config, databaseUrl, logger) =>
    startDomain(domain, config, databaseUrl, logger, platformTables()),
  );
} else if (part === 'gateway') {
  runPart(part, '/graphql', loadPlatformConfig, (config, databaseUrl, logger) =>
    withFacingClients(
      (rateLimiter, ready) => startGateway({ config, port: config.gatewayPort, host: config.hosts.gateway, subgraphUrls: config.subgraphUrls, logger, rateLimiter, ready }),
      databaseUrl,
      config.rateLimit,
    ),
  );
} else if (part === 'rest') {
  runPart(part, '', loadPlatformConfig, (config, databaseUrl, logger) =>
    withFacingClients(
      (rateLimiter, ready) => listen(createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger, rateLimiter, ready, surface: platformSurface() }), config.port, config.hosts.rest),
      databaseUrl,
      config.rateLimit,
    ),
  );
} else {
  console.error(USAGE);
  process.exit(2);
}
