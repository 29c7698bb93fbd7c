import express, { Router } from 'express';
import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { AccessTokens } from '../../core/auth/jwt';
import { requestHash } from '../../core/idempotency';
import { v1Body } from '../../rest-adapter/v1/envelope';
import { v1ErrorBody } from '../../rest-adapter/v1/errors';
import { BOOKING, BookingChanged } from '../../subgraphs/booking/contract';
import { BOOKING_TYPES } from '../../subgraphs/booking/entities/booking';
import { MAX_DURATION, MAX_GUESTS, newCheckInCode, qrCodeOf } from '../../subgraphs/booking/services/booking.service';
import { coveredSlots, dayOf, nowStamp, pgArray, stampText, TIME } from '../../subgraphs/booking/services/slots';
import { parseBookingSettings } from '../../subgraphs/booking/settings';
import { Answer, answer, inTransaction } from './transaction';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BOOKING_COLUMNS = `id, member_id, venue_id, type, date, time, duration, guests, special_requests, status, check_in_code, cancel_reason, cancelled_at,
  checked_in_at, completed_at, created_at, updated_at`;

/** What a v1 booking request asks, as the platform's CreateBookingInput (its Idempotency-Key hashes this). */
interface BookingAsked {
  customerId: string;
  venueId: string;
  type: string;
  date: string;
  time: string;
  duration?: number;
  guests: number;
  specialRequests?: string;
}

/**
 * What POST /api/v1/bookings does, written by hand on express + jose + pg: the same checks (token;
 * the body; the customer exists in auth's member table; the venue is live; the slots are the day's,
 * not started, within opening hours) and the same writes in ONE transaction: the Idempotency-Key's
 * record, the booking and `booking.created`, and last each covered slot raised by its conditional
 * UPDATE (`held + guests <= capacity`) in slot order (a refusal rolls it all back). Answers as the platform: 201 with the booking (its check-in
 * code's QR image included), 422 NO_AVAILABILITY, a repeat of the key with the same booking.
 */
export function bookingsBaseline(pool: Pool, tokens: AccessTokens): Router {
  const { timeZone } = parseBookingSettings(process.env, []);
  return Router().post('/baseline/v1/bookings', express.json(), (req, res) =>
    answer(res, async () => {
      const principal = await tokens.fromHeader(req.headers.authorization);
      if (!principal) throw new Answer(401, v1ErrorBody('INVALID_TOKEN', 'The access token is missing, invalid or expired'));
      const asked = askedOf(req.body ?? {});
      if (principal.kind === 'member' && asked.customerId.toLowerCase() !== principal.id.toLowerCase()) throw new Answer(403, v1ErrorBody('FORBIDDEN', 'A customer books for itself only'));
      const key = req.headers['idempotency-key'];
      const booking = await inTransaction(pool, (client) => book(client, asked, `booking:${principal.kind}:${principal.id}`, typeof key === 'string' ? key : undefined, timeZone));
      return new Answer(201, v1Body(await bookingOf(booking)));
    }),
  );
}

