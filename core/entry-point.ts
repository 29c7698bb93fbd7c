import { AddressInfo } from 'node:net';
import { credentialRevocations } from './auth/revocations';
import { Config } from './config';
import { resolveDatabase, waitForDatabase } from './db/database';
import { onShutdown, RunningServer } from './http';
import { createLogger, Logger } from './logger';
import { serveMetrics } from './metrics';
import { guardProcess } from './process-guard';
import { tracing } from './tracing-start';

/**
 * The `main` of a part run alone: reads the configuration, opens DATABASE_URL (or the embedded
 * PostgreSQL) and waits until it answers, listens for credential revocations, starts the part, logs where it listens and stops it on SIGTERM, the database last. A bad
 * configuration or a failed start prints one clear line and exits 1.
 */
export function runPart(
  name: string,
  path: string,
  loadConfig: () => Config,
  start: (config: Config, databaseUrl: string, logger: Logger) => Promise<RunningServer>,
): void {
  (async () => {
    const config = loadConfig();
    const logger = createLogger(name, config.logLevel);
    guardProcess(logger);
    const database = await resolveDatabase(config);
    await waitForDatabase(database.url, logger);
    // Every part verifies tokens: it learns revocations before it serves.
    await credentialRevocations.start(database.url, logger);
    const server = await start(config, database.url, logger);
    const metrics = await serveMetrics(config.metrics.port, config.metrics.host, logger, database.url);
    const { address, family } = server.server.address() as AddressInfo;
    const host = family === 'IPv6' ? `[${address}]` : address;
    logger.info({ url: `http://${host}:${server.port}${path}` }, `${name} ready`);
    onShutdown(logger, [server.close, () => credentialRevocations.stop(database.url), metrics.close, async () => tracing?.shutdown(), database.stop], config.deadlines.shutdownDelayMs);
  })().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
