import { event } from '../../core/events/event-type';
import type { DomainContract } from '../../core/module';

/**
 * The booking domain's contract: venues with their daily slots, and customers' bookings of places in
 * them (Part 3 "Bookings and venues", CONTRACT-v1 section 5 "Venues"). Plain data, importable by any domain.
 */
export const BOOKING = {
  name: 'booking',
  permissions: {
    read: 'booking:read',
    manage: 'booking:manage',
    venueManage: 'venue:manage',
  },
  permissionScopes: { read: 'read', manage: 'write', venueManage: 'admin' },
  grants: {
    marketing: ['booking:read', 'booking:manage'],
    tenant: ['booking:read'],
  },
  events: {
    created: event<BookingChanged>('booking.created'),
    cancelled: event<BookingChanged>('booking.cancelled'),
    checkedIn: event<BookingChanged>('booking.checked_in'),
  },
} as const satisfies DomainContract;

/**
 * `booking.created`, `booking.cancelled`, `booking.checked_in` (aggregate: the member): the booking as it
 * is after the change. `date` is `YYYY-MM-DD` and `time` `HH:MM` in the venues' time zone
 * (BOOKING_TIME_ZONE); timestamps are ISO 8601.
 */
export interface BookingChanged {
  bookingId: string;
  memberId: string;
  venueId: string;
  /** The venue's name when the event was recorded (for interactions and notifications). */
  venueName: string;
  type: string;
  date: string;
  time: string;
  duration: number;
  guests: number;
  status: string;
  /** `booking.cancelled`: the reason given, if any. */
  reason?: string | null;
  /** `booking.checked_in`: when. */
  checkedInAt?: string | null;
  occurredAt: string;
}
