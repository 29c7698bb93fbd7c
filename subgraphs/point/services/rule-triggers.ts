import { EntityManager } from '@mikro-orm/postgresql';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { AUTH, MEMBER_LIFECYCLE } from '../../auth/contract';
import { BOOKING } from '../../booking/contract';
import { EarningSource, RuleEarning } from './earning-rules/rule-earning';

export const RULE_TRIGGERS_QUEUE = 'point.rule-triggers';
export const RULE_TRIGGER_EVENTS = [BOOKING.events.checkedIn, AUTH.events.customerCreated] as const;

/** The source an event of another domain is to the earning rules: a booking checked in, a customer created. */
function sourceOf(event: PublishedEvent): EarningSource {
  if (event.type === BOOKING.events.checkedIn) {
    const booking = payloadOf(event, BOOKING.events.checkedIn);
    const occurredAt = new Date(booking.checkedInAt ?? booking.occurredAt);
    return { type: 'booking', id: booking.bookingId, memberId: booking.memberId, facts: { trigger: 'booking.checked_in', occurredAt }, sourceBy: null };
  }
  const memberId = MEMBER_LIFECYCLE.memberOf(event);
  return { type: 'customer', id: memberId, memberId, facts: { trigger: 'customer.created', occurredAt: new Date(event.occurredAt) }, sourceBy: null };
}

/**
 * Consumer of check-ins and customer creations: each is evaluated by the earning rules of its trigger
 * once (`point.rule_source`, written in the transaction that writes its points), so a redelivery, or a
 * rule activated after the first delivery, earns nothing more.
 */
export function ruleTriggersConsumer(earning: RuleEarning) {
  return {
    queue: RULE_TRIGGERS_QUEUE,
    events: RULE_TRIGGER_EVENTS,
    apply: async (em: EntityManager, event: PublishedEvent): Promise<void> => {
      const source = sourceOf(event);
      const first: unknown[] = await em.execute(`insert into point.rule_source (source_type, source_id) values (?, ?) on conflict do nothing returning source_id`, [source.type, source.id]);
      if (first.length > 0) await earning.applyAlone(em, source);
    },
  };
}
