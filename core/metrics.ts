import cluster from 'node:cluster';
import { RequestHandler } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';
import { databaseMetrics } from './database-metrics';
import { listen, RunningServer } from './http';
import { Logger } from './logger';

/**
 * This process's metrics (Prometheus, prom-client), served at `/metrics` on METRICS_PORT
 * (`serveMetrics`). An AggregatorRegistry so that, in a worker of `npm start`, it answers the
 * primary's request for its metrics: the primary's scrape sums every worker's.
 */
export const registry = new AggregatorRegistry();
if (cluster.isWorker) AggregatorRegistry.setRegistries([registry]);
collectDefaultMetrics({ register: registry });

/** Seconds of an HTTP request, by part, route template (or mount path; `unmatched` for none), method and status. */
export const httpRequestSeconds = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests answered, by part (rest, gateway), route template, method and status, and their duration in seconds',
  labelNames: ['part', 'route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** GraphQL operations the gateway ran, by operation name and outcome (`success`, or `error`: an answer with errors). */
export const graphqlOperations = new Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations run by the gateway (over HTTP and for the REST adapter), by operation name and outcome',
  labelNames: ['operation', 'outcome'] as const,
  registers: [registry],
});

/** Requests refused by a caller's rate limit, by tier (standard, premium, enterprise). */
export const rateLimitRefusals = new Counter({
  name: 'rate_limit_refusals_total',
  help: 'Requests refused with 429 by the per-caller rate limit, by tier',
  labelNames: ['tier'] as const,
  registers: [registry],
});

/** Webhook delivery attempts by outcome (`succeeded`; `failed`: retried later, or the last try). */
export const webhookDeliveryAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome (succeeded, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Seconds from a webhook delivery's creation (its event fanned out to the webhook) to the receiver's 2xx. */
export const webhookDeliveryLag = new Histogram({
  name: 'webhook_delivery_lag_seconds',
  help: "Seconds from a webhook delivery's creation (its event fanned out) to the receiver's 2xx, retries included",
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600],
  registers: [registry],
});

/** Notification sends by channel and outcome (`delivered`, `retried`: a temporary failure tried again later, `failed`). */
export const notificationSends = new Counter({
  name: 'notification_sends_total',
  help: 'Notification deliveries attempted, by channel (in_app, email, sms, chatapp) and outcome (delivered, retried, failed)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

/** What a database pool says of its connections (tarn's, under MikroORM's knex). */
export interface PoolStats {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The pools of each domain in this process (a test process runs several platforms). */
const pools = new Map<PoolStats, string>();

new Gauge({
  name: 'db_pool_connections',
  help: "Each domain's database pool: connections in use, idle, and requests waiting for one",
  labelNames: ['domain', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [pool, domain] of pools) {
      this.inc({ domain, state: 'in_use' }, pool.numUsed());
      this.inc({ domain, state: 'idle' }, pool.numFree());
      this.inc({ domain, state: 'waiting' }, pool.numPendingAcquires());
    }
  },
});

/** Reports a domain's pool in `db_pool_connections` until the returned function is called. */
export function watchPool(domain: string, pool: PoolStats): () => void {
  pools.set(pool, domain);
  return () => void pools.delete(pool);
}

/** An operation's name as a label: `anonymous` without one (names are the clients' own and few). */
export const operationLabel = (name: string | null | undefined): string => name || 'anonymous';

/** Observes each request of a part's HTTP server once it is answered, by the route template that served it. */
export function observeHttp(part: string): RequestHandler {
  return (req, res, next) => {
    const end = httpRequestSeconds.startTimer();
    res.once('finish', () => {
      // A route's template; else where a mounted handler answered (the gateway's /graphql); else none matched.
      const route = req.route?.path !== undefined ? `${req.baseUrl}${req.route.path}` : req.baseUrl || 'unmatched';
      end({ part, route, method: req.method, status: String(res.statusCode) });
    });
    next();
  };
}

/**
 * `GET /metrics` on its own listener (METRICS_PORT on METRICS_HOST, loopback by default): this
 * process's metrics, or, in the primary of `npm start` (`ofWorkers`), every worker's summed; then what
 * the database says (core/database-metrics.ts), read by this process alone.
 */
export async function serveMetrics(port: number, host: string, logger: Logger, databaseUrl: string, ofWorkers = false): Promise<RunningServer> {
  const database = databaseMetrics(databaseUrl);
  const server = await listen(async (request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    try {
      const own = ofWorkers ? await registry.clusterMetrics() : await registry.metrics();
      response.writeHead(200, { 'content-type': registry.contentType }).end(`${own}\n${await database.registry.metrics()}`);
    } catch (error) {
      logger.warn({ err: error }, 'metrics not collected');
      response.writeHead(503).end();
    }
  }, port, host).catch(async (error) => {
    await database.close();
    throw error;
  });
  logger.info({ url: `http://${host}:${server.port}/metrics` }, 'metrics listening');
  return {
    ...server,
    close: async () => {
      await server.close();
      await database.close();
    },
  };
}
