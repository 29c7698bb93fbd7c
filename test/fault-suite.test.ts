import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

// The fault suite's short version (`FAULTS=short npm run faults`): the platform, two workers on a
// PostgreSQL of the suite's own, under steady earns, meets a PostgreSQL fast restart and a worker kill;
// the suite checks the ledger, the idempotency keys, the deliveries, the answers and the port, and
// prints one row per fault. Its bounds are the (every event within 60 s of the recovery).

let suite: ChildProcess | undefined;
// A suite still running when the test gave up stops its platform and PostgreSQL on SIGTERM.
afterAll(() => void suite?.kill('SIGTERM'));

/** Runs the short suite; resolves its exit code and its table (stdout). */
function runShortSuite(): Promise<{ code: number | null; table: string }> {
  suite = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, '..', 'faults', 'run.ts')], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, FAULTS: 'short' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let table = '';
  suite.stdout!.on('data', (chunk: Buffer) => (table += chunk.toString('utf8')));
  return new Promise((resolve) => suite!.once('exit', (code) => resolve({ code, table })));
}

it('keeps the ledger exact, answers no 500, keeps its port open and delivers every event within the bound through a PostgreSQL restart and a worker kill', async () => {
  const { code, table } = await runShortSuite();
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| fault') && !line.startsWith('| ---'));
  const verdicts = rows.map((row) => row.split(' | ').at(-1)!.replace(/ \|$/, ''));
  expect(verdicts).toEqual(['pass', 'pass']);
  expect(code).toBe(0);
}, 240_000);
