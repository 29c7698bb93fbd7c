import { Config, loadConfig } from './config';
import { resolveDatabase } from './db/database';
import { onShutdown, RunningServer } from './http';
import { createLogger, Logger } from './logger';

/**
 * The `main` of a part run alone: reads the configuration, starts the part, logs where it listens and
 * stops it on SIGTERM. A bad configuration or a failed start prints one clear line and exits 1.
 */
export function runPart(name: string, path: string, start: (config: Config, logger: Logger) => Promise<RunningServer>): void {
  let logger: Logger | undefined;
  (async () => {
    const config = loadConfig();
    logger = createLogger(name, config.logLevel);
    const server = await start(config, logger);
    logger.info({ url: `http://127.0.0.1:${server.port}${path}` }, `${name} ready`);
    onShutdown(logger, [server.close]);
  })().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/** Runs a subgraph alone, on DATABASE_URL or the embedded PostgreSQL. */
export function runSubgraph(name: string, start: (config: Config, databaseUrl: string, logger: Logger) => Promise<RunningServer>): void {
  runPart(name, '/graphql', async (config, logger) => {
    const database = await resolveDatabase(config);
    const server = await start(config, database.url, logger);
    return {
      ...server,
      close: async () => {
        await server.close();
        await database.stop();
      },
    };
  });
}
