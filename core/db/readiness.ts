import { RequestHandler } from 'express';
import { Pool } from 'pg';
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

/** `GET /readyz`: 200 while `ready` says so, else 503 with Retry-After (a load balancer takes the process out meanwhile). */
export const readinessRoute =
  (ready: () => Promise<boolean>): RequestHandler =>
  async (_req, res) => {
    const isReady = await ready();
    if (!isReady) res.set('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
    res.status(isReady ? 200 : 503).json({ statusCode: isReady ? 200 : 503, data: { status: isReady ? 'ready' : 'unavailable' } });
  };
