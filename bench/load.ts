import autocannon, { Options, Result } from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

/** A bench target (bench/serve.ts) as its JSON line describes it. */
export interface Target {
  restUrl: string;
  baselineUrl: string;
  /** An admin staff token: every permission, point:manage and point:read included. */
  token: string;
  databaseUrl: string;
}

export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
export const WARM_UP_SECONDS = 3;

/** Starts bench/serve.ts in its own process, with `env` over this process's environment. */
export function startTarget(env: Record<string, string> = {}): Promise<{ child: ChildProcess; target: Target }> {
  // --expose-gc and the IPC channel: the target answers `targetMemory` after a full collection.
  const child = spawn(process.execPath, ['--expose-gc', '-r', '@swc-node/register', join(__dirname, 'serve.ts')], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, target: JSON.parse(line) }));
  });
}

/** What the target holds after a full garbage collection: its JS heap and the memory outside it, and its resident size. */
export interface TargetMemory {
  retained: number;
  resident: number;
}

export function targetMemory(child: ChildProcess): Promise<TargetMemory> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as TargetMemory));
    child.send('memory');
  });
}

/** Stops a target started by startTarget and waits for its exit (it closes the platform and its database first). */
export function stopTarget(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function run(options: Options): Promise<Result> {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

export function load(url: string, token: string, duration = DURATION_SECONDS): Promise<Result> {
  return run({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } });
}

/** Warms connections, JIT and caches for WARM_UP_SECONDS, then measures for DURATION_SECONDS. */
export async function warmThenLoad(url: string, token: string): Promise<Result> {
  await load(url, token, WARM_UP_SECONDS);
  return load(url, token);
}

export const ratio = (a: number, b: number) => (a / Math.max(1, b)).toFixed(3);
export const p99Ratio = (a: Result, b: Result) => `${(a.latency.p99 / Math.max(1, b.latency.p99)).toFixed(2)}x`;
