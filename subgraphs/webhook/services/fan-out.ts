import { EntityManager } from '@mikro-orm/postgresql';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { ALL_EVENTS, CONSUMED_EVENTS, PUBLIC_EVENTS, v1Time } from '../event-types';

/** The queue of the platform's events bound for webhooks. */
export const WEBHOOK_FAN_OUT_QUEUE = 'webhook.fan-out';
export const WEBHOOK_FAN_OUT_EVENTS = CONSUMED_EVENTS;

/**
 * Turns one platform event into deliveries, in the consumer's transaction (once per event): the body
 * every attempt sends, and one delivery per webhook subscribed to its type: `pending` (due now) for an
 * active webhook, `held` for a failed one; a webhook switched off by its owner gets none. The webhooks
 * are read `for share`, so a webhook failing or being switched at the same moment is seen either
 * before or after, never half-way.
 */
export async function fanOutEvent(em: EntityManager, event: PublishedEvent): Promise<number> {
  const mapping = PUBLIC_EVENTS[event.type];
  if (!mapping) return 0;
  const webhooks: Array<{ id: string; status: string }> = await em.execute(
    `select id, status from webhook.webhook where status <> 'disabled' and (? = any(events) or ? = any(events)) order by id for share`,
    [mapping.type, ALL_EVENTS],
  );
  if (webhooks.length === 0) return 0;
  const body = JSON.stringify({ id: event.id, type: mapping.type, created_at: v1Time(event.occurredAt), data: mapping.data(event.data) });
  await em.execute(`insert into webhook.webhook_event (id, type, body, created_at) values (?, ?, ?, ?) on conflict (id) do nothing`, [
    event.id,
    mapping.type,
    body,
    event.occurredAt,
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
