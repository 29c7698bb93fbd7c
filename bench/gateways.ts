import autocannon, { Result } from 'autocannon';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { INTERNAL_CREDENTIAL_HEADER, InternalCredential } from '../core/auth/internal-credential';
import { OperationExecutor, RunningGraphqlServer } from '../core/graphql-http';
import { listen, RunningServer } from '../core/http';
import { createLogger } from '../core/logger';
import { readSupergraphSdl } from '../core/supergraph';
import { startGateway } from '../gateway/gateway';
import { routeDocument } from '../test/support/route-documents';
import { startBenchTarget } from './target';

/**
 * `npm run bench:gateways`: the same supergraph and the same subgraphs (over HTTP) behind our Apollo
 * Gateway and behind Hive Gateway, each loaded with the same two queries, in one process. The
 * platform's own gateway (subgraphs called in-process) is shown as a reference. Each gateway is
 * measured ROUNDS times for DURATION_SECONDS, the gateways taking turns, so that a burst of load from
 * elsewhere on the machine does not fall on one of them only. Exits non-zero on a wrong answer.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const WARM_UP_SECONDS = 3;

interface GatewayUnderLoad {
  name: string;
  url: string;
  /** Sent by the load generator besides the staff token. */
  headers?: Record<string, string>;
}

interface Query {
  name: string;
  body: string;
}

const BASELINE = 'Apollo Gateway (HTTP)';

/**
 * The part of @graphql-hive/gateway-runtime this benchmark uses, as its typings name it. Its own
 * typings reference the DOM library (through @whatwg-node/fetch), which would change fetch, Blob and
 * Buffer types across the whole project, so the package is loaded with require.
 */
interface HiveGatewayRuntime {
  (request: IncomingMessage, response: ServerResponse): void;
  dispose(): Promise<void> | void;
}
interface HiveGatewayRuntimeModule {
  createGatewayRuntime(config: {
    supergraph: string;
    transports: Record<string, unknown>;
    transportEntries: Record<string, { location: string; options: { deduplicateInflightRequests: boolean } }>;
    propagateHeaders: {
      fromClientToSubgraphs: (payload: { request: Request; subgraphName: string }) => Record<string, string | null | undefined>;
    };
    logging: 'debug' | 'info' | 'warn' | 'error' | boolean;
    landingPage: boolean;
    graphiql: boolean;
  }): HiveGatewayRuntime;
}

/**
 * Hive Gateway on the committed supergraph, reaching each subgraph at its URL over HTTP with the
 * caller's Authorization and the internal credential the subgraphs require. By default it sends one
 * subgraph request for identical queries in flight at once (same body and headers), which identical
 * load-test requests always are and requests of different callers never are (their tokens differ).
 */
async function startHiveGateway(
  supergraphSdl: string,
  subgraphUrls: Record<string, string>,
  internal: InternalCredential,
  deduplicateInflightRequests: boolean,
): Promise<RunningServer> {
  const { createGatewayRuntime } = require('@graphql-hive/gateway-runtime') as HiveGatewayRuntimeModule;
  const runtime = createGatewayRuntime({
    supergraph: supergraphSdl,
    transports: { http: require('@graphql-mesh/transport-http') },
    transportEntries: Object.fromEntries(Object.entries(subgraphUrls).map(([name, location]) => [name, { location, options: { deduplicateInflightRequests } }])),
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization'), ...internal.headers() }),
    },
    logging: 'warn',
    landingPage: false,
    graphiql: false,
  });
  const server = await listen(runtime, 0);
  return {
    ...server,
    close: async () => {
      await server.close();
      await runtime.dispose();
    },
  };
}

