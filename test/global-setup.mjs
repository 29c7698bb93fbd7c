// Jest global setup: one fresh database for the whole run, on the embedded PostgreSQL or, when
// DATABASE_URL is set, on that server. Its URL reaches the test workers as TEST_DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../core/db/embedded-postgres.mjs';

export default async function globalSetup() {
  const database = `loyalty_test_${process.pid}_${Date.now()}`;
  if (process.env.DATABASE_URL) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${database}"`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${database}`;
    process.env.TEST_DATABASE_URL = url.toString();
    globalThis.__stopTestDatabase = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists "${database}" with (force)`);
      await client.end();
    };
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-test-'));
  const embedded = await startEmbeddedPostgres({ dataDir, database, persistent: false });
  process.env.TEST_DATABASE_URL = embedded.url;
  globalThis.__stopTestDatabase = async () => {
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
