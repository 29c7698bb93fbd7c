import { LockMode, MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { Logger } from '../logger';
import { OutboxEvent, PublishedEvent } from './outbox-event';

const BATCH = 100;

export interface OutboxRelay {
  /** Publishes what is waiting now; resolves with how many events went out. */
  drain: () => Promise<number>;
  stop: () => Promise<void>;
}

/**
 * Moves events from a domain's outbox to the job queue, oldest first, as pg-boss publications
 * (`boss.publish(type)`: every queue subscribed to that event type gets a job). Rows are claimed with
 * SKIP LOCKED, so several relays can run; delivery is at least once, consumers dedupe by event id.
 */
export function startOutboxRelay(orm: MikroORM<PostgreSqlDriver>, boss: PgBoss, logger: Logger, intervalMs = 200): OutboxRelay {
  let running: Promise<number> | undefined;
  const drainOnce = () =>
    orm.em.fork().transactional(async (em) => {
      const events = await em.find(OutboxEvent, { publishedAt: null }, { orderBy: { sequence: 'asc' }, limit: BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
      for (const event of events) {
        const message: PublishedEvent = { id: event.id, type: event.type, occurredAt: event.occurredAt.toISOString(), data: event.payload };
        await boss.publish(event.type, message);
        event.publishedAt = new Date();
      }
      return events.length;
    });
  const drain = async () => {
    while (running) await running.catch(() => 0);
    running = drainOnce();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    drain().catch((error) => logger.error({ err: error }, 'outbox relay failed'));
  }, intervalMs);
  return {
    drain,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}