/** A member seen by the auth subgraph, with a point balance (point) and an assigned tier (cluster). */
async function seedMember(gateway: OperationExecutor, authorization: string): Promise<string> {
  const run = async (query: string, variables: Record<string, unknown>) => {
    const answer = await gateway({ query, variables }, { authorization, requestId: randomUUID() });
    if (answer.errors?.length || !answer.data) throw new Error(`seeding failed: ${JSON.stringify(answer.errors)}`);
    return answer.data as Record<string, { id: string }>;
  };
  const { createTier: tier } = await run(routeDocument('CreateTier'), {
    input: { name_en: 'Bench Gold', description_en: 'Assigned to the benchmark member', requirement: { purchaseAmountHit: 1_000_000 } },
  });
  const { createMemberDirect: member } = await run(routeDocument('CreateMemberDirect'), { input: { name: 'Bench Member', phoneNumber: '0800000001' } });
  await run(routeDocument('EarnPoints'), { input: { memberId: member.id, amount: 250.5 }, idempotencyKey: randomUUID() });
  await run(routeDocument('AssignTier'), { input: { memberId: member.id, tierId: tier.id } });
  return member.id;
}

async function post(gateway: GatewayUnderLoad, query: Query, authorization: string): Promise<{ status: number; text: string }> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization, ...gateway.headers },
    body: query.body,
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Every gateway's answer to the query, which must equal Apollo Gateway's (HTTP), carry data and no
 * error. Returns each gateway's exact response text, which every response under load must repeat.
 */
async function verifiedAnswers(gateways: GatewayUnderLoad[], query: Query, authorization: string): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  for (const gateway of gateways) {
    const { status, text } = await post(gateway, query, authorization);
    if (status !== 200) throw new Error(`${gateway.name} answered ${query.name} with ${status}: ${text}`);
    answers.set(gateway.name, text);
  }
  const expected = JSON.parse(answers.get(BASELINE)!);
  if (expected.errors || !expected.data) throw new Error(`${BASELINE} answered ${query.name} with errors: ${answers.get(BASELINE)}`);
  for (const [name, text] of answers) {
    if (!isDeepStrictEqual(JSON.parse(text), expected)) {
      throw new Error(`${name} answered ${query.name} differently from ${BASELINE}:\n${text}\nexpected:\n${answers.get(BASELINE)}`);
    }
  }
  return answers;
}

/** One gateway and query over every round: what the table shows. */
class Measured {
  responses = 0;
  seconds = 0;
  /** Responses whose status or body differs from the verified answer. */
  wrong = 0;
  /** Connection errors and timeouts. */
  errors = 0;
  /** This process's CPU time: the load generator, the gateway and the subgraphs (PostgreSQL excluded). */
  cpuMicros = 0;
  readonly latencies: number[] = [];

  get requestsPerSecond(): number {
    return this.responses / Math.max(1e-9, this.seconds);
  }

  /**
   * CPU time per response. What one row costs more than another for the same query is its gateway's
   * extra cost; it depends far less on what else the machine runs than req/s does.
   */
  get cpuMillisPerResponse(): number {
    return this.cpuMicros / 1000 / Math.max(1, this.responses);
  }

  percentile(p: number): number {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  }
}

/** Loads the gateway with the query for `duration` seconds; adds to `into` when given (else a warm-up). */
function load(gateway: GatewayUnderLoad, query: Query, authorization: string, expected: string, duration: number, into?: Measured): Promise<void> {
  const cpu = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: gateway.url,
        connections: CONNECTIONS,
        duration,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization, ...gateway.headers },
            body: query.body,
            onResponse: (status, body) => {
              if (into && (status !== 200 || body !== expected)) into.wrong++;
            },
          },
        ],
      },
      (error, result: Result) => {
        if (error) return reject(error);
        if (into) {
          const used = process.cpuUsage(cpu);
          into.cpuMicros += used.user + used.system;
          into.responses += result.requests.total;
          into.seconds += result.duration;
          into.errors += result.errors;
        }
        resolve();
      },
    );
    if (into) instance.on('response', (_client, _status, _bytes, responseTime) => into.latencies.push(responseTime));
  });
}

