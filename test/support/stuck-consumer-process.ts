import 'reflect-metadata';
import { openDomainOrm } from '../../core/db/orm';
import { startEventConsumer } from '../../core/events/event-consumer';
import { startJobQueue } from '../../core/events/job-queue';
import { createLogger } from '../../core/logger';

/**
 * A worker that dies mid-event, for test/service/job-leases.test.ts: consumes QUEUE (events EVENT_TYPE)
 * with the consumer tables of SCHEMA on DATABASE_URL, logs `applying` with the event's sequence and
 * never finishes (holding the event's transaction), until the test kills it. Logs `consuming` once it
 * fetches.
 */
async function main(): Promise<void> {
  const [url, queue, schema, type] = ['DATABASE_URL', 'QUEUE', 'SCHEMA', 'EVENT_TYPE'].map((name) => process.env[name]!);
  const logger = createLogger('stuck-consumer', 'info');
  const orm = await openDomainOrm({ url, schema, entities: [], migrations: {} });
  const boss = await startJobQueue(url, logger);
  await startEventConsumer({
    orm,
    boss,
    logger,
    queue,
    events: [type],
    apply: async (_em, event) => {
      logger.info({ sequence: event.sequence }, 'applying');
      await new Promise(() => {});
    },
  });
  logger.info('consuming');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
