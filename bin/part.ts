import '../core/tracing-start';
import 'reflect-metadata';
import { runPart } from '../core/entry-point';
import { listen, RunningServer } from '../core/http';
import { startDomain } from '../core/module';
import { CallerRateLimiter } from '../core/rate-limit';
import { DatabaseReadiness } from '../core/db/readiness';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { startGateway } from '../gateway/gateway';
import { createRestApp } from '../rest-adapter/app';
import { loadPlatformConfig, MODULES, moduleNamed, platformSurface, platformTables } from '../subgraphs/registry';

const USAGE = `Usage: npm run start:part -- <part>   (one of: ${[...MODULES.map((module) => module.contract.name), 'gateway', 'rest'].join(', ')})`;

/** What a part facing clients holds: the rate limits shared in the database, and its readiness (`/readyz`); closed last. */
async function withFacingClients(start: (rateLimiter: CallerRateLimiter, readiness: DatabaseReadiness) => Promise<RunningServer>, databaseUrl: string, limits: { standardPerHour: number; premiumPerHour: number }) {
  const rateLimiter = await CallerRateLimiter.open(databaseUrl, limits);
  const readiness = new DatabaseReadiness(databaseUrl);
  const server = await start(rateLimiter, readiness);
  return { ...server, close: () => server.close().then(() => Promise.all([rateLimiter.close(), readiness.close()])).then(() => undefined) };
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
      (rateLimiter, readiness) => startGateway({ config, port: config.gatewayPort, host: config.hosts.gateway, subgraphUrls: config.subgraphUrls, logger, rateLimiter, ready: readiness.ready }),
      databaseUrl,
      config.rateLimit,
    ),
  );
} else if (part === 'rest') {
  runPart(part, '', loadPlatformConfig, (config, databaseUrl, logger) =>
    withFacingClients(
      (rateLimiter, readiness) => listen(createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger, rateLimiter, ready: readiness.ready, surface: platformSurface() }), config.port, config.hosts.rest),
      databaseUrl,
      config.rateLimit,
    ),
  );
} else {
  console.error(USAGE);
  process.exit(2);
}
