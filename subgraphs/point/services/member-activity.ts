import { EntityManager } from '@mikro-orm/postgresql';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { BOOKING } from '../../booking/contract';
import { CAMPAIGN } from '../../campaign/contract';

export const MEMBER_ACTIVITY_QUEUE = 'point.member-activity';
export const MEMBER_ACTIVITY_EVENTS = [BOOKING.events.created, BOOKING.events.checkedIn, CAMPAIGN.events.participantJoined] as const;

/** One interaction a member had in another domain, as `point.member_activity` keeps it. */
interface Activity {
  memberId: string;
  type: 'booking' | 'visit' | 'campaign_joined';
  channel: 'booking' | 'campaign';
  description: string;
  sourceId: string;
  occurredAt: string;
}

const guestsOf = (guests: number) => `${guests} guest${guests === 1 ? '' : 's'}`;

/** The interaction an event stands for: a booking made, a visit (its check-in), a campaign joined. */
function activityOf(event: PublishedEvent): Activity {
  if (event.type === CAMPAIGN.events.participantJoined) {
    const joined = payloadOf(event, CAMPAIGN.events.participantJoined);
    return { memberId: joined.customerId, type: 'campaign_joined', channel: 'campaign', description: `Joined campaign ${joined.campaignName}`, sourceId: joined.campaignId, occurredAt: joined.joinedAt };
  }
  const booking = payloadOf(event, BOOKING.events.created, BOOKING.events.checkedIn);
  const slot = `${booking.date} ${booking.time}`;
  return event.type === BOOKING.events.checkedIn
    ? { memberId: booking.memberId, type: 'visit', channel: 'booking', description: `Visit to ${booking.venueName} (booking of ${slot}, ${guestsOf(booking.guests)})`, sourceId: booking.bookingId, occurredAt: booking.checkedInAt ?? booking.occurredAt }
    : { memberId: booking.memberId, type: 'booking', channel: 'booking', description: `Booking at ${booking.venueName} for ${slot}, ${guestsOf(booking.guests)}`, sourceId: booking.bookingId, occurredAt: booking.occurredAt };
}

/**
 * Consumer of bookings, check-ins and campaign joins: each becomes one of the member's interactions
 * (`booking`, `visit`, `campaign_joined`), kept under the event's id, so a redelivery adds nothing.
 */
export async function applyMemberActivity(em: EntityManager, event: PublishedEvent): Promise<void> {
  const activity = activityOf(event);
  await em.execute(
    `insert into point.member_activity (id, member_id, type, channel, description, source_id, occurred_at) values (?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
    [event.id, activity.memberId, activity.type, activity.channel, activity.description, activity.sourceId, activity.occurredAt],
  );
}
