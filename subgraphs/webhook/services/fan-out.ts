import { EntityManager } from '@mikro-orm/postgresql';
import { EventConsumer } from '../../../core/module';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { v1Time } from '../../../core/rest/case';
import { PublicEventLookup } from '../../../core/rest/surface';
import { ALL_EVENTS, PublicEventTable } from './public-event-table';

/** The queue of the platform's events bound for webhooks. */
export const WEBHOOK_FAN_OUT_QUEUE = 'webhook.fan-out';

/** What the fan-out needs: the public events and a gateway reader for the names their data looks up. */
export interface FanOut {
  publicEvents: PublicEventTable;
  lookup: PublicEventLookup;
}

/** The fan-out consumer: every public event's internal type. */
export const fanOutConsumer = (fanOut: FanOut): EventConsumer => ({
  queue: WEBHOOK_FAN_OUT_QUEUE,
  events: fanOut.publicEvents.internalTypes,
  apply: (em, event) => fanOutEvent(em, event, fanOut),
});

/**
 * Turns one platform event into deliveries, in the consumer's transaction (once per event): the body
 * every attempt sends (its `data` built by the producer's public event), and one delivery per webhook
 * subscribed to its type: `pending` (due now) for an active webhook, `held` for a failed one; a webhook
 * switched off by its owner gets none. The webhooks are read `for share`, so a webhook failing or being
 * switched at the same moment is seen either before or after, never half-way.
 */
export async function fanOutEvent(em: EntityManager, event: PublishedEvent, { publicEvents, lookup }: FanOut): Promise<number> {
  const mapping = publicEvents.of(event.type);
  if (!mapping) return 0;
  const webhooks: Array<{ id: string; status: string }> = await em.execute(
    `select id, status from webhook.webhook where status <> 'disabled' and (? = any(events) or ? = any(events)) order by id for share`,
    [mapping.type, ALL_EVENTS],
  );
  if (webhooks.length === 0) return 0;
  const body = JSON.stringify({ id: event.id, type: mapping.type, created_at: v1Time(event.occurredAt), data: await mapping.data(event.data, lookup) });
  await em.execute(`insert into webhook.webhook_event (id, type, body, created_at, trace_context) values (?, ?, ?, ?, ?) on conflict (id) do nothing`, [
    event.id,
    mapping.type,
    body,
    event.occurredAt,
    event.traceContext ?? null,
  ]);
  const inserted = await em.execute(
    `insert into webhook.webhook_delivery (id, webhook_id, event_id, event_type, status, next_attempt_at)
     select gen_random_uuid(), w.id, ?, ?, case when w.status = 'active' then 'pending' else 'held' end, case when w.status = 'active' then now() end
     from webhook.webhook w where w.id in (${webhooks.map(() => '?').join(', ')})
     on conflict (webhook_id, event_id) do nothing returning id`,
    [event.id, mapping.type, ...webhooks.map((webhook) => webhook.id)],
  );
  return inserted.length;
}
