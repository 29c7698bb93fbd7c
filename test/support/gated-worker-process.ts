import 'reflect-metadata';
import { once } from 'node:events';
import { startJobQueue, workOn } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';

/**
 * A job worker whose handler waits for a signal, for test/service/job-leases.test.ts: works QUEUE on
 * DATABASE_URL, logs `started` (with the job ids) when a handler begins and finishes it on SIGUSR2.
 * Logs `working` once it fetches.
 */
async function main(): Promise<void> {
  const [url, queue] = ['DATABASE_URL', 'QUEUE'].map((name) => process.env[name]!);
  const logger = createLogger('gated-worker', 'info');
  const boss = await startJobQueue(url, logger, [queue]);
  await workOn(boss, queue, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
    logger.info({ jobs: jobs.map((job) => job.id) }, 'started');
    await once(process, 'SIGUSR2');
  });
  logger.info('working');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