/** A booking row as the platform answers it (BOOKING_FIELDS of subgraphs/booking/surface/v1-routes.ts, through `bookingOf`). */
const bookingOf = async (row: Record<string, any>) => ({
  id: row.id,
  customerId: row.member_id,
  venueId: row.venue_id,
  type: row.type,
  date: row.date,
  time: row.time,
  duration: row.duration,
  guests: row.guests,
  specialRequests: row.special_requests,
  status: row.status,
  checkInCode: row.check_in_code,
  qrCode: await qrCodeOf(row.check_in_code),
  cancelReason: row.cancel_reason,
  cancelledAt: row.cancelled_at,
  checkedInAt: row.checked_in_at,
  completedAt: row.completed_at,
  noShow: row.status === 'completed' && row.checked_in_at === null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const noAvailability = (message: string) => new Answer(422, v1ErrorBody('NO_AVAILABILITY', `No availability: ${message}`));

/** The body's fields, checked as the platform checks them (400 VALIDATION_ERROR naming each). */
function askedOf(body: Record<string, any>): BookingAsked {
  const asked = { customerId: body.customer_id, venueId: body.venue_id, type: body.type, date: body.date, time: body.time, duration: body.duration, guests: body.guests, specialRequests: body.special_requests };
  const details: Array<{ field: string; message: string }> = [];
  if (typeof asked.customerId !== 'string' || !UUID.test(asked.customerId)) details.push({ field: 'customerId', message: 'customer_id is required' });
  if (typeof asked.venueId !== 'string' || !asked.venueId) details.push({ field: 'venueId', message: 'venue_id is required' });
  if (!(BOOKING_TYPES as readonly string[]).includes(asked.type)) details.push({ field: 'type', message: `type is one of ${BOOKING_TYPES.join(', ')}` });
  if (typeof asked.date !== 'string' || dayOf(asked.date) === null) details.push({ field: 'date', message: 'date is a date (YYYY-MM-DD)' });
  if (typeof asked.time !== 'string' || !TIME.test(asked.time)) details.push({ field: 'time', message: 'time is a time HH:MM' });
  if (asked.duration != null && (!Number.isInteger(asked.duration) || asked.duration < 1 || asked.duration > MAX_DURATION)) details.push({ field: 'duration', message: 'duration is whole minutes' });
  if (!Number.isInteger(asked.guests) || asked.guests < 1 || asked.guests > MAX_GUESTS) details.push({ field: 'guests', message: 'guests is a whole number' });
  if (details.length > 0) throw new Answer(400, v1ErrorBody('VALIDATION_ERROR', 'The request is invalid', details));
  return asked;
}

async function book(client: PoolClient, asked: BookingAsked, scope: string, key: string | undefined, timeZone: string): Promise<Record<string, any>> {
  const customer = await client.query(`select 1 from auth.member where id = $1 and deleted_at is null`, [asked.customerId]);
  if (customer.rows.length === 0) throw new Answer(404, v1ErrorBody('CUSTOMER_NOT_FOUND', 'Member not found'));
  const hash = requestHash(asked);
  if (key) {
    const claimed = await client.query(`insert into booking.idempotency_record (scope, key, request_hash) values ($1, $2, $3) on conflict do nothing returning key`, [scope, key, hash]);
    if (claimed.rows.length === 0) return repeated(client, scope, key, hash);
  }
  const venues = UUID.test(asked.venueId)
    ? await client.query(`select id, name, capacity, opening_time, closing_time, slot_minutes from booking.venue where id = $1 and deleted_at is null for share`, [asked.venueId])
    : { rows: [] };
  if (venues.rows.length === 0) throw new Answer(404, v1ErrorBody('VENUE_NOT_FOUND', `Venue ${asked.venueId} not found`));
  const [venue] = venues.rows;
  const duration = asked.duration ?? venue.slot_minutes;
  const slots = coveredSlots({ openingTime: venue.opening_time, closingTime: venue.closing_time, slotMinutes: venue.slot_minutes }, asked.date, asked.time, duration);
  if ('refusal' in slots) throw noAvailability(slots.refusal);
  if (slots.start <= nowStamp(timeZone)) throw noAvailability('the slot has already started');
  const { rows } = await client.query(
    `insert into booking.booking (id, member_id, venue_id, type, date, time, duration, guests, special_requests, status, check_in_code, starts_at, ends_at, slot_starts, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'confirmed', $10, $11::timestamp, $12::timestamp, $13::timestamp[], now(), now()) returning ${BOOKING_COLUMNS}`,
    [randomUUID(), asked.customerId.toLowerCase(), venue.id, asked.type, asked.date, asked.time, duration, asked.guests, asked.specialRequests ?? null, newCheckInCode(),
      stampText(slots.start), stampText(slots.end), pgArray(slots.stamps.map(stampText))],
  );
  const [booking] = rows;
  const created: BookingChanged = {
    bookingId: booking.id, memberId: booking.member_id, venueId: booking.venue_id, venueName: venue.name, type: booking.type, date: booking.date, time: booking.time,
    duration: booking.duration, guests: booking.guests, status: booking.status, occurredAt: new Date().toISOString(),
  };
  await client.query(`insert into booking.outbox_event (id, type, payload, aggregate_id, occurred_at) values ($1, $2, $3, $4, now())`, [randomUUID(), BOOKING.events.created, created, booking.member_id]);
  if (key) await client.query(`update booking.idempotency_record set response = $1 where scope = $2 and key = $3`, [{ id: booking.id }, scope, key]);
  // Last, so that the slot rows every booker of the slot waits on are held only until the commit.
  for (const stamp of slots.stamps) {
    const startsAt = stampText(stamp);
    await client.query(`insert into booking.venue_slot (venue_id, starts_at, held) values ($1, $2::timestamp, 0) on conflict do nothing`, [venue.id, startsAt]);
    const taken = await client.query(`update booking.venue_slot set held = held + $1 where venue_id = $2 and starts_at = $3::timestamp and held + $1 <= $4 returning held`, [
      asked.guests, venue.id, startsAt, venue.capacity,
    ]);
    if (taken.rows.length === 0) throw noAvailability(`the slot at ${startsAt} has fewer than ${asked.guests} free places`);
  }
  return booking;
}

/** A repeat of the key: the booking it made (the same body), or 409 (another body). */
async function repeated(client: PoolClient, scope: string, key: string, hash: string): Promise<Record<string, any>> {
  const { rows } = await client.query(`select request_hash, response from booking.idempotency_record where scope = $1 and key = $2`, [scope, key]);
  if (rows[0].request_hash !== hash) throw new Answer(409, v1ErrorBody('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request'));
  return (await client.query(`select ${BOOKING_COLUMNS} from booking.booking where id = $1`, [rows[0].response.id])).rows[0];
}
