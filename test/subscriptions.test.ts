import { composeServices } from '@apollo/composition';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLError, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { AccessTokens } from '../core/auth/jwt';
import { Principal } from '../core/auth/principal';
import { RunningServer } from '../core/http';
import { CallerRateLimiter } from '../core/rate-limit';
import { createLogger } from '../core/logger';
import { startGateway } from '../gateway/gateway';
import { subscriptionOwners, TOO_MANY_SOCKETS_CLOSE_CODE } from '../gateway/subscriptions';
import { usePlatform } from './support/use-platform';
import { openTestRateLimiter } from './support/test-platform';
import { waitFor } from './support/wait-for';

// No domain has a subscription yet, so a small "ticker" subgraph proves the gateway's forwarder.
const TICKER_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { tickerVersion: String }
  type Subscription { ticks(upTo: Int!): Tick! idle: Tick! }
  type Tick { n: Int! caller: String requestId: String next: Tick }
`;

let gateway: RunningServer;
let ticker: { url: string; close: () => Promise<void> };
let supergraphSdl: string;
/** The ticker's `idle` subscriptions: open (never yielding) and closed. */
const idle = { opened: 0, closed: 0 };
/** Gateways and rate limiters of single tests, closed with the platform. */
const extra: Array<{ close: () => Promise<void> }> = [];
// The gateways below use the platform's subgraphs (and the first its rate limiter): they close first.
const { platform } = usePlatform({
  beforeClose: async () => {
    for (const part of extra) await part.close();
    await gateway.close();
    await ticker.close();
  },
});
/** A member's access token: the gateway's sockets acknowledge no one else. */
let token: string;

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
  gateway = await tickerGateway(platform.rateLimiter);
  token = (await platform.loginMember()).token;
});

/** A gateway over the auth and ticker subgraphs, with sockets settings over the platform's. */
function tickerGateway(rateLimiter: CallerRateLimiter, gatewaySockets = platform.config.gatewaySockets): Promise<RunningServer> {
  return startGateway({
    config: { ...platform.config, gatewaySockets },
    port: 0,
    host: '127.0.0.1',
    subgraphUrls: { ...platform.subgraphUrls, ticker: ticker.url },
    logger: createLogger('gateway', 'silent'),
    rateLimiter,
    supergraphSdl,
  });
}

const socketUrl = (server: RunningServer) => `ws://127.0.0.1:${server.port}/graphql`;


