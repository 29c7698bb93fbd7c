import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of its own on the test server, for a test that must not share (or disturb) the run's database. */
export interface ScratchDatabase {
  url: string;
  /** Drops it, ending whatever connections are still open on it. */
  drop: () => Promise<void>;
}

async function onServer(sql: string): Promise<void> {
  const shared = process.env.TEST_DATABASE_URL;
  if (!shared) throw new Error('TEST_DATABASE_URL is not set: run the tests with npm test');
  const client = new Client({ connectionString: shared });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty database beside the run's (`<prefix>_<random>`), on the same server. */
export async function createScratchDatabase(prefix = 'scratch'): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onServer(`create database "${name}"`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists "${name}" with (force)`) };
}
