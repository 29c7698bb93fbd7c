import { Logger } from './logger';
import { isUnavailable, logFailure } from './unavailable';

/**
 * A serving process ends only on purpose. A rejection nobody handled is logged. An exception nobody
 * caught that says the database went away (a connection's `error` with no listener) is logged and
 * served past: the connection it came from is gone, and the pools open new ones once the database is
 * back. Any other uncaught exception leaves the process in a state nobody knows, so it exits (1), and
 * the supervisor starts another.
 */
export function guardProcess(logger: Logger): void {
  process.on('unhandledRejection', (reason) => logFailure(logger, reason, 'unhandled rejection'));
  process.on('uncaughtException', (error) => {
    if (isUnavailable(error)) return void logger.warn({ err: error }, 'connection lost outside a request: database unavailable');
    logger.fatal({ err: error }, 'uncaught exception: exiting');
    process.exit(1);
  });
}
