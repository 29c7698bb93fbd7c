import { RequestHandler } from 'express';
import { Pool } from 'pg';
import { isStopping } from '../http';
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from '../unavailable';

/** How long a readiness probe waits for the database before it says not ready. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether this process reaches its database now (`/readyz`): a `select 1` on a connection of its own,
 * so that a pool exhausted by requests does not make the probe lie either way, within two seconds.
 */
export class DatabaseReadiness {
  private readonly pool: Pool;

  constructor(databaseUrl: string) {
    this.pool = new Pool({ connectionString: databaseUrl, max: 1, idleTimeoutMillis: 30_000, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
    // A lost idle connection: the next probe connects again.
    this.pool.on('error', () => undefined);
  }

  readonly ready = (): Promise<boolean> =>
    this.pool.query('select 1').then(
      () => true,
      () => false,
    );

  close(): Promise<void> {
    return this.pool.end();
  }
}

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
