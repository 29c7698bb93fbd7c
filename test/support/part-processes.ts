import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** A part of the platform running as its own process (`bin/part.ts <part>`), ready at `url`. */
export interface PartProcess {
  /** What the test calls it (`rest-a`); the part itself is `part`. */
  label: string;
  part: string;
  /** Where it listens, as its `<part> ready` log line says. */
  url: string;
}

/** How a part ended when it was stopped: its exit code, or the signal that ended it. */
export interface PartExit {
  label: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Child {
  process: ChildProcess;
  exited: Promise<PartExit>;
}

const ROOT = join(__dirname, '..', '..');
/** Enough of a part's output to explain a failed start, without keeping a chatty part's whole log. */
const OUTPUT_LINES_KEPT = 200;

/**
 * The parts of a separated deployment, each spawned as `node -r @swc-node/register bin/part.ts <part>`
 * (not npm, so that signals reach the part itself) with only the environment it is given. Every child
 * is tracked from the moment it is spawned, so `stopAll` ends them all, ready or not, whatever failed.
 */
export class PartProcesses {
  private readonly children: Child[] = [];

  /**
   * Spawns a part and resolves once it logs `<part> ready` with its URL; fails with the part's output
   * when it exits first or is not ready within `timeoutMs`.
   */
  start(part: string, env: Record<string, string>, { label = part, timeoutMs = 45_000 } = {}): Promise<PartProcess> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'bin/part.ts', part], {
      cwd: ROOT,
      // Many parts on one host: each its own metrics port unless the test names one.
      env: { PATH: process.env.PATH ?? '', METRICS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const exited = new Promise<PartExit>((resolve) => child.once('exit', (code, signal) => resolve({ label, code, signal })));
    this.children.push({ process: child, exited });

    return new Promise<PartProcess>((resolve, reject) => {
      const fail = (reason: string) => {
        clearTimeout(deadline);
        reject(new Error(`${label} (${part}) ${reason}; its output:\n${output.join('\n')}`));
      };
      const deadline = setTimeout(() => fail(`was not ready within ${timeoutMs} ms`), timeoutMs);
      void exited.then(({ code, signal }) => fail(`exited before it was ready (code ${code}, signal ${signal})`));
      const keep = (line: string) => {
        output.push(line);
        if (output.length > OUTPUT_LINES_KEPT) output.shift();
      };
      readLines(child, 'stderr', keep);
      readLines(child, 'stdout', (line) => {
        keep(line);
        const entry = parseLogLine(line);
        if (entry?.msg !== `${part} ready` || typeof entry.url !== 'string') return;
        clearTimeout(deadline);
        resolve({ label, part, url: entry.url });
      });
    });
  }

  /**
   * Stops every part in the reverse order of their start: SIGTERM, then SIGKILL for one still running
   * `graceMs` later. Resolves how each ended (a part that exited by itself keeps its own exit).
   */
  async stopAll(graceMs = 10_000): Promise<PartExit[]> {
    const exits: PartExit[] = [];
    for (const child of [...this.children].reverse()) {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const exit = await Promise.race([child.exited, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), graceMs)))]);
      clearTimeout(timer);
      if (exit) {
        exits.push(exit);
        continue;
      }
      child.process.kill('SIGKILL');
      exits.push(await child.exited);
    }
    this.children.length = 0;
    return exits.reverse();
  }
}

function readLines(child: ChildProcess, stream: 'stdout' | 'stderr', onLine: (line: string) => void): void {
  let pending = '';
  child[stream]!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line) onLine(line);
  });
}

function parseLogLine(line: string): { msg?: unknown; url?: unknown } | undefined {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
