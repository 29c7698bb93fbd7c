import { EntityManager } from '@mikro-orm/postgresql';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { AUTH, MEMBER_LIFECYCLE } from '../../auth/contract';
import { BOOKING } from '../../booking/contract';
import { POINT } from '../contract';
import { EarningSource, RuleEarning } from './earning-rules/rule-earning';
import { REFERRAL_ROLES } from './earning-rules/rule-evaluation';

export const RULE_TRIGGERS_QUEUE = 'point.rule-triggers';
export const RULE_TRIGGER_EVENTS = [BOOKING.events.checkedIn, AUTH.events.customerCreated, POINT.events.referralCompleted] as const;

/**
 * The sources an event is to the earning rules: a booking checked in, a customer created, or a referral
 * completed (one source per side, `<referral id>:referrer` and `:referred`).
 */
function sourcesOf(event: PublishedEvent): EarningSource[] {
  if (event.type === BOOKING.events.checkedIn) {
    const booking = payloadOf(event, BOOKING.events.checkedIn);
    const occurredAt = new Date(booking.checkedInAt ?? booking.occurredAt);
    return [{ type: 'booking', id: booking.bookingId, memberId: booking.memberId, facts: { trigger: 'booking.checked_in', occurredAt }, sourceBy: null }];
  }
  if (event.type === POINT.events.referralCompleted) {
    const referral = payloadOf(event, POINT.events.referralCompleted);
    const occurredAt = new Date(referral.completedAt ?? event.occurredAt);
    return REFERRAL_ROLES.map((role) => ({
      type: 'referral' as const,
      id: `${referral.referralId}:${role}`,
      memberId: role === 'referrer' ? referral.referrerId : referral.referredId,
      facts: { trigger: 'referral.completed' as const, occurredAt, referralRole: role },
      sourceBy: null,
    }));
  }
  const memberId = MEMBER_LIFECYCLE.memberOf(event);
  return [{ type: 'customer', id: memberId, memberId, facts: { trigger: 'customer.created', occurredAt: new Date(event.occurredAt) }, sourceBy: null }];
}

/**
 * Consumer of check-ins, customer creations and referral completions: each source is evaluated by the
 * earning rules of its trigger once (`point.rule_source`, written in the transaction that writes its
 * points), so a redelivery, or a rule activated after the first delivery, earns nothing more. A member
 * whose deletion point has learnt of earns nothing.
 */
export function ruleTriggersConsumer(earning: RuleEarning) {
  return {
    queue: RULE_TRIGGERS_QUEUE,
    events: RULE_TRIGGER_EVENTS,
    apply: async (em: EntityManager, event: PublishedEvent): Promise<void> => {
      for (const source of sourcesOf(event)) {
        const first: unknown[] = await em.execute(
          `insert into point.rule_source (source_type, source_id)
           select ?, ? where not exists (select 1 from point.known_member where member_id = ? and deleted_at is not null)
           on conflict do nothing returning source_id`,
          [source.type, source.id, source.memberId],
        );
        if (first.length > 0) await earning.applyAlone(em, source);
      }
    },
  };
}
