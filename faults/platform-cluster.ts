import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** How long a start of the whole platform may take (migrations on a first start, two workers). */
const START_TIMEOUT_MS = 120_000;

/**
 * The platform as `npm start` runs it (`bin/start.ts`: a primary forking the workers) in a process group
 * of its own, so that a kill of the whole platform reaches every process. Its output goes to `logFile`.
 */
export class PlatformCluster {
  private child: ChildProcess | undefined;
  private readonly log: WriteStream;

  constructor(
    private readonly env: Record<string, string>,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  /** Starts it and resolves once the primary says every worker serves. */
  start(): Promise<void> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'bin', 'start.ts')], {
      env: { METRICS_PORT: '0', ...this.env },
      cwd: join(__dirname, '..'),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr!.pipe(this.log, { end: false });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the platform was not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the platform exited (${code ?? signal}) before it was ready`));
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        this.log.write(`${line}\n`);
        if (!line.startsWith('Loyalty platform is ready')) return;
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The pids of the workers now running (the primary's children). */
  workers(): number[] {
    if (!this.child?.pid) return [];
    try {
      return execFileSync('ps', ['-o', 'pid=', '--ppid', String(this.child.pid)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
    } catch {
      return [];
    }
  }

  /** SIGKILL to one worker; resolves its pid. */
  killOneWorker(): number {
    const [pid] = this.workers();
    if (!pid) throw new Error('no worker is running');
    process.kill(pid, 'SIGKILL');
    return pid;
  }

  /** Sends `signal` to the whole process group (primary and workers) and resolves once the primary exited. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, signal);
    await exited;
    // The workers may outlive the primary for a moment: the platform is gone once its group is empty.
    while (groupAlive(child.pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  close(): void {
    this.log.end();
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
