import { tracing } from '../core/tracing-start';
import 'reflect-metadata';
import cluster, { Worker } from 'node:cluster';
import { resolveDatabase } from '../core/db/database';
import { RestartBackoff } from '../core/restart-backoff';
import { onShutdown } from '../core/http';
import { serveMetrics } from '../core/metrics';
import { createLogger, Logger } from '../core/logger';
import { guardProcess } from '../core/process-guard';
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
  // Before any worker: a port in use stops the start with one clear line.
  const metrics = await serveMetrics(config.metrics.port, config.metrics.host, logger, database.url, true).catch(async (error) => {
    await database.stop();
    throw error;
  });
  let stopping = false;
  const ready = new Set<number>();
  const fork = (slot: RestartBackoff) => {
    const worker = cluster.fork({ DATABASE_URL: database.url });
    const forkedAt = Date.now();
    worker.on('message', (message: WorkerMessage) => {
      if (message?.kind !== 'ready' || ready.has(worker.id)) return;
      ready.add(worker.id);
      // Once, when the first set of workers all serve; a replaced worker later is only logged.
      if (ready.size === config.workers) announceReady(message.restUrl, message.gatewayUrl, config.workers);
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      const livedMs = Date.now() - forkedAt;
      const restartInMs = slot.next(livedMs);
      logger.error({ worker: worker.process.pid, code, signal, livedMs, restartInMs }, 'worker died: starting another after a pause');
      const timer = setTimeout(() => {
        pending.delete(timer);
        fork(slot);
      }, restartInMs);
      pending.add(timer);
    });
  };
  /** Re-forks waiting for their pause: cancelled on shutdown. */
  const pending = new Set<NodeJS.Timeout>();
  for (let i = 0; i < config.workers; i += 1) fork(new RestartBackoff());
  onShutdown(logger, [
    async () => {
      stopping = true;
      for (const timer of pending) clearTimeout(timer);
      await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => stopWorker(worker!)));
    },
    metrics.close,
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

/** What a worker tells the primary: it serves, at these URLs. */
interface WorkerMessage {
  kind: 'ready';
  restUrl: string;
  gatewayUrl: string;
}

function announceReady(restUrl: string, gatewayUrl: string, workers: number): void {
  const processes = workers === 1 ? '' : ` (${workers} workers)`;
  console.log(`\nLoyalty platform is ready${processes}\n  REST:    ${restUrl}\n  GraphQL: ${gatewayUrl}\n`);
}

async function runPlatform(logger: Logger): Promise<void> {
  guardProcess(logger);
  const config = loadPlatformConfig();
  // A worker's metrics are served by the primary, summed with the others'.
  const platform = await startPlatform(config);
  const metrics = cluster.isWorker ? undefined : await serveMetrics(config.metrics.port, config.metrics.host, logger, platform.databaseUrl);
  logger.info({ rest: platform.restUrl, graphql: platform.gatewayUrl }, 'platform ready');
  if (cluster.isWorker) process.send!({ kind: 'ready', restUrl: platform.restUrl, gatewayUrl: platform.gatewayUrl } satisfies WorkerMessage);
  else announceReady(platform.restUrl, platform.gatewayUrl, 1);
  onShutdown(logger, [platform.close, async () => metrics?.close(), async () => tracing?.shutdown()], config.deadlines.shutdownDelayMs);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
