import { inHeldTransaction } from '../db/held-client';
import PgBoss from 'pg-boss';
import { Pool } from 'pg';
import { DEAD_LETTER_SUFFIX, deadLetterQueueOf, JOB_QUEUE_SCHEMA, onConnection, orderedJobId } from './job-queue';
import { PublishedEvent } from './outbox-event';

/** A job that failed every try, waiting in its queue's dead-letter queue. */
export interface DeadLetter {
  /** The dead letter's own job id (what `replay --id` takes). */
  id: string;
  /** The queue it failed on, where a replay puts it back. */
  queue: string;
  type: string | null;
  eventId: string | null;
  /** `<source>:<aggregate id>` for an event of an aggregate's stream. */
  aggregate: string | null;
  sequence: string | null;
  error: string | null;
  failedAt: Date;
}

/** An event waiting in a consumer for its predecessor. */
export interface ParkedEvent {
  schema: string;
  queue: string;
  aggregate: string;
  sequence: string;
  waitsFor: string;
  type: string;
  eventId: string;
  parkedAt: Date;
}

const deadLetterColumns = `
  j.id, left(j.name, -${DEAD_LETTER_SUFFIX.length}) as queue, j.data->>'type' as type, j.data->>'id' as "eventId",
  case when j.data->>'aggregateId' is not null then concat(j.data->>'source', ':', j.data->>'aggregateId') end as aggregate,
  j.data->>'sequence' as sequence, j.output->>'message' as error, j.created_on as "failedAt"`;
const deadLetterOrder = `order by j.created_on, (j.data->>'sequence')::bigint, j.id`;

/** The dead letters of every queue (or of one), oldest first; none before the job queue is installed. */
export async function listDeadLetters(pool: Pool, queue?: string): Promise<DeadLetter[]> {
  if (!(await pool.query(`select to_regclass('${JOB_QUEUE_SCHEMA}.job') is not null as installed`)).rows[0].installed) return [];
  const { rows } = await pool.query<DeadLetter>(
    `select ${deadLetterColumns} from ${JOB_QUEUE_SCHEMA}.job j
      where j.state = 'created' and j.name like $1 and ($2::text is null or j.name = $2)
      ${deadLetterOrder}`,
    [`%${DEAD_LETTER_SUFFIX}`, queue ? deadLetterQueueOf(queue) : null],
  );
  return rows;
}

/**
 * Puts dead letters of `queue` (all, or those with the given ids) back on the queue, oldest first,
 * as new jobs with the queue's retry policy; in one transaction, which also removes them from the
 * dead-letter queue. Returns what was replayed.
 */
export function replayDeadLetters(pool: Pool, boss: PgBoss, queue: string, ids?: string[]): Promise<DeadLetter[]> {
  return inHeldTransaction(pool, async (client) => {
    const { rows } = await client.query<DeadLetter & { data: PublishedEvent }>(
      `select ${deadLetterColumns}, j.data from ${JOB_QUEUE_SCHEMA}.job j
        where j.name = $1 and j.state = 'created' and ($2::uuid[] is null or j.id = any($2::uuid[]))
        ${deadLetterOrder} for update`,
      [deadLetterQueueOf(queue), ids ?? null],
    );
    if (rows.length > 0) {
      const db = onConnection(client);
      await boss.insert(
        rows.map((row, index) => ({ id: orderedJobId(BigInt(index)), name: queue, data: row.data })),
        { db },
      );
      await boss.deleteJob(deadLetterQueueOf(queue), rows.map((row) => row.id), { db });
    }
    return rows.map(({ data: _data, ...deadLetter }) => deadLetter);
  });
}

/** The events parked in every consuming domain (or for one queue), by stream and sequence. */
export async function listParked(pool: Pool, queue?: string): Promise<ParkedEvent[]> {
  const { rows: schemas } = await pool.query<{ schema: string }>(
    `select table_schema as schema from information_schema.tables where table_name = 'parked_event' order by table_schema`,
  );
  const parked: ParkedEvent[] = [];
  for (const { schema } of schemas) {
    const { rows } = await pool.query<ParkedEvent>(
      `select $1::text as schema, queue, concat(source, ':', aggregate_id) as aggregate, sequence::text as sequence,
              previous_sequence::text as "waitsFor", type, event_id as "eventId", parked_at as "parkedAt"
         from "${schema}".parked_event where $2::text is null or queue = $2
        order by queue, source, aggregate_id, parked_event.sequence`,
      [schema, queue ?? null],
    );
    parked.push(...rows);
  }
  return parked;
}
