import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { startJobQueue, stopJobQueue } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';
import { DomainModule, openModuleOrm } from '../../core/module';

export interface ModuleJobs {
  /** A fresh EntityManager of the domain on the file's platform database, to run a job's service directly. */
  em: () => EntityManager;
  /** The platform's job queue, to send a job or an event to the platform's own handlers. */
  boss: () => PgBoss;
}

/**
 * For an end-to-end file that runs a domain's jobs itself (as the platform's schedule would): registers
 * a beforeAll opening the domain's ORM and a job queue client on the file's database
 * (`TEST_DATABASE_URL`, so declare it after `usePlatform`), and an afterAll closing both.
 */
export function useModuleJobs(module: Pick<DomainModule, 'contract' | 'entities' | 'migrations'>): ModuleJobs {
  let orm: MikroORM<PostgreSqlDriver> | undefined;
  let queue: PgBoss | undefined;
  beforeAll(async () => {
    orm = await openModuleOrm(module, process.env.TEST_DATABASE_URL!);
    queue = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
  });
  afterAll(async () => {
    if (queue) await stopJobQueue(queue);
    await orm?.close();
  });
  const opened = <T>(value: T | undefined): T => {
    if (!value) throw new Error(`the ${module.contract.name} jobs are used before useModuleJobs's beforeAll ran`);
    return value;
  };
  return { em: () => opened(orm).em.fork() as EntityManager, boss: () => opened(queue) };
}
