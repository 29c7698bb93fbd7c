/**
 * Run by the jest global setup in a process of its own (`node -r @swc-node/register`): brings the
 * database named on the command line to every domain's schema (their migrations), installs the job
 * queue's, then starts the whole platform on it once, which creates every job queue (a table of its
 * own each, with its dead-letter queue), subscription and schedule, and closes it. The run's databases
 * are made as copies of it (`create database ... template`) instead of each running every migration and
 * creating some fifty queues again: about 500 tables and indexes of DDL per test file, whose catalog
 * invalidations every open connection of the server then processed.
 */
import 'reflect-metadata';
import { startJobQueue, stopJobQueue } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { openModuleOrm } from '../../core/module';
import { MODULES } from '../../subgraphs/registry';
import { startTestPlatform } from './test-platform';

async function migrate(databaseUrl: string): Promise<void> {
  for (const module of MODULES) await (await openModuleOrm(module, databaseUrl)).close();
  await stopJobQueue(await startJobQueue(databaseUrl, createLogger('test-template', 'silent')));
  await (await startTestPlatform({ DATABASE_URL: databaseUrl })).close();
}

migrate(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