async function main(): Promise<void> {
  const { config, platform, pool, token } = await startBenchTarget();
  const authorization = `Bearer ${token}`;
  const internal = new InternalCredential(config.internalSecret);
  const supergraphSdl = readSupergraphSdl();
  const apolloHttp: RunningGraphqlServer = await startGateway({
    config,
    port: 0,
    host: '127.0.0.1',
    subgraphUrls: platform.subgraphUrls,
    logger: createLogger('gateway-http', 'warn'),
    rateLimiter: platform.rateLimiter,
    supergraphSdl,
  });
  const hive = await startHiveGateway(supergraphSdl, platform.subgraphUrls, internal, false);
  const hiveDeduplicating = await startHiveGateway(supergraphSdl, platform.subgraphUrls, internal, true);
  const apolloUrl = `http://127.0.0.1:${apolloHttp.port}/graphql`;
  const gateways: GatewayUnderLoad[] = [
    { name: BASELINE, url: apolloUrl },
    // The internal credential lets a caller through the gateway's per-caller rate limit (one PostgreSQL upsert per request).
    { name: 'Apollo Gateway (HTTP), no rate limit', url: apolloUrl, headers: { [INTERNAL_CREDENTIAL_HEADER]: config.internalSecret } },
    { name: 'Hive Gateway (HTTP)', url: `http://127.0.0.1:${hive.port}/graphql` },
    { name: 'Hive Gateway (HTTP), deduplicating', url: `http://127.0.0.1:${hiveDeduplicating.port}/graphql` },
    // Rate limited like the first row; its subgraphs are called in-process, not over HTTP.
    { name: 'platform gateway (in-process)', url: platform.gatewayUrl },
  ];

  const memberId = await seedMember(platform.executors.gateway, authorization);
  const queries: Query[] = [
    { name: 'CurrentStaff (auth)', body: JSON.stringify({ query: routeDocument('CurrentStaff'), operationName: 'CurrentStaff' }) },
    {
      name: 'Member (auth+point+cluster)',
      body: JSON.stringify({
        query: routeDocument('Member'),
        operationName: 'Member',
        variables: { id: memberId, includePointBalance: true, includeTier: true, locale: 'en' },
      }),
    },
  ];

  const rows: Array<{ gateway: string; query: string; measured: Measured }> = [];
  try {
    for (const query of queries) {
      const answers = await verifiedAnswers(gateways, query, authorization);
      console.error(`${query.name}: every gateway's answer equals ${BASELINE}'s`);
      const measured = new Map(gateways.map((gateway) => [gateway.name, new Measured()]));
      for (const gateway of gateways) await load(gateway, query, authorization, answers.get(gateway.name)!, WARM_UP_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const gateway of gateways) {
          await load(gateway, query, authorization, answers.get(gateway.name)!, DURATION_SECONDS, measured.get(gateway.name));
        }
      }
      for (const gateway of gateways) rows.push({ gateway: gateway.name, query: query.name, measured: measured.get(gateway.name)! });
    }
  } finally {
    await hive.close();
    await hiveDeduplicating.close();
    await apolloHttp.close();
    await pool.end();
    await platform.close();
  }

  console.log(
    `\nSame supergraph, same subgraphs, one process; ${CONNECTIONS} connections; ${WARM_UP_SECONDS}s warm-up, then ${ROUNDS} rounds of ${DURATION_SECONDS}s per gateway, in turn\n`,
  );
  console.log('gateway                                query                          req/s   p50 ms   p99 ms   vs Apollo HTTP   cpu ms/req   wrong   errors');
  for (const { gateway, query, measured } of rows) {
    const baseline = rows.find((other) => other.gateway === BASELINE && other.query === query)!.measured;
    const ratio = measured.requestsPerSecond / Math.max(1e-9, baseline.requestsPerSecond);
    console.log(
      `${gateway.padEnd(38)} ${query.padEnd(28)} ${measured.requestsPerSecond.toFixed(0).padStart(7)} ${measured.percentile(50).toFixed(0).padStart(8)} ${measured.percentile(99).toFixed(0).padStart(8)} ${`${ratio.toFixed(2)}x`.padStart(16)} ${measured.cpuMillisPerResponse.toFixed(2).padStart(12)} ${String(measured.wrong).padStart(7)} ${String(measured.errors).padStart(8)}`,
    );
  }
  if (rows.some(({ measured }) => measured.wrong > 0 || measured.errors > 0)) {
    console.log('\nFAIL: some responses under load were not the verified answer, or requests failed');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
