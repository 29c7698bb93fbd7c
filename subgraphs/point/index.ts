import 'reflect-metadata';
import { loadConfig } from '../../core/config';
import { resolveDatabase } from '../../core/db/database';
import { onShutdown } from '../../core/http';
import { createLogger } from '../../core/logger';
import { startPointSubgraph } from './subgraph';

/** Runs the point subgraph alone (docker-compose runs each part as its own service). */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('point', config.logLevel);
  const database = await resolveDatabase(config);
  const server = await startPointSubgraph(config, database.url, logger);
  logger.info({ url: `http://127.0.0.1:${server.port}/graphql` }, 'point subgraph ready');
  onShutdown(logger, [server.close, database.stop]);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
