import { AddressInfo } from 'node:net';
import { Config, loadConfig } from './config';
import { resolveDatabase } from './db/database';
import { onShutdown, RunningServer } from './http';
import { createLogger, Logger } from './logger';

/**
 * The `main` of a part run alone: reads the configuration, opens DATABASE_URL (or the embedded
 * PostgreSQL), starts the part, logs where it listens and stops it on SIGTERM, the database last. A bad
 * configuration or a failed start prints one clear line and exits 1.
 */
export function runPart(name: string, path: string, start: (config: Config, databaseUrl: string, logger: Logger) => Promise<RunningServer>): void {
  let logger: Logger | undefined;
  (async () => {
    const config = loadConfig();
    logger = createLogger(name, config.logLevel);
    const database = await resolveDatabase(config);
    const server = await start(config, database.url, logger);
    const { address } = server.server.address() as AddressInfo;
    logger.info({ url: `http://${address}:${server.port}${path}` }, `${name} ready`);
    onShutdown(logger, [server.close, database.stop]);
  })().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/** Runs a subgraph alone. */
export function runSubgraph(name: string, start: (config: Config, databaseUrl: string, logger: Logger) => Promise<RunningServer>): void {
  runPart(name, '/graphql', start);
}
