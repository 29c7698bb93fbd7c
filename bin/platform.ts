import { credentialRevocations } from '../core/auth/revocations';
import { Config } from '../core/config';
import { resolveDatabase, waitForDatabase } from '../core/db/database';
import { listen } from '../core/http';
import { createLogger, DestinationStream } from '../core/logger';
import { CallerRateLimiter } from '../core/rate-limit';
import { databaseReachable } from '../core/db/readiness';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { startGateway } from '../gateway/gateway';
import { createRestApp } from '../rest-adapter/app';
import { gatewayLink, gatewayOverHttp } from '../core/gateway-link';
import { InternalCredential } from '../core/auth/internal-credential';
import { OperationExecutor, RunningGraphqlServer } from '../core/graphql-http';
import { DomainCalls } from '../core/domain-calls';
import { startDomain } from '../core/module';
import { MODULES, platformSurface, platformTables } from '../subgraphs/registry';

export interface RunningPlatform {
  restUrl: string;
  gatewayUrl: string;
  subgraphUrls: Record<string, string>;
  databaseUrl: string;
  rateLimiter: CallerRateLimiter;
  /** The gateway and each subgraph run in-process, as the co-located parts call them (benchmarks of each layer). */
  executors: { gateway: OperationExecutor; subgraphs: Record<string, OperationExecutor> };
  /** The domains' calls answered in this process (empty with COLOCATED_TRANSPORT=http: each domain then holds its own). */
  calls: DomainCalls;
  /** Stops the parts in reverse order, each finishing its in-flight requests. */
  close: () => Promise<void>;
}

export interface PlatformOptions {
  logDestination?: DestinationStream;
  /** Counters of this platform's rate limits; platforms sharing one database share them unless this differs (tests). */
  rateLimitNamespace?: string;
}

/** Starts the whole chain in this process: database (waited for while it does not answer), every registered domain, the gateway, the REST adapter. */
export async function startPlatform(config: Config, options: PlatformOptions = {}): Promise<RunningPlatform> {
  const logger = (service: string) => createLogger(service, config.logLevel, options.logDestination);
  const database = await resolveDatabase(config);
  await waitForDatabase(database.url, logger('database'));
  // Every part verifies tokens: this process learns revocations before any of them serves.
  await credentialRevocations.start(database.url, logger('revocations'));
  const tables = platformTables();
  const domains: RunningGraphqlServer[] = [];
  const subgraphUrls: Record<string, string> = {};
  const localSubgraphs: Record<string, OperationExecutor> = {};
  // The domains start before the gateway: the link reaches it once it runs.
  const gatewayForDomains = gatewayLink(config);
  const inProcess = config.colocatedTransport === 'in-process';
  // In-process, the domains answer each other's calls directly; over HTTP each holds only its own.
  const calls = new DomainCalls();
  for (const module of MODULES) {
    const domain = await startDomain(module, config, database.url, logger(module.contract.name), tables, gatewayForDomains.execute, inProcess ? calls : new DomainCalls());
    domains.push(domain);
    subgraphUrls[module.contract.name] = `http://127.0.0.1:${domain.port}/graphql`;
    localSubgraphs[module.contract.name] = domain.execute;
  }
  const supergraphSdl = readSupergraphSdl();
  const rateLimiter = await CallerRateLimiter.open(database.url, config.rateLimit, options.rateLimitNamespace);
  const ready = databaseReachable(database.url);
  const gateway = await startGateway({
    config,
    port: config.gatewayPort,
    host: config.hosts.gateway,
    subgraphUrls,
    localSubgraphs: inProcess ? localSubgraphs : undefined,
    logger: logger('gateway'),
    rateLimiter,
    supergraphSdl,
    ready,
  });
  const gatewayUrl = `http://127.0.0.1:${gateway.port}/graphql`;
  gatewayForDomains.bind(inProcess ? gateway.execute : gatewayOverHttp(gatewayUrl, new InternalCredential(config.internalSecret)));
  const app = createRestApp({
    config: { ...config, gatewayUrl },
    apiSchema: apiSchemaOf(supergraphSdl),
    logger: logger('rest'),
    rateLimiter,
    gateway: inProcess ? gateway.execute : undefined,
    ready,
    surface: platformSurface(),
  });
  const rest = await listen(app, config.port, config.hosts.rest);
  return {
    restUrl: `http://127.0.0.1:${rest.port}`,
    gatewayUrl,
    subgraphUrls,
    databaseUrl: database.url,
    rateLimiter,
    executors: { gateway: gateway.execute, subgraphs: localSubgraphs },
    calls,
    close: async () => {
      await rest.close();
      await gateway.close();
      await rateLimiter.close();
      for (const domain of [...domains].reverse()) await domain.close();
      await credentialRevocations.stop(database.url);
      await database.stop();
    },
  };
}
