import pino, { Logger } from 'pino';

export type { Logger };

export const REQUEST_ID_HEADER = 'x-request-id';

/** Structured JSON logs; every part names itself in `service`. */
export function createLogger(service: string, level: string): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
