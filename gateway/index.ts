import 'reflect-metadata';
import { loadConfig } from '../core/config';
import { onShutdown } from '../core/http';
import { createLogger } from '../core/logger';
import { startGateway } from './gateway';

/** Runs the gateway alone; subgraph URLs come from AUTH_URL and the other *_URL variables. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('gateway', config.logLevel);
  const server = await startGateway({ port: config.gatewayPort, subgraphUrls: config.subgraphUrls, logger });
  logger.info({ url: `http://127.0.0.1:${server.port}/graphql` }, 'gateway ready');
  onShutdown(logger, [server.close]);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
