import 'reflect-metadata';
import { loadPlatformConfig } from '../subgraphs/registry';
import { onShutdown } from '../core/http';
import { createLogger } from '../core/logger';
import { startPlatform } from './platform';

/** `npm start`: the whole platform in one process, on the embedded PostgreSQL unless DATABASE_URL is set. */
async function main(): Promise<void> {
  const config = loadPlatformConfig();
  const logger = createLogger('platform', config.logLevel);
  const platform = await startPlatform(config);
  logger.info({ rest: platform.restUrl, graphql: platform.gatewayUrl }, 'platform ready');
  console.log(`\nLoyalty platform is ready\n  REST:    ${platform.restUrl}\n  GraphQL: ${platform.gatewayUrl}\n`);
  onShutdown(logger, [platform.close]);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
