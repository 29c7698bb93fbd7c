import PgBoss from 'pg-boss';
import { withAdvisoryLock } from '../db/orm';
import { Logger } from '../logger';

/**
 * The Postgres job queue (pg-boss, in its own `pgboss` schema) shared by every domain. Installing its
 * schema and creating queues take a cluster-wide lock: processes starting together deadlock otherwise.
 */
export async function startJobQueue(databaseUrl: string, logger: Logger, queues: string[] = []): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 4 });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await withAdvisoryLock(databaseUrl, 'pgboss:setup', async () => {
    await boss.start();
    for (const name of queues) {
      if (!(await boss.getQueue(name))) await boss.createQueue(name);
    }
  });
  return boss;
}
