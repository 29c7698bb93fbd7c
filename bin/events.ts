import 'reflect-metadata';
import PgBoss from 'pg-boss';
import { Pool } from 'pg';
import { loadConfig } from '../core/config';
import { resolveDatabase } from '../core/db/database';
import { listDeadLetters, listParked, replayDeadLetters } from '../core/events/dead-letters';
import { JOB_QUEUE_SCHEMA, stopJobQueue } from '../core/events/job-queue';

const USAGE = `Usage: npm run events -- <command>

  dead-letters [queue]               events (and jobs) that failed every try, oldest first
  replay <queue> [--id <id> ...]     put the dead letters of <queue> back on it, oldest first
  parked [queue]                     events waiting in a consumer for their predecessor

Works on DATABASE_URL, or on the embedded database under DATA_DIR.`;

/** `npm run events`: the operator's view of dead letters and parked events, and the replay. */
async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const ids = rest.flatMap((arg, index) => (rest[index - 1] === '--id' ? [arg] : []));
  const [queue] = rest.filter((arg, index) => arg !== '--id' && rest[index - 1] !== '--id');
  if (!['dead-letters', 'replay', 'parked'].includes(command) || (command === 'replay' && !queue)) {
    console.error(USAGE);
    return 2;
  }
  const database = await resolveDatabase(loadConfig());
  const pool = new Pool({ connectionString: database.url, max: 2 });
  try {
    if (command === 'dead-letters') {
      const deadLetters = await listDeadLetters(pool, queue);
      if (deadLetters.length === 0) console.log('No dead letters.');
      else console.table(deadLetters);
    } else if (command === 'parked') {
      const parked = await listParked(pool, queue);
      if (parked.length === 0) console.log('No parked events.');
      else console.table(parked);
    } else {
      const boss = new PgBoss({ connectionString: database.url, schema: JOB_QUEUE_SCHEMA, max: 1, supervise: false, schedule: false, migrate: false });
      await boss.start();
      try {
        const replayed = await replayDeadLetters(pool, boss, queue, ids.length > 0 ? ids : undefined);
        console.log(`Replayed ${replayed.length} dead letter(s) on ${queue}.`);
        if (replayed.length > 0) console.table(replayed);
      } finally {
        await stopJobQueue(boss);
      }
    }
    return 0;
  } finally {
    await pool.end();
    await database.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
