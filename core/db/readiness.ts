import { RequestHandler } from 'express';
import { Client } from 'pg';
import { isStopping } from '../http';
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from '../unavailable';

/** How long a readiness probe waits for the database before it says not ready. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether this process reaches its database now (`/readyz`): a `select 1` within two seconds on a
 * connection opened for the probe and closed after it, so that a pool exhausted by requests does not
 * make the probe lie either way, and no connection of the probe's outlives it (nothing to close, nothing
 * for a server-side termination to find idle). Probes come every few seconds: a connection each is cheap.
 */
export const databaseReachable =
  (databaseUrl: string) =>
  async (): Promise<boolean> => {
    const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
    // A connection the server ends during the probe fails the probe, not the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

/**
 * `GET /readyz`: 200 while `ready` says so and the process is not stopping, else 503 with Retry-After (a
 * load balancer takes the process out meanwhile): `stopping` once it has begun to shut down.
 */
export const readinessRoute =
  (ready: () => Promise<boolean>): RequestHandler =>
  async (_req, res) => {
    const status = isStopping() ? 'stopping' : (await ready()) ? 'ready' : 'unavailable';
    if (status !== 'ready') res.set('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
    res.status(status === 'ready' ? 200 : 503).json({ statusCode: status === 'ready' ? 200 : 503, data: { status } });
  };

/** `GET /livez`: 200 while the process runs and answers HTTP, whatever its database does (a restart is no cure for an outage). */
export const livenessRoute: RequestHandler = (_req, res) => void res.json({ statusCode: 200, data: { status: 'alive' } });
