import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { Pool } from 'pg';
import { openDomainOrm } from '../../core/db/orm';
import { consumerParkedFlagSql, consumerTablesSql } from '../../core/events/event-consumer';
import { randomUUID } from 'node:crypto';
import { startJobQueue, stopJobQueue } from '../../core/events/job-queue';
import { PublishedEvent } from '../../core/events/outbox-event';
import { createLogger } from '../../core/logger';
import { createScratchDatabase, ScratchDatabase } from './scratch-database';

/** A scratch database with an event consumer's tables in `schema`, its job queue and an ORM on it. */
export interface ConsumerScratch {
  database: ScratchDatabase;
  pool: Pool;
  boss: PgBoss;
  orm: MikroORM<PostgreSqlDriver>;
}

/**
 * Opens the scratch before the file's tests and drops it after them: the consumer's position and
 * parked tables in `schema`, plus `appliedTableSql` (the table a test consumer writes what it applied to).
 */
export function consumerScratch(name: string, schema: string, appliedTableSql: string): ConsumerScratch {
  const scratch = {} as ConsumerScratch;
  beforeAll(async () => {
    scratch.database = await createScratchDatabase(name);
    scratch.pool = new Pool({ connectionString: scratch.database.url, max: 2 });
    // An idle connection ended by the server (a test cutting the database): the next query connects again.
    scratch.pool.on('error', () => undefined);
    await scratch.pool.query(`create schema ${schema}; ${consumerTablesSql(schema)}; ${consumerParkedFlagSql(schema)}; ${appliedTableSql}`);
    scratch.orm = await openDomainOrm({ url: scratch.database.url, schema, entities: [], migrations: {} });
    scratch.boss = await startJobQueue(scratch.database.url, createLogger('test', 'silent'));
  });
  afterAll(async () => {
    await stopJobQueue(scratch.boss);
    await scratch.orm.close();
    await scratch.pool.end();
    await scratch.database.drop();
  });
  return scratch;
}

/** Event `sequence` of `type` in a member's stream, its predecessor the one before (none for the first). */
export const chainedEvent = (type: string, memberId: string, sequence: number): PublishedEvent => ({
  id: randomUUID(),
  type,
  source: 'test',
  aggregateId: memberId,
  sequence: String(sequence),
  previousSequence: sequence === 1 ? null : String(sequence - 1),
  occurredAt: new Date().toISOString(),
  data: {},
});
