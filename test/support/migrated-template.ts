/**
 * Run by the jest global setup in a process of its own (`node -r @swc-node/register`): brings the
 * database named on the command line to every domain's schema (their migrations) and installs the job
 * queue's, then closes every connection, so that the run's databases are made as copies of it
 * (`create database ... template`) instead of each running every migration again.
 */
import 'reflect-metadata';
import { startJobQueue, stopJobQueue } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { openModuleOrm } from '../../core/module';
import { MODULES } from '../../subgraphs/registry';

async function migrate(databaseUrl: string): Promise<void> {
  for (const module of MODULES) await (await openModuleOrm(module, databaseUrl)).close();
  await stopJobQueue(await startJobQueue(databaseUrl, createLogger('test-template', 'silent')));
}

migrate(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
