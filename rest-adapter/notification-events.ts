import { RequestHandler, Response } from 'express';
import { FormattedExecutionResult, GraphQLFormattedError, GraphQLSchema, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from '../core/auth/internal-credential';
import { validationError } from '../core/errors';
import { Logger, REQUEST_ID_HEADER } from '../core/logger';
import { errorBody, errorFromGraphql, retryAfterOf } from './envelope';
import { OPERATIONS } from './operations';
import { OperationVariables } from './variables';

/** Spec Part 2, Events: the member's notification stream. */
export const NOTIFICATION_EVENTS_PATH = '/notification/api/in-apps/me/events';
/** A client that reads slower than this much is buffered for it is cut off (it resumes with Last-Event-ID). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface NotificationEventStreamOptions {
  apiSchema: GraphQLSchema;
  /** The gateway's GraphQL URL; the stream subscribes over graphql-ws at the same path. */
  gatewayUrl: string;
  heartbeatSeconds: number;
  /** Open streams of this adapter process. */
  maxOpen: number;
  logger: Logger;
  /** Presented to the gateway, which then does not count the stream's subscription again (this request was counted). */
  internal: InternalCredential;
}

interface StreamEvent {
  id: string | null;
  type: 'connected' | 'new_notification' | 'notification_read';
  timestamp: string;
  notification: Record<string, unknown> | null;
  read: { notificationId: string | null; updatedCount: number; readAt: string } | null;
}

/**
 * GET /notification/api/in-apps/me/events (`locale`, `Last-Event-ID`): `text/event-stream` fed by the
 * `myNotificationEvents` subscription through the gateway (graphql-ws, the caller's token). The
 * subscription's first event (`connected`, sent once the member's stream listens) opens the response;
 * an error before it is answered as any route's (401, 403, 429, 400). Then one `data:` line per event,
 * with `id:` for those a reconnecting client resumes after, and a `heartbeat` every interval. The
 * upstream subscription closes when the client leaves; the response ends when the subscription does.
 */
export function notificationEventStream(options: NotificationEventStreamOptions): RequestHandler {
  const document = OPERATIONS.MyNotificationEvents;
  const variables = new OperationVariables(options.apiSchema, parse(document));
  const url = options.gatewayUrl.replace(/^http/, 'ws');
  let open = 0;
  return async (req, res, next) => {
    try {
      const lastEventId = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
      const { values, errors } = variables.coerce({ locale: req.query.locale, lastEventId: lastEventId || undefined });
      if (errors.length > 0) throw validationError(errors);
      if (open >= options.maxOpen) return void res.status(503).json(errorBody(503, 'Too many open event streams: try again later'));
      open += 1;
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        lazy: true,
        retryAttempts: 0,
        connectionParams: { authorization: req.headers.authorization, [REQUEST_ID_HEADER]: res.locals.requestId, [INTERNAL_CREDENTIAL_HEADER]: options.internal.secret },
      });
      let heartbeat: NodeJS.Timeout | undefined;
      let closed = false;
      const upstream = client.iterate<{ myNotificationEvents: StreamEvent }>({ query: document, variables: values });
      const close = () => {
        if (closed) return;
        closed = true;
        open -= 1;
        clearInterval(heartbeat);
        void upstream.return?.();
        void client.dispose();
        if (!res.writableEnded) res.end();
      };
      req.on('close', close);
      try {
        const locale = (values.locale as string | undefined) ?? null;
        const first: FormattedExecutionResult<{ myNotificationEvents: StreamEvent }, unknown> | undefined = await upstream.next().then(
          (result) => (result.done ? undefined : result.value),
          (error: unknown) => ({ errors: graphqlErrorsOf(error) }),
        );
        const opened = first?.data?.myNotificationEvents;
        if (opened?.type !== 'connected') {
          if (!closed) answerError(res, first?.errors?.[0]);
          return;
        }
        if (closed) return;
        res.status(200).set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
        res.flushHeaders();
        const send = (id: string | null, event: Record<string, unknown>) => {
          if (closed) return;
          res.write(`${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
          if (res.writableLength > MAX_BUFFERED_BYTES) close();
        };
        send(null, { type: 'connected', message: 'Connected to the notification stream', timestamp: opened.timestamp, locale });
        heartbeat = setInterval(() => send(null, { type: 'heartbeat', timestamp: new Date().toISOString(), locale }), options.heartbeatSeconds * 1000);
        for await (const result of { [Symbol.asyncIterator]: () => upstream }) {
          const event = result.data?.myNotificationEvents;
          if (!event) break;
          send(event.id, sseEvent(event, locale));
        }
      } catch (error) {
        if (!closed) options.logger.warn({ err: error, reqId: res.locals.requestId }, 'notification stream ended by an error');
      } finally {
        close();
      }
    } catch (error) {
      next(error);
    }
  };
}

/** What the client reads of an event: its `type`, the notification or what was read under `data`, the time and locale. */
function sseEvent(event: StreamEvent, locale: string | null): Record<string, unknown> {
  const data = event.type === 'new_notification' ? event.notification : event.read;
  return { type: event.type, data, timestamp: event.timestamp, locale };
}

function answerError(res: Response, error: GraphQLFormattedError | undefined): void {
  const body = errorFromGraphql(error ?? { message: 'The notification stream is unavailable', extensions: { code: 'UNAVAILABLE' } });
  const retryAfter = error && retryAfterOf(error);
  if (retryAfter) res.set('Retry-After', retryAfter);
  res.status(body.statusCode).json(body);
}

/** graphql-ws rejects with GraphQL errors, a CloseEvent or an Error. */
function graphqlErrorsOf(error: unknown): GraphQLFormattedError[] {
  if (Array.isArray(error)) return error as GraphQLFormattedError[];
  return [{ message: 'The notification stream is unavailable', extensions: { code: 'UNAVAILABLE' } }];
}
