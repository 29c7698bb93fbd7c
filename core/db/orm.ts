import { MikroORM, ReflectMetadataProvider } from '@mikro-orm/core';
import { Migration, Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { Deadlines } from '../config';
import { Logger } from '../logger';

export type MigrationClass = new (...args: any[]) => Migration;

export interface DomainDatabaseOptions {
  url: string;
  /** The domain's own Postgres schema. */
  schema: string;
  entities: Function[];
  migrations: Record<string, MigrationClass>;
  poolSize?: number;
  /** MikroORM filters, e.g. the `live` filter of soft-deletable entities (core/db/soft-deletable.ts). */
  filters?: Record<string, { cond: Record<string, unknown>; default?: boolean; entity?: string[] }>;
  /** A serving domain's limits (core/config.ts) and where its driver's warnings go; tools and tests open the ORM without them. */
  serving?: DomainServing;
}

export interface DomainServing {
  deadlines: Deadlines;
  logger: Logger;
}

/** How much later than the server's statement_timeout the client gives a statement up (the server did not answer at all). */
const CLIENT_GRACE_MS = 2_000;

/**
 * The knex options of a serving domain: a connection is waited for `poolWaitMs` at most; a statement and
 * an idle transaction end after `requestMs` on the server, and the client gives a statement up shortly
 * after should the server not answer at all (paused, or the network path gone). Keepalives find a dead
 * peer. Each failure reaches the request as a 503 (core/unavailable.ts).
 */
const servingOptions = ({ deadlines: { requestMs, poolWaitMs }, logger }: DomainServing) => ({
  acquireConnectionTimeout: poolWaitMs,
  // knex reports a lost connection it discards as a warning, on the console unless told where.
  log: { warn: (message: unknown) => logger.warn({ driver: message }, 'database connection discarded'), error: (message: unknown) => logger.error({ driver: message }, 'database driver error'), deprecate: () => undefined, debug: () => undefined },
  connection: { statement_timeout: requestMs, idle_in_transaction_session_timeout: requestMs, query_timeout: requestMs + CLIENT_GRACE_MS, keepAlive: true },
});

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
    ...(options.serving ? { driverOptions: servingOptions(options.serving) } : {}),
  });
  if (await isMigrated(orm, options)) return orm;
  await withAdvisoryLock(options.url, `migrate:${options.schema}`, async () => {
    const connection = orm.em.getConnection();
    await connection.execute(`create schema if not exists "${options.schema}"`);
    // A migration may rewrite a large table: it is not held to a request's deadline.
    await connection.transactional(async (transaction) => {
      await connection.execute('set local statement_timeout = 0', [], 'run', transaction);
      await orm.getMigrator().up({ transaction });
    });
  });
  return orm;
}

/**
 * Whether the domain's schema has recorded every one of its migrations (every start but the first after a
 * release): one look, without the lock, its connection and the migrator's reading of the catalog. A look
 * that fails (the first start: no table yet) leaves it to the migrator, under the lock.
 */
async function isMigrated(orm: MikroORM<PostgreSqlDriver>, options: DomainDatabaseOptions): Promise<boolean> {
  const withoutExtension = (name: string) => name.replace(/\.[jt]s$/, '');
  try {
    const rows = await orm.em.getConnection().execute<{ name: string }[]>(`select name from "${options.schema}"."mikro_orm_migrations"`);
    const recorded = new Set(rows.map((row) => withoutExtension(row.name)));
    return Object.keys(options.migrations).every((name) => recorded.has(withoutExtension(name)));
  } catch {
    return false;
  }
}

/** Runs `work` while holding a session advisory lock on `key`: one process at a time across the cluster. */
export async function withAdvisoryLock<T>(url: string, key: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  // A connection lost between two statements: the next one fails (and with it `work`), not the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [key]);
    return await work(client);
  } finally {
    await client.end();
  }
}
