/**
 * Run by the jest global setup in a process of its own (`node -r @swc-node/register`): starts the whole
 * platform once on the database named on the command line, which brings it to every domain's schema
 * (their migrations), installs the job queue's and creates every job queue (a table of its own each,
 * with its dead-letter queue), subscription and schedule, then closes it. The run's databases are made
 * as copies of it (`create database ... template`) instead of each running every migration and creating
 * some fifty queues again: about 500 tables and indexes of DDL per test file, whose catalog
 * invalidations every open connection of the server then processed.
 */
import 'reflect-metadata';
import { startTestPlatform } from './test-platform';

async function migrate(databaseUrl: string): Promise<void> {
  await (await startTestPlatform({ DATABASE_URL: databaseUrl })).close();
}

migrate(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
