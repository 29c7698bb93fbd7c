import { Agent, request } from 'node:http';
import { listen } from '../core/http';
import { RowLookup } from '../core/db/row-lookup';
import { openModuleOrm } from '../core/module';
import { createLogger } from '../core/logger';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from '../rest-adapter/app';
import { Staff } from '../subgraphs/auth/entities/staff';
import { moduleNamed, platformSurface } from '../subgraphs/registry';
import { STAFF_SELECT, startBenchTarget } from './target';
import { routeDocument } from '../test/support/route-documents';

/**
 * `npm run bench:layers`: where the time of GET /auth/api/staffs/me goes, layer by layer, in one
 * process. Each layer runs the same read BENCH_OPERATIONS times, BENCH_IN_FLIGHT at a time, and
 * reports the process's CPU time per operation (user + system, what limits the request rate on a busy
 * machine) and the wall time per operation, the lowest of BENCH_ROUNDS interleaved rounds. A layer's
 * own cost is its figure minus the layer it calls.
 */
const OPERATIONS_PER_LAYER = Number(process.env.BENCH_OPERATIONS ?? 4000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 10);
/** The layers are measured round after round, interleaved; each keeps its lowest figures (the least disturbed). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface LayerFigures {
  cpuMicros: number;
  wallMicros: number;
}

async function measure(operation: () => Promise<unknown>): Promise<LayerFigures> {
  const runMany = async (count: number) => {
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < count) await operation();
    }));
  };
  await runMany(Math.ceil(OPERATIONS_PER_LAYER / 4)); // warm-up: JIT, caches, pooled connections
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await runMany(OPERATIONS_PER_LAYER);
  const wall = Number(process.hrtime.bigint() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuMicros: (used.user + used.system) / OPERATIONS_PER_LAYER, wallMicros: wall / OPERATIONS_PER_LAYER };
}

/** A GET over a keep-alive connection that must answer 200: the client's cost is the same for every HTTP layer. */
function httpGetter(url: string, token: string): () => Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  return () =>
    new Promise((resolve, reject) => {
      request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        response.resume();
        response.once('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${response.statusCode}`))));
      })
        .once('error', reject)
        .end();
    });
}

function mustSucceed(answer: { errors?: readonly unknown[]; data?: unknown }): void {
  if (answer.errors?.length || !answer.data) throw new Error(`operation failed: ${JSON.stringify(answer.errors)}`);
}

async function main(): Promise<void> {
  const { config, platform, pool, token, staffId, baseline } = await startBenchTarget();
  baseline.get('/baseline/empty', (_req, res) => void res.json({}));
  const baselineServer = await listen(baseline, 0, '127.0.0.1');
  const orm = await openModuleOrm(moduleNamed('auth')!, platform.databaseUrl);
  const liveStaffById = new RowLookup(Staff, 'id', { live: true });
  const caller = { authorization: `Bearer ${token}`, requestId: 'bench-layers' };
  const currentStaff = routeDocument('CurrentStaff');
  // The REST adapter alone: the same app, its gateway answering what the real one answered.
  const answer = await platform.executors.gateway({ query: currentStaff }, caller);
  const adapterAlone = await listen(
    createRestApp({ config, apiSchema: apiSchemaOf(readSupergraphSdl()), logger: createLogger('rest', config.logLevel), rateLimiter: platform.rateLimiter, gateway: async () => answer, surface: platformSurface() }),
    0,
    '127.0.0.1',
  );
  const layers: Array<[string, () => Promise<unknown>]> = [
    ['database: pg SELECT of the staff row', () => pool.query(STAFF_SELECT, [staffId])],
    ['ORM: unit of work + the staff row as an entity', () => liveStaffById.view(orm.em.fork(), staffId)],
    ['subgraph: auth executes currentStaff in-process', async () => mustSucceed(await platform.executors.subgraphs.auth({ query: currentStaff }, caller))],
    ['gateway: plans and runs CurrentStaff in-process', async () => mustSucceed(await platform.executors.gateway({ query: currentStaff }, caller))],
    ['REST over HTTP: GET /auth/api/staffs/me', httpGetter(`${platform.restUrl}/auth/api/staffs/me`, token)],
    ['REST adapter alone over HTTP (its gateway answers at once)', httpGetter(`http://127.0.0.1:${adapterAlone.port}/auth/api/staffs/me`, token)],
    ['baseline over HTTP: express + jose + pg', httpGetter(`http://127.0.0.1:${baselineServer.port}/baseline/staffs/me`, token)],
    ['HTTP floor: client + express route answering {}', httpGetter(`http://127.0.0.1:${baselineServer.port}/baseline/empty`, token)],
  ];
  const best = layers.map((): LayerFigures => ({ cpuMicros: Infinity, wallMicros: Infinity }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [, operation]] of layers.entries()) {
      const figures = await measure(operation);
      best[index] = { cpuMicros: Math.min(best[index].cpuMicros, figures.cpuMicros), wallMicros: Math.min(best[index].wallMicros, figures.wallMicros) };
    }
  }
  console.log(`GET /auth/api/staffs/me layer by layer: ${OPERATIONS_PER_LAYER} operations each, ${IN_FLIGHT} in flight, best of ${ROUNDS} rounds, this process's CPU\n`);
  console.log(`${'layer'.padEnd(60)} cpu us/op   wall us/op`);
  for (const [index, [name]] of layers.entries()) {
    console.log(`${name.padEnd(60)} ${best[index].cpuMicros.toFixed(0).padStart(10)} ${best[index].wallMicros.toFixed(0).padStart(12)}`);
  }
  await orm.close();
  await adapterAlone.close();
  await baselineServer.close();
  await pool.end();
  await platform.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
