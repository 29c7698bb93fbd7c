import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of its own on the test server, for a test that must not share (or disturb) the run's database. */
export interface ScratchDatabase {
  url: string;
  /** Drops it, ending whatever connections are still open on it. */
  drop: () => Promise<void>;
}

/** Runs `sql` connected to the run's shared database (never one being made or dropped). */
async function onServer(sql: string): Promise<void> {
  const shared = process.env.TEST_SERVER_URL;
  if (!shared) throw new Error('TEST_SERVER_URL is not set: run the tests with npm test');
  const client = new Client({ connectionString: shared });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database beside the run's (`<prefix>_<random>`), on the same server: empty, or `migrated`,
 * a copy of the run's template (every domain's schema, no rows: as after the migrations of a first start).
 */
export async function createScratchDatabase(prefix = 'scratch', { migrated = false } = {}): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (migrated && !template) throw new Error('TEST_TEMPLATE_DATABASE is not set: run the tests with npm test');
  await onServer(migrated ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  const url = new URL(process.env.TEST_SERVER_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists "${name}" with (force)`) };
}

/** The name of the run's shared database: databases named `<it>_...` are dropped by the global teardown. */
export const runDatabaseName = (): string => new URL(process.env.TEST_SERVER_URL!).pathname.slice(1);
