import { JsonSchema, arrayOf, boolean, date, id, integer, nullable, object, oneOf, ref, string, timestamp } from '../../../core/rest/json-schema';

const BOOKING_TIME = string({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM' });

/** The v1 resources of venues and bookings, as the routes answer them (snake_case). */
export const BOOKING_COMPONENTS: Record<string, JsonSchema> = {
  Venue: object(
    {
      id: id(),
      name: string(),
      type: oneOf('restaurant', 'event', 'service'),
      address: nullable(string()),
      phone: nullable(string()),
      capacity: integer({ description: 'Guests per slot' }),
      opening_time: BOOKING_TIME,
      closing_time: string({ description: 'HH:MM; at or before opening_time: the next day' }),
      slot_minutes: integer(),
      available_slots: arrayOf(object({ date: date(), times: arrayOf(BOOKING_TIME) }), { description: 'Free slot starts of today and the next 6 days (BOOKING_TIME_ZONE)' }),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    ['id', 'name', 'type', 'capacity', 'opening_time', 'closing_time', 'slot_minutes', 'available_slots'],
  ),
  Booking: object(
    {
      id: id(),
      customer_id: id(),
      venue_id: id(),
      type: oneOf('table', 'slot', 'ticket'),
      date: date({ description: 'The service day (BOOKING_TIME_ZONE)' }),
      time: BOOKING_TIME,
      duration: integer({ description: 'Minutes' }),
      guests: integer(),
      special_requests: nullable(string()),
      status: oneOf('pending', 'confirmed', 'cancelled', 'completed'),
      check_in_code: string(),
      qr_code: string({ description: 'The check-in code as a QR image (SVG data URL)' }),
      cancel_reason: nullable(string()),
      cancelled_at: nullable(timestamp()),
      checked_in_at: nullable(timestamp()),
      completed_at: nullable(timestamp()),
      no_show: boolean({ description: 'Completed without a check-in' }),
      venue: ref('Venue'),
      customer: object({ id: id(), name: nullable(string()), email: nullable(string()), phone: nullable(string()) }, [], { description: 'The detail only: the customer as GET /customers/{id} names these fields' }),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    ['id', 'customer_id', 'venue_id', 'type', 'date', 'time', 'duration', 'guests', 'status', 'check_in_code', 'qr_code', 'created_at', 'updated_at'],
  ),
};
