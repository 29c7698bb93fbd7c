// Jest global setup: one database for the whole run, on the embedded PostgreSQL or, when DATABASE_URL
// is set, on that server. Every domain's migrations run once, on a template database; the run's
// database, and each file's own (usePlatform's), are copies of it. The run's URL reaches the test
// workers as TEST_DATABASE_URL (a file with a platform points it at its own) and TEST_SERVER_URL (for
// making and dropping databases), the template's name as TEST_TEMPLATE_DATABASE.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../core/db/embedded-postgres.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const withDatabase = (url, name) => {
  const named = new URL(url);
  named.pathname = `/${name}`;
  return named.toString();
};

async function onServer(url, ...statements) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Migrates the template (in a process of its own: the domains are TypeScript), then copies it;
 * `adminUrl` is a connection to another database of the server (a template being copied must have none).
 */
async function prepare(adminUrl, template, database) {
  execFileSync(process.execPath, ['-r', '@swc-node/register', 'test/support/migrated-template.ts', withDatabase(adminUrl, template)], { cwd: root, stdio: 'inherit' });
  await onServer(adminUrl, `create database "${database}" template "${template}"`);
  process.env.TEST_DATABASE_URL = withDatabase(adminUrl, database);
  process.env.TEST_SERVER_URL = process.env.TEST_DATABASE_URL;
  process.env.TEST_TEMPLATE_DATABASE = template;
}

export default async function globalSetup() {
  const database = `loyalty_test_${process.pid}_${Date.now()}`;
  const template = `${database}_template`;
  if (process.env.DATABASE_URL) {
    const server = process.env.DATABASE_URL;
    await onServer(server, `create database "${template}"`);
    await prepare(server, template, database);
    // The run's, its template and the files' (`<run>_file_...`, made by usePlatform).
    globalThis.__stopTestDatabase = async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      try {
        const { rows } = await client.query(`select datname from pg_database where datname = $1 or starts_with(datname, $1 || '_')`, [database]);
        for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
      } finally {
        await client.end();
      }
    };
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-test-'));
  const embedded = await startEmbeddedPostgres({ dataDir, database: template, persistent: false, durable: false });
  await prepare(withDatabase(embedded.url, 'postgres'), template, database);
  globalThis.__stopTestDatabase = async () => {
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
