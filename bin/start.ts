import 'reflect-metadata';
import cluster, { Worker } from 'node:cluster';
import { resolveDatabase } from '../core/db/database';
import { onShutdown } from '../core/http';
import { createLogger, Logger } from '../core/logger';
import { loadPlatformConfig } from '../subgraphs/registry';
import { startPlatform } from './platform';

/**
 * `npm start`: the whole platform on the embedded PostgreSQL unless DATABASE_URL is set, in WORKERS
 * processes (one per core by default). The primary starts the database and the workers; each worker
 * runs every part, its parts calling each other in-process, and the workers share the listening ports
 * (node:cluster). Rate limits, jobs, relays and consumers are shared through PostgreSQL, so any number
 * of workers (or machines) see one budget, one relay per domain and each event applied once.
 */
async function main(): Promise<void> {
  const config = loadPlatformConfig();
  const logger = createLogger('platform', config.logLevel);
  if (config.workers === 1) return runPlatform(logger);
  if (cluster.isWorker) {
    // A signal to the whole process group (Ctrl-C) reaches the workers too; should the primary be gone
    // first, a worker still closes its servers rather than crash on telling it so.
    cluster.worker!.on('error', (error) => logger.warn({ err: error }, 'primary unreachable'));
    return runPlatform(logger);
  }
  const database = await resolveDatabase(config);
  let stopping = false;
  const fork = () => cluster.fork({ DATABASE_URL: database.url });
  cluster.on('exit', (worker: Worker, code) => {
    if (stopping) return;
    logger.error({ worker: worker.process.pid, code }, 'worker stopped: starting another');
    fork();
  });
  for (let i = 0; i < config.workers; i += 1) fork();
  onShutdown(logger, [
    async () => {
      stopping = true;
      await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => stopWorker(worker!)));
    },
    database.stop,
  ]);
}

/** SIGTERM to a worker, resolving when it has finished its requests and exited. */
function stopWorker(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve();
    worker.once('exit', () => resolve());
    worker.process.kill('SIGTERM');
  });
}

async function runPlatform(logger: Logger): Promise<void> {
  const platform = await startPlatform(loadPlatformConfig());
  logger.info({ rest: platform.restUrl, graphql: platform.gatewayUrl }, 'platform ready');
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    console.log(`\nLoyalty platform is ready\n  REST:    ${platform.restUrl}\n  GraphQL: ${platform.gatewayUrl}\n`);
  }
  onShutdown(logger, [platform.close]);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