async function subscribe(query: string, connectionParams: Record<string, string> = { authorization: `Bearer ${token}` }, server = gateway) {
  const client = createClient({ url: socketUrl(server), webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
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
    authorization: `Bearer ${token}`,
    'x-request-id': 'sub-req-1',
  });
  expect(results).toEqual([1, 2, 3].map((n) => ({ data: { ticks: { n, caller: `Bearer ${token}`, requestId: 'sub-req-1' } } })));
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
  const client = createClient({ url: socketUrl(gateway), webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${token}` } });
  const closedBefore = idle.closed;
  const openedBefore = idle.opened;
  const unsubscribe = client.subscribe({ query: 'subscription { idle { n } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
  await waitFor(async () => idle.opened > openedBefore, 'the upstream subscription to open');
  unsubscribe();
  await client.dispose();
  await waitFor(async () => idle.closed > closedBefore, 'the upstream subscription to close');
});

/** The errors a subscription ended with: sent as an error message, or thrown by the client. */
const errorsOf = (results: any[]) => results.flatMap((result) => result.thrown ?? result.errors ?? []);

/** How a raw graphql-ws connection ends up: acknowledged (and left open), closed with a code, or refused at the upgrade. */
type SocketOutcome = { acknowledged: WebSocket } | { closed: number; reason: string } | { refused: number };

function connect(server: RunningServer, payload: Record<string, unknown>): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(socketUrl(server), 'graphql-transport-ws');
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') resolve({ acknowledged: socket });
    });
    socket.once('close', (code, reason) => resolve({ closed: code, reason: String(reason) }));
    socket.once('unexpected-response', (_request, response) => resolve({ refused: response.statusCode ?? 0 }));
    socket.on('error', () => undefined);
  });
}

const closeSocket = (socket: WebSocket) => new Promise((resolve) => {
  socket.once('close', resolve);
  socket.close();
});

describe('who the gateway\'s sockets serve', () => {
  it('acknowledges connection_init only with a valid access token, closing the others with 4403', async () => {
    const forged = await new AccessTokens('another-secret-of-at-least-32-characters').sign(new Principal('member', randomUUID(), 'member', []));
    for (const payload of [{}, { authorization: 'Bearer not-a-token' }, { authorization: `Bearer ${forged}` }, { authorization: token }]) {
      expect(await connect(gateway, payload)).toEqual({ closed: 4403, reason: 'Forbidden' });
    }
    const accepted = await connect(gateway, { authorization: `Bearer ${token}` });
    expect(accepted).toEqual({ acknowledged: expect.any(WebSocket) });
    await closeSocket((accepted as { acknowledged: WebSocket }).acknowledged);
    // Nothing is forwarded for a socket that was never acknowledged.
    const results = await subscribe('subscription { ticks(upTo: 1) { n } }', {});
    expect(results).toEqual([{ thrown: expect.objectContaining({ code: 4403 }) }]);
  });

  it('holds a few sockets per caller and a bound in all, and frees a place when a socket closes', async () => {
    const capped = await tickerGateway(platform.rateLimiter, { perCaller: 2, maxOpen: 4 });
    extra.push(capped);
    const other = (await platform.loginMember()).token;
    const as = (bearer: string) => connect(capped, { authorization: `Bearer ${bearer}` });
    const [first, second] = [await as(token), await as(token)];
    expect([first, second]).toEqual([{ acknowledged: expect.any(WebSocket) }, { acknowledged: expect.any(WebSocket) }]);
    expect(await as(token)).toEqual({ closed: TOO_MANY_SOCKETS_CLOSE_CODE, reason: 'Too many open sockets for this caller' });
    // Another caller has places of its own, up to the bound of the process.
    const [third, fourth] = [await as(other), await as(other)];
    expect([third, fourth]).toEqual([{ acknowledged: expect.any(WebSocket) }, { acknowledged: expect.any(WebSocket) }]);
    expect(await as((await platform.loginMember()).token)).toEqual({ refused: 503 });
    await closeSocket((first as { acknowledged: WebSocket }).acknowledged);
    const again = await waitFor(async () => {
      const outcome = await as(token);
      return 'acknowledged' in outcome ? outcome : undefined;
    }, 'the closed socket\'s place to be free');
    for (const open of [again, second, third, fourth]) await closeSocket((open as { acknowledged: WebSocket }).acknowledged);
  });
});

describe('the operation limits of HTTP on the socket', () => {
  it('refuses a subscription too deep or with too many aliases before forwarding it', async () => {
    const deep = `subscription { ticks(upTo: 1) { ${'next { '.repeat(12)}n${' }'.repeat(12)} } }`;
    expect(errorsOf(await subscribe(deep))).toEqual([expect.objectContaining({ message: expect.stringMatching(/depth limit of 10 exceeded/i) })]);
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: n`).join(' ');
    expect(errorsOf(await subscribe(`subscription { ticks(upTo: 1) { ${aliases} } }`))).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/aliases limit of 15 exceeded/i) }),
    ]);
  });

  it('hides field suggestions and serves only subscriptions', async () => {
    const [misspelt] = errorsOf(await subscribe('subscription { ticks(upTo: 1) { nn } }'));
    expect(misspelt.message).toMatch(/^Cannot query field "nn" on type "Tick"\. \[Suggestion hidden\]/);
    expect(misspelt.message).not.toMatch(/Did you mean/);
    expect(errorsOf(await subscribe('{ tickerVersion }'))).toEqual([expect.objectContaining({ extensions: { code: 'BAD_REQUEST' } })]);
  });
});

describe('subscriptions under the rate limit', () => {
  it('counts each subscription against its caller, refusing past the limit, but not the REST adapter\'s (counted there)', async () => {
    const limiter = await openTestRateLimiter({ standardPerHour: 3, premiumPerHour: 3 });
    const limited = await tickerGateway(limiter);
    extra.push(limited, { close: () => limiter.close() });
    const caller = (await platform.loginMember()).token;
    const http = () =>
      fetch(`http://127.0.0.1:${limited.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${caller}` },
        body: JSON.stringify({ query: '{ currentMember { id } }' }),
      });
    const subscribeAs = (params: Record<string, string>) => subscribe('subscription { ticks(upTo: 1) { n } }', { authorization: `Bearer ${caller}`, ...params }, limited);
    expect((await http()).headers.get('x-ratelimit-remaining')).toBe('2');
    expect(await subscribeAs({ 'x-internal-credential': platform.config.internalSecret })).toEqual([{ data: { ticks: { n: 1 } } }]);
    expect(await subscribeAs({})).toEqual([{ data: { ticks: { n: 1 } } }]);
    expect((await http()).headers.get('x-ratelimit-remaining')).toBe('0');
    const [refused] = errorsOf(await subscribeAs({}));
    expect(refused).toMatchObject({ message: 'Too many requests: rate limit exceeded', extensions: { code: 'RATE_LIMITED', retryAfter: expect.any(Number) } });
  });
});
