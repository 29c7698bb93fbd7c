import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { DomainModule, openModuleOrm } from '../../core/module';
import { createScratchDatabase, ScratchDatabase } from './scratch-database';

export interface ModuleDatabase {
  /** The domain's ORM on the file's own database. */
  readonly orm: MikroORM<PostgreSqlDriver>;
  /** A fresh EntityManager (what a request or a job gets). */
  em: () => EntityManager;
  /** Runs SQL outside any transaction, for fixtures and for checking what a service wrote. */
  query: <T = any>(sql: string, params?: unknown[]) => Promise<T[]>;
}

/**
 * The service layer's setup: registers a beforeAll that creates a database for this test file alone
 * and brings the domain's schema up to date on it (its migrations), and an afterAll that drops it.
 * Nothing else shares it: a test may count rows, run the domain's jobs over all of them, or fill a
 * table without disturbing another file. The migrations name their schema (`point.point_lot`), so a
 * fresh schema means a fresh database.
 */
export function useModuleDatabase(module: Pick<DomainModule, 'contract' | 'entities' | 'migrations'>): ModuleDatabase {
  let database: ScratchDatabase | undefined;
  let orm: MikroORM<PostgreSqlDriver> | undefined;
  const opened = () => {
    if (!orm) throw new Error(`the ${module.contract.name} database is used before useModuleDatabase's beforeAll ran`);
    return orm;
  };
  beforeAll(async () => {
    database = await createScratchDatabase(`svc_${module.contract.name}`);
    orm = await openModuleOrm(module, database.url);
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });
  return {
    get orm() {
      return opened();
    },
    em: () => opened().em.fork(),
    query: (sql, params = []) => opened().em.fork().execute(sql, params),
  };
}
