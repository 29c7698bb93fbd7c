import 'reflect-metadata';
import { loadConfig } from '../core/config';
import { listen, onShutdown } from '../core/http';
import { createLogger } from '../core/logger';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from './app';

/** Runs the REST adapter alone, in front of the gateway at GATEWAY_URL. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('rest', config.logLevel);
  const app = createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger });
  const server = await listen(app, config.port);
  logger.info({ url: `http://127.0.0.1:${server.port}` }, 'REST adapter ready');
  onShutdown(logger, [server.close]);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
