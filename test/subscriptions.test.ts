import { composeServices } from '@apollo/composition';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLError, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { RunningServer } from '../core/http';
import { createLogger } from '../core/logger';
import { startGateway } from '../gateway/gateway';
import { subscriptionOwners } from '../gateway/subscriptions';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// No domain has a subscription yet, so a small "ticker" subgraph proves the gateway's forwarder.
const TICKER_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { tickerVersion: String }
  type Subscription { ticks(upTo: Int!): Tick! idle: Tick! }
  type Tick { n: Int! caller: String requestId: String }
`;

let gateway: RunningServer;
let ticker: { url: string; close: () => Promise<void> };
let supergraphSdl: string;
/** The ticker's `idle` subscriptions: open (never yielding) and closed. */
const idle = { opened: 0, closed: 0 };
// The gateway below uses the platform's subgraphs and rate limiter: it closes first.
const { platform } = usePlatform({
  beforeClose: async () => {
    await gateway.close();
    await ticker.close();
  },
});

async function startTicker() {
  const schema = buildSubgraphSchema({
    typeDefs: parse(TICKER_SDL),
    resolvers: {
      Subscription: {
        ticks: {
          subscribe: async function* (_root: unknown, { upTo }: { upTo: number }, ctx: { params: Record<string, string> }) {
            if (upTo < 0) throw new GraphQLError('upTo must not be negative', { extensions: { code: 'BAD_REQUEST', errors: [{ field: 'upTo', message: 'must not be negative' }] } });
            for (let n = 1; n <= upTo; n += 1) {
              yield { ticks: { n, caller: ctx.params.authorization ?? null, requestId: ctx.params['x-request-id'] ?? null } };
            }
          },
        },
        idle: {
          subscribe: () => {
            idle.opened += 1;
            const never = new Promise<IteratorResult<unknown>>(() => undefined);
            const iterator = {
              next: () => never,
              return: async () => {
                idle.closed += 1;
                return { value: undefined, done: true };
              },
              [Symbol.asyncIterator]: () => iterator,
            };
            return iterator;
          },
        },
      },
    } as never,
  });
  const server = createServer();
  const wsServer = new WebSocketServer({ server, path: '/graphql' });
  const cleanup = useServer({ schema, context: (ctx) => ({ params: ctx.connectionParams ?? {} }) }, wsServer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    close: async () => {
      await cleanup.dispose();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  ticker = await startTicker();
  const composition = composeServices([
    { name: 'auth', url: 'http://auth.invalid/graphql', typeDefs: parse(readFileSync(join(__dirname, '..', 'schema', 'auth.graphql'), 'utf8')) },
    { name: 'ticker', url: 'http://ticker.invalid/graphql', typeDefs: parse(TICKER_SDL) },
  ]);
  if (composition.errors) throw composition.errors[0];
  supergraphSdl = composition.supergraphSdl;
  gateway = await startGateway({
    config: platform.config,
    port: 0,
    host: '127.0.0.1',
    subgraphUrls: { ...platform.subgraphUrls, ticker: ticker.url },
    logger: createLogger('gateway', 'silent'),
    rateLimiter: platform.rateLimiter,
    supergraphSdl,
  });
});


async function subscribe(query: string, connectionParams: Record<string, string> = {}) {
  const client = createClient({ url: `ws://127.0.0.1:${gateway.port}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  const results: any[] = [];
  try {
    for await (const result of client.iterate({ query })) results.push(result);
  } catch (error) {
    results.push({ thrown: error });
  } finally {
    await client.dispose();
  }
  return results;
}

it('knows which subgraph owns each subscription field', () => {
  expect(subscriptionOwners(supergraphSdl)).toEqual(new Map([['ticks', 'ticker'], ['idle', 'ticker']]));
});

it('forwards a subscription to the owning subgraph with the caller credentials and relays every event', async () => {
  const results = await subscribe('subscription { ticks(upTo: 3) { n caller requestId } }', {
    authorization: 'Bearer some-token',
    'x-request-id': 'sub-req-1',
  });
  expect(results).toEqual([1, 2, 3].map((n) => ({ data: { ticks: { n, caller: 'Bearer some-token', requestId: 'sub-req-1' } } })));
});

it('maps upstream errors to GraphQL errors with their code, not a string', async () => {
  const results = await subscribe('subscription { ticks(upTo: -1) { n } }');
  const errors = results.flatMap((result) => result.errors ?? result.thrown ?? []);
  expect(errors).toEqual([
    expect.objectContaining({ message: 'upTo must not be negative', extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) }),
  ]);
});

it('validates a subscription against the API schema before forwarding it', async () => {
  const results = await subscribe('subscription { nothing { n } }');
  expect(results).toHaveLength(1);
  const [errors] = results.map((result) => result.thrown ?? result.errors);
  expect(errors[0].message).toMatch(/Cannot query field "nothing"/);
});

it('closes the upstream subscription as soon as the client leaves, without waiting for an event', async () => {
  const client = createClient({ url: `ws://127.0.0.1:${gateway.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const closedBefore = idle.closed;
  const openedBefore = idle.opened;
  const unsubscribe = client.subscribe({ query: 'subscription { idle { n } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
  await waitFor(async () => idle.opened > openedBefore, 'the upstream subscription to open');
  unsubscribe();
  await client.dispose();
  await waitFor(async () => idle.closed > closedBefore, 'the upstream subscription to close');
});
