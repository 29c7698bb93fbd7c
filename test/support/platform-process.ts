import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { everyDomainPort } from '../../subgraphs/registry';
import { CHATAPP_APP_ID, CHATAPP_APP_SECRET } from './fake-chatapp';
import { PLATFORM_START_TIMEOUT_MS } from './test-platform';

/** The whole platform as a child process (`bin/start.ts`), for the tests that kill it mid-work and start it again. */
export class PlatformProcess {
  private child: ChildProcess | undefined;
  /** The gateway's GraphQL URL of the running process (from its `platform ready` line). */
  gatewayUrl = '';
  /** Every JSON log line of its processes, in the order printed. */
  readonly lines: Array<Record<string, any>> = [];

  /** `env` is read at each start: the process gets that environment alone. */
  constructor(private readonly env: () => Record<string, string>) {}

  /** Starts it and resolves its REST URL once it logs `platform ready`. */
  start(): Promise<string> {
    const started = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', '..', 'bin', 'start.ts')], { env: this.env(), stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = started;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the platform was not ready within ${PLATFORM_START_TIMEOUT_MS} ms`)), PLATFORM_START_TIMEOUT_MS);
      started.once('exit', (code) => reject(new Error(`the platform exited (${code}) before it was ready`)));
      createInterface({ input: started.stdout! }).on('line', (text) => {
        if (!text.startsWith('{')) return;
        const line = JSON.parse(text);
        this.lines.push(line);
        if (line.msg !== 'platform ready') return;
        clearTimeout(timer);
        this.gatewayUrl = line.graphql;
        resolve(line.rest);
      });
    });
  }

  /** Sends `signal` and resolves once it exited (at once when it is not running). */
  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

/**
 * The environment of a platform child process (one worker, random ports) on `databaseUrl`, with an
 * admin bootstrapped from `admin` and the chat-app provider at `chatappUrl`; `extra` adds or overrides.
 */
export function platformProcessEnv(options: { databaseUrl: string; dataDir: string; admin: { email: string; password: string }; chatappUrl: string }, extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    WORKERS: '1',
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: options.dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    PORT: '0',
    GATEWAY_PORT: '0',
    ...everyDomainPort('0'),
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    PASSWORD_SCRYPT_COST: '1024',
    BOOTSTRAP_ADMIN_EMAIL: options.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: options.admin.password,
    CHATAPP_API_URL: options.chatappUrl,
    CHATAPP_APP_ID,
    CHATAPP_APP_SECRET,
    ...extra,
  };
}

/** One JSON call to the REST adapter at `rest`. */
export async function callRest(rest: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${rest}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}
