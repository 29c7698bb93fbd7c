/**
 * A live stream a domain declares (`DomainSurface.streams`): `GET path` answered `text/event-stream` from
 * one GraphQL subscription that the REST adapter runs on the gateway with the caller's token
 * (rest-adapter/event-stream.ts). The subscription's first event opens the response (an error before it is
 * answered as any route's); then one `data:` line per event, with `id:` for those a reconnecting client
 * resumes after, and a heartbeat every interval.
 */
export interface EventStream<Event = any> {
  /** Needs a Bearer token, like every route that is not public. */
  path: string;
  /**
   * The subscription (one named operation whose one root field yields the events), written on the stream;
   * `npm run schema:check` validates it against the supergraph.
   */
  document: string;
  /** The subscription's variables from the request. */
  variables: (input: StreamInput) => Record<string, unknown>;
  /** What the stream is called in its answers and logs (`notification stream`). */
  name: string;
  /**
   * The data written (without `id`) for the subscription's first event when that event says the stream
   * listens; undefined when it does not, and the response answers the subscription's error instead.
   * `variables` are the subscription's, as coerced.
   */
  connected: (first: Event, variables: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** What each later event is written as. */
  event: (event: Event, variables: Record<string, unknown>) => StreamFrame;
  /** The data of the heartbeat written every interval. */
  heartbeat: (variables: Record<string, unknown>) => Record<string, unknown>;
}

/** What a stream's request gives its variables. */
export interface StreamInput {
  query: Record<string, unknown>;
  /** Where a reconnecting client resumes: its `Last-Event-ID` header, else the query's `lastEventId`. */
  lastEventId?: string;
}

/** One event as written: the `id` a client resumes after (null: none), and its `data`. */
export interface StreamFrame {
  id: string | null;
  data: Record<string, unknown>;
}
