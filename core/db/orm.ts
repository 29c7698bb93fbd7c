import { MikroORM, ReflectMetadataProvider } from '@mikro-orm/core';
import { Migration, Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';

export type MigrationClass = new (...args: any[]) => Migration;

export interface DomainDatabaseOptions {
  url: string;
  /** The domain's own Postgres schema. */
  schema: string;
  entities: Function[];
  migrations: Record<string, MigrationClass>;
  poolSize?: number;
  /** MikroORM filters, e.g. the catalogs' `live` filter (core/catalog). */
  filters?: Record<string, { cond: Record<string, unknown>; default?: boolean; entity?: string[] }>;
}

/**
 * Opens the ORM for one domain, bound to its own Postgres schema, and brings that schema up to date.
 * Migrations run under an advisory lock so that instances starting together apply them once.
 */
export async function openDomainOrm(options: DomainDatabaseOptions): Promise<MikroORM<PostgreSqlDriver>> {
  const orm = await MikroORM.init<PostgreSqlDriver>({
    driver: PostgreSqlDriver,
    clientUrl: options.url,
    schema: options.schema,
    entities: options.entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: false },
    // Each domain's own name for MikroORM's async context: a transaction is found again by the code it
    // calls, and a domain called in-process from inside another's transaction (through the gateway)
    // must not take that transaction, on the other domain's schema, for its own.
    contextName: options.schema,
    // Registered, not looked up: MikroORM would resolve the package from the working directory, and
    // takes one whose name has a dot (`/tmp/tmp.x1y2`) for a file.
    extensions: [Migrator],
    pool: { min: 0, max: options.poolSize ?? 10 },
    migrations: {
      tableName: 'mikro_orm_migrations',
      silent: true,
      transactional: true,
      allOrNothing: true,
      migrationsList: Object.entries(options.migrations).map(([name, migration]) => ({ name, class: migration })),
    },
    forceUtcTimezone: true,
    filters: options.filters ?? {},
  });
  await withAdvisoryLock(options.url, `migrate:${options.schema}`, async () => {
    await orm.em.getConnection().execute(`create schema if not exists "${options.schema}"`);
    await orm.getMigrator().up();
  });
  return orm;
}

/** Runs `work` while holding a session advisory lock on `key`: one process at a time across the cluster. */
export async function withAdvisoryLock<T>(url: string, key: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [key]);
    return await work(client);
  } finally {
    await client.end();
  }
}
