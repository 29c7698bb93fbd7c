import { RequestHandler, Response } from 'express';
import { FormattedExecutionResult, GraphQLFormattedError, GraphQLSchema, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from '../core/auth/internal-credential';
import { validationError } from '../core/errors';
import { Logger, REQUEST_ID_HEADER } from '../core/logger';
import { EventStream } from '../core/rest/event-stream';
import { errorBody, errorFromGraphql, retryAfterOf } from './envelope';
import { OperationVariables } from './variables';

/** A client that reads slower than this much is buffered for it is cut off (it resumes with Last-Event-ID). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface EventStreamOptions {
  apiSchema: GraphQLSchema;
  /** The gateway's GraphQL URL; the stream subscribes over graphql-ws at the same path. */
  gatewayUrl: string;
  heartbeatSeconds: number;
  /** Open streams of this kind in this adapter process. */
  maxOpen: number;
  logger: Logger;
  /** Presented to the gateway, which then does not count the stream's subscription again (this request was counted). */
  internal: InternalCredential;
}

type SubscriptionResult = FormattedExecutionResult<Record<string, unknown>, unknown>;

/**
 * GET `stream.path` (`Last-Event-ID`): `text/event-stream` fed by the stream's subscription through the
 * gateway (graphql-ws, the caller's token). The subscription's first event, once the stream listens,
 * opens the response; an error before it is answered as any route's (401, 403, 429, 400). Then one
 * `data:` line per event, with `id:` for those a reconnecting client resumes after, and a heartbeat every
 * interval. The upstream subscription closes when the client leaves; the response ends when the
 * subscription does.
 */
export function eventStream(stream: EventStream, options: EventStreamOptions): RequestHandler {
  const document = stream.document;
  const variables = new OperationVariables(options.apiSchema, parse(document));
  const url = options.gatewayUrl.replace(/^http/, 'ws');
  const unavailable = { message: `The ${stream.name} is unavailable`, extensions: { code: 'UNAVAILABLE' } };
  let open = 0;
  return async (req, res, next) => {
    try {
      const lastEventId = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
      const { values, errors } = variables.coerce(stream.variables({ query: req.query as Record<string, unknown>, lastEventId: lastEventId || undefined }));
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
      const upstream = client.iterate<Record<string, unknown>>({ query: document, variables: values });
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
        const first: SubscriptionResult | undefined = await upstream.next().then(
          (result) => (result.done ? undefined : result.value),
          (error: unknown) => ({ errors: graphqlErrorsOf(error, unavailable) }),
        );
        const opened = eventOf(first);
        const connected = opened === undefined ? undefined : stream.connected(opened, values);
        if (!connected) {
          if (!closed) answerError(res, first?.errors?.[0] ?? unavailable);
          return;
        }
        if (closed) return;
        res.status(200).set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
        res.flushHeaders();
        const send = (id: string | null, data: Record<string, unknown>) => {
          if (closed) return;
          res.write(`${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
          if (res.writableLength > MAX_BUFFERED_BYTES) close();
        };
        send(null, connected);
        heartbeat = setInterval(() => send(null, stream.heartbeat(values)), options.heartbeatSeconds * 1000);
        for await (const result of { [Symbol.asyncIterator]: () => upstream }) {
          const event = eventOf(result);
          if (!event) break;
          const { id, data } = stream.event(event, values);
          send(id, data);
        }
      } catch (error) {
        if (!closed) options.logger.warn({ err: error, reqId: res.locals.requestId }, `${stream.name} ended by an error`);
      } finally {
        close();
      }
    } catch (error) {
      next(error);
    }
  };
}

/** The event a subscription result carries: the value of its one root field, undefined when null or absent. */
const eventOf = (result: SubscriptionResult | undefined): unknown => (result?.data ? Object.values(result.data)[0] ?? undefined : undefined);

function answerError(res: Response, error: GraphQLFormattedError): void {
  const body = errorFromGraphql(error);
  const retryAfter = retryAfterOf(error);
  if (retryAfter) res.set('Retry-After', retryAfter);
  res.status(body.statusCode).json(body);
}

/** graphql-ws rejects with GraphQL errors, a CloseEvent or an Error. */
function graphqlErrorsOf(error: unknown, unavailable: GraphQLFormattedError): GraphQLFormattedError[] {
  if (Array.isArray(error)) return error as GraphQLFormattedError[];
  return [unavailable];
}
