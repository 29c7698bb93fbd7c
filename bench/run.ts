import autocannon, { Result } from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

interface Target {
  restUrl: string;
  baselineUrl: string;
  token: string;
}

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

function startTarget(): Promise<{ child: ChildProcess; target: Target }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'serve.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, target: JSON.parse(line) }));
  });
}

const WARM_UP_SECONDS = 3;

function load(url: string, token: string, duration = DURATION_SECONDS): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * `npm run bench`: GET /auth/api/staffs/me through the REST adapter, gateway and auth subgraph, and
 * beside it, in the same run, the baseline express route doing the same JWT check and SELECT.
 */
async function main(): Promise<void> {
  const { child, target } = await startTarget();
  try {
    const scenarios: Array<[string, string]> = [
      ['baseline: express + jose + pg', `${target.baselineUrl}/baseline/staffs/me`],
      ['platform: REST -> gateway -> auth', `${target.restUrl}/auth/api/staffs/me`],
    ];
    const results: Array<[string, Result]> = [];
    for (const [name, url] of scenarios) {
      await load(url, target.token, WARM_UP_SECONDS); // connections, JIT and caches warm before measuring
      results.push([name, await load(url, target.token)]);
    }
    console.log(`\nGET /auth/api/staffs/me, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each\n`);
    console.log('scenario                              req/s     p50 ms   p99 ms   non-2xx');
    for (const [name, result] of results) {
      console.log(
        `${name.padEnd(36)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(9)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(9)}`,
      );
    }
    const [baseline, platform] = results.map(([, result]) => result);
    console.log(`\nplatform / baseline request rate: ${(platform.requests.average / baseline.requests.average).toFixed(3)}`);
    console.log(`platform / baseline p99 latency:  ${(platform.latency.p99 / Math.max(1, baseline.latency.p99)).toFixed(2)}x`);
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
