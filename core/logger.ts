import type { ApolloServerPlugin } from '@apollo/server';
import pino, { DestinationStream, Logger } from 'pino';

export type { DestinationStream, Logger };

export const REQUEST_ID_HEADER = 'x-request-id';

/** Structured JSON logs; every part names itself in `service`. */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { service, pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** At debug level, one log line per GraphQL operation with the request id it carried. */
export function operationLogPlugin(logger: Logger): ApolloServerPlugin<{ requestId: string }> {
  return {
    async requestDidStart({ contextValue }) {
      if (!logger.isLevelEnabled('debug')) return;
      const started = performance.now();
      return {
        async willSendResponse({ request, errors }) {
          const ms = Math.round((performance.now() - started) * 10) / 10;
          logger.debug({ reqId: contextValue.requestId, operation: request.operationName, ms, errors: errors?.length ?? 0 }, 'operation');
        },
      };
    },
  };
}
