import { EntityManager } from '@mikro-orm/postgresql';
import { EventType } from '../../../core/events/event-type';
import { randomInt, randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { Principal } from '../../../core/auth/principal';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { conflict, FieldError, forbidden, notFound, refusal, validationError } from '../../../core/errors';
import { recordEvent } from '../../../core/events/outbox-event';
import { findPage, Page } from '../../../core/pagination';
import { BOOKING, BookingChanged } from '../contract';
import { Booking, BOOKING_STATUSES, BOOKING_TYPES } from '../entities/booking';
import { Venue } from '../entities/venue';
import { BookingListArgs, CreateBookingInput, UpdateBookingInput } from '../types/booking.types';
import { KnownMembers } from '../../../core/known-members';
import { BookingSettings } from '../settings';
import { onceForKey } from './idempotency';
import { coveredSlots, dayOf, inCheckInWindow, nowStamp, pgArray, stampOf, stampText, TIME } from './slots';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
export const MAX_GUESTS = 1000;
export const MAX_DURATION = 1440;
export const MAX_REQUESTS = 1000;

/** The queue of the job that completes ended bookings (every 5 minutes). */
export const BOOKING_COMPLETION_QUEUE = 'booking.completion';

/** A business rule refused, with the rule as its reason (v1: 422 with the reason as the code). */
export const ruleRefused = (reason: 'NO_AVAILABILITY' | 'INVALID_CHECK_IN_CODE' | 'NOT_ELIGIBLE', message: string) => refusal('BAD_REQUEST', reason, message);

export const newCheckInCode = (): string => Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** The QR image of a check-in code, as an SVG data URL. */
export async function qrCodeOf(checkInCode: string): Promise<string> {
  const svg = await QRCode.toString(checkInCode, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * Bookings. A booking holds `guests` places in every slot its duration covers: each slot's row in
 * `booking.venue_slot` is raised by one conditional UPDATE (`held + guests <= capacity`), in ascending
 * slot order (no deadlock between bookings), in the booking's transaction; a slot that refuses rolls
 * the whole booking back (422 NO_AVAILABILITY). Changes and cancellations move places in the same way.
 */
export class BookingService {
  constructor(
    private readonly em: EntityManager,
    private readonly members: KnownMembers | undefined,
    private readonly settings: BookingSettings,
  ) {}

  async create(input: CreateBookingInput, caller: Principal, idempotencyKey?: string, requestId?: string): Promise<Booking> {
    const errors: FieldError[] = [];
    if (typeof input.customerId !== 'string' || !input.customerId) errors.push({ field: 'customerId', message: 'customer_id is required' });
    if (typeof input.venueId !== 'string' || !input.venueId) errors.push({ field: 'venueId', message: 'venue_id is required' });
    if (!(BOOKING_TYPES as readonly string[]).includes(input.type ?? '')) errors.push({ field: 'type', message: `type is one of ${BOOKING_TYPES.join(', ')}` });
    if (input.date == null) errors.push({ field: 'date', message: 'date is required' });
    if (input.time == null) errors.push({ field: 'time', message: 'time is required' });
    if (input.guests == null) errors.push({ field: 'guests', message: 'guests is required' });
    checkChange(input, errors);
    if (errors.length) throw validationError(errors);
    if (caller.kind === 'member' && input.customerId!.toLowerCase() !== caller.id.toLowerCase()) throw forbidden('A customer books for itself only');
    if (!UUID.test(input.venueId!)) throw notFound('Venue', input.venueId!);
    await this.members?.assertExists(input.customerId!, requestId);
    return this.em.transactional(async (em) => {
      const { id } = await onceForKey(em, `booking:${caller.kind}:${caller.id}`, idempotencyKey, input, () => this.book(em, input));
      return em.findOneOrFail(Booking, { id }, { refresh: true });
    });
  }

  private async book(em: EntityManager, input: CreateBookingInput): Promise<string> {
    const venue = await this.lockVenue(em, input.venueId!);
    const duration = input.duration ?? venue.slotMinutes;
    const slots = this.slotsFor(venue, input.date!, input.time!, duration);
    await this.move(em, venue, new Map(slots.stamps.map((stamp) => [stamp, input.guests!])));
    const id = randomUUID();
    await em.execute(
      `insert into booking.booking (id, member_id, venue_id, type, date, time, duration, guests, special_requests, status, check_in_code, starts_at, ends_at, slot_starts, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?::timestamp, ?::timestamp, ?::timestamp[], now(), now())`,
      [id, input.customerId!.toLowerCase(), venue.id, input.type, input.date, input.time, duration, input.guests, input.specialRequests ?? null, newCheckInCode(),
        stampText(slots.start), stampText(slots.end), pgArray(slots.stamps.map(stampText))],
    );
    this.announce(em, BOOKING.events.created, await em.findOneOrFail(Booking, { id }, { refresh: true }), venue.name);
    return id;
  }

  /** Changes date, time, duration, guests or special requests of a confirmed booking; the places move in one pass. */
  async update(id: string, input: UpdateBookingInput, caller: Principal): Promise<Booking> {
    const errors: FieldError[] = [];
    checkChange(input, errors);
    if (errors.length) throw validationError(errors);
    return this.em.transactional(async (em) => {
      const booking = await this.lockBooking(em, id, caller);
      if (booking.status !== 'confirmed') throw conflict(`A ${booking.status} booking cannot change`);
      if (booking.checkedInAt) throw conflict('A checked-in booking cannot change');
      const changesPlaces = ['date', 'time', 'duration', 'guests'].some((field) => (input as any)[field] != null);
      if (changesPlaces) {
        const venue = await this.lockVenue(em, booking.venueId);
        const next = { date: input.date ?? booking.date, time: input.time ?? booking.time, duration: input.duration ?? booking.duration, guests: input.guests ?? booking.guests };
        const slots = this.slotsFor(venue, next.date, next.time, next.duration);
        const deltas = new Map<number, number>();
        for (const stamp of await this.heldStamps(em, booking.id)) deltas.set(stamp, -booking.guests);
        for (const stamp of slots.stamps) deltas.set(stamp, (deltas.get(stamp) ?? 0) + next.guests);
        await this.move(em, venue, deltas);
        await em.execute(
          `update booking.booking set date = ?, time = ?, duration = ?, guests = ?, starts_at = ?::timestamp, ends_at = ?::timestamp, slot_starts = ?::timestamp[], updated_at = now() where id = ?`,
          [next.date, next.time, next.duration, next.guests, stampText(slots.start), stampText(slots.end), pgArray(slots.stamps.map(stampText)), booking.id],
        );
      }
      if (input.specialRequests !== undefined) await em.execute(`update booking.booking set special_requests = ?, updated_at = now() where id = ?`, [input.specialRequests, booking.id]);
      return em.findOneOrFail(Booking, { id: booking.id }, { refresh: true });
    });
  }

  /** Cancels a confirmed (or pending) booking and frees its places; 409 once checked in, cancelled or completed. */
  async cancel(id: string, reason: string | undefined, caller: Principal): Promise<Booking> {
    if (reason != null && reason.length > MAX_REQUESTS) throw validationError([{ field: 'reason', message: `reason is at most ${MAX_REQUESTS} characters` }]);
    return this.em.transactional(async (em) => {
      const booking = await this.lockBooking(em, id, caller);
      if (booking.status !== 'confirmed' && booking.status !== 'pending') throw conflict(`A ${booking.status} booking cannot be cancelled`);
      if (booking.checkedInAt) throw conflict('A checked-in booking cannot be cancelled');
      const venue = await em.findOneOrFail(Venue, { id: booking.venueId }, INCLUDING_DELETED);
      const stamps = await this.heldStamps(em, booking.id);
      await this.move(em, venue, new Map(stamps.map((stamp) => [stamp, -booking.guests])));
      await em.execute(`update booking.booking set status = 'cancelled', cancel_reason = ?, cancelled_at = now(), updated_at = now() where id = ?`, [reason ?? null, booking.id]);
      const cancelled = await em.findOneOrFail(Booking, { id: booking.id }, { refresh: true });
      this.announce(em, BOOKING.events.cancelled, cancelled, venue.name, { reason: reason ?? null });
      return cancelled;
    });
  }

  /**
   * Checks a confirmed booking in with its code (any case), from BOOKING_CHECK_IN_LEAD_MINUTES before it
   * starts until it ends: a wrong code is 422 INVALID_CHECK_IN_CODE, outside that window 422
   * NOT_ELIGIBLE, a second check-in 409.
   */
  async checkIn(id: string, code: string | undefined, caller: Principal): Promise<Booking> {
    if (typeof code !== 'string' || !code.trim()) throw validationError([{ field: 'checkInCode', message: 'check_in_code is required' }]);
    return this.em.transactional(async (em) => {
      const booking = await this.lockBooking(em, id, caller);
      if (booking.status !== 'confirmed') throw conflict(`A ${booking.status} booking cannot be checked in`);
      if (booking.checkedInAt) throw conflict('The booking is already checked in');
      if (code.trim().toUpperCase() !== booking.checkInCode) throw ruleRefused('INVALID_CHECK_IN_CODE', 'The check-in code does not match the booking');
      await this.assertCheckInOpen(em, booking.id);
      await em.execute(`update booking.booking set checked_in_at = now(), updated_at = now() where id = ?`, [booking.id]);
      const checkedIn = await em.findOneOrFail(Booking, { id: booking.id }, { refresh: true });
      const [venue] = await em.execute<Array<{ name: string }>>(`select name from booking.venue where id = ?`, [booking.venueId]);
      this.announce(em, BOOKING.events.checkedIn, checkedIn, venue.name, { checkedInAt: checkedIn.checkedInAt!.toISOString() });
      return checkedIn;
    });
  }

  /** One booking: a customer sees its own only (another's is 403). */
  async get(id: string, caller: Principal): Promise<Booking> {
    return reachable(UUID.test(id) ? await this.em.findOne(Booking, { id }) : null, id, caller);
  }

  /** Bookings, latest slot first; a customer token lists its own only. */
  async list(args: BookingListArgs, caller: Principal): Promise<Page<Booking>> {
    const errors: FieldError[] = [];
    const where: Record<string, unknown> = {};
    if (args.customerId !== undefined) {
      if (UUID.test(args.customerId)) where.memberId = args.customerId.toLowerCase();
      else errors.push({ field: 'customerId', message: 'customer_id is a customer id' });
    }
    if (caller.kind === 'member') {
      if (where.memberId !== undefined && where.memberId !== caller.id.toLowerCase()) throw forbidden('A customer token reaches only its own bookings');
      where.memberId = caller.id.toLowerCase();
    }
    if (args.venueId !== undefined) {
      if (UUID.test(args.venueId)) where.venueId = args.venueId;
      else errors.push({ field: 'venueId', message: 'venue_id is a venue id' });
    }
    if (args.status !== undefined) {
      if ((BOOKING_STATUSES as readonly string[]).includes(args.status)) where.status = args.status;
      else errors.push({ field: 'status', message: `status is one of ${BOOKING_STATUSES.join(', ')}` });
    }
    const dates: Record<string, string> = {};
    for (const [field, value, op] of [['dateFrom', args.dateFrom, '$gte'], ['dateTo', args.dateTo, '$lte']] as const) {
      if (value === undefined) continue;
      if (dayOf(value) === null) errors.push({ field, message: `${field === 'dateFrom' ? 'date_from' : 'date_to'} is a date (YYYY-MM-DD)` });
      else dates[op] = value;
    }
    if (dates.$gte !== undefined && dates.$lte !== undefined && dates.$lte < dates.$gte) errors.push({ field: 'dateTo', message: 'date_to is on or after date_from' });
    if (Object.keys(dates).length) where.date = dates;
    if (errors.length) throw validationError(errors);
    const total = await this.em.count(Booking, where);
    return findPage(this.em, Booking, where, { date: 'desc', time: 'desc', id: 'asc' }, args, total);
  }

  /** Completes confirmed bookings whose time has ended by `now` (those never checked in are no-shows); how many. */
  async completeEnded(now = new Date()): Promise<number> {
    const rows = await this.em.execute(
      `update booking.booking set status = 'completed', completed_at = now(), updated_at = now()
       where status = 'confirmed' and ends_at <= ?::timestamp returning id`,
      [stampText(nowStamp(this.settings.timeZone, now))],
    );
    return rows.length;
  }

  /** 422 NOT_ELIGIBLE unless now is inside the booking's check-in window. */
  private async assertCheckInOpen(em: EntityManager, bookingId: string): Promise<void> {
    const [row] = await em.execute<Array<{ starts: string; ends: string }>>(
      `select to_char(starts_at, 'YYYY-MM-DD HH24:MI') as starts, to_char(ends_at, 'YYYY-MM-DD HH24:MI') as ends from booking.booking where id = ?`,
      [bookingId],
    );
    const [start, end] = [stampOf(row.starts), stampOf(row.ends)];
    const lead = this.settings.checkInLeadMinutes;
    if (!inCheckInWindow(nowStamp(this.settings.timeZone), start, end, lead))
      throw ruleRefused('NOT_ELIGIBLE', `Check-in is open from ${lead} minutes before the booking starts until it ends (${stampText(start - lead)} to ${stampText(end)}, ${this.settings.timeZone})`);
  }

  /** The slots of a booking at the venue, or 422: not a date's slot start, past closing, or already started. */
  private slotsFor(venue: Venue, date: string, time: string, duration: number) {
    const slots = coveredSlots(venue, date, time, duration);
    if ('refusal' in slots) throw ruleRefused('NO_AVAILABILITY', `No availability: ${slots.refusal}`);
    if (slots.start <= nowStamp(this.settings.timeZone)) throw ruleRefused('NO_AVAILABILITY', 'No availability: the slot has already started');
    return slots;
  }

  /**
   * Moves places by slot (positive: takes, negative: frees), in ascending slot order, each with one
   * UPDATE under the slot row's lock; a take that would pass the venue's capacity refuses the whole
   * transaction (422 NO_AVAILABILITY).
   */
  private async move(em: EntityManager, venue: Venue, deltas: Map<number, number>): Promise<void> {
    for (const stamp of [...deltas.keys()].sort((a, b) => a - b)) {
      const delta = deltas.get(stamp)!;
      if (delta === 0) continue;
      const startsAt = stampText(stamp);
      if (delta > 0) {
        await em.execute(`insert into booking.venue_slot (venue_id, starts_at, held) values (?, ?::timestamp, 0) on conflict do nothing`, [venue.id, startsAt]);
        const taken = await em.execute(`update booking.venue_slot set held = held + ? where venue_id = ? and starts_at = ?::timestamp and held + ? <= ? returning held`, [
          delta, venue.id, startsAt, delta, venue.capacity,
        ]);
        if (taken.length === 0) throw ruleRefused('NO_AVAILABILITY', `No availability: the slot at ${startsAt} has fewer than ${delta} free places`);
      } else {
        await em.execute(`update booking.venue_slot set held = greatest(held + ?, 0) where venue_id = ? and starts_at = ?::timestamp`, [delta, venue.id, startsAt]);
      }
    }
  }

  private async heldStamps(em: EntityManager, bookingId: string): Promise<number[]> {
    const [row] = await em.execute(`select array(select to_char(s, 'YYYY-MM-DD HH24:MI') from unnest(slot_starts) s) as starts from booking.booking where id = ?`, [bookingId]);
    return (row.starts as string[]).map(stampOf);
  }

  /** A live venue, shared-locked against deletion and changes of its hours while the booking is made; 404 otherwise. */
  private async lockVenue(em: EntityManager, venueId: string): Promise<Venue> {
    const rows = await em.execute(`select id from booking.venue where id = ? and deleted_at is null for share`, [venueId]);
    if (rows.length === 0) throw notFound('Venue', venueId);
    return em.findOneOrFail(Venue, { id: venueId }, { refresh: true });
  }

  /** The booking, row-locked; 404 for what is no booking, 403 for a customer's reach into another's. */
  private async lockBooking(em: EntityManager, id: string, caller: Principal): Promise<Booking> {
    const rows = UUID.test(id) ? await em.execute(`select id from booking.booking where id = ? for update`, [id]) : [];
    return reachable(rows.length ? await em.findOneOrFail(Booking, { id }, { refresh: true }) : null, id, caller);
  }

  private announce(em: EntityManager, type: EventType<BookingChanged>, booking: Booking, venueName: string, extra: Partial<BookingChanged> = {}): void {
    const payload: BookingChanged = {
      bookingId: booking.id,
      memberId: booking.memberId,
      venueId: booking.venueId,
      venueName,
      type: booking.type,
      date: booking.date,
      time: booking.time,
      duration: booking.duration,
      guests: booking.guests,
      status: booking.status,
      ...extra,
      occurredAt: new Date().toISOString(),
    };
    recordEvent(em, type, payload, { aggregateId: booking.memberId });
  }
}

/**
 * The booking as the caller may reach it: 404 when there is none; a customer token reaching another
 * customer's booking is 403 (CONTRACT-v1 section 2, as for other customers' records), never its data.
 */
function reachable(booking: Booking | null, id: string, caller: Principal): Booking {
  if (!booking) throw notFound('Booking', id);
  if (caller.kind === 'member' && booking.memberId !== caller.id.toLowerCase()) throw forbidden("A customer token reaches only the customer's own bookings");
  return booking;
}

/** The changeable fields' checks (shared by create and update). */
function checkChange(input: UpdateBookingInput, errors: FieldError[]): void {
  if (input.date != null && dayOf(input.date) === null) errors.push({ field: 'date', message: 'date is a date (YYYY-MM-DD)' });
  if (input.time != null && !TIME.test(input.time)) errors.push({ field: 'time', message: 'time is a time HH:MM' });
  if (input.duration != null && (!Number.isInteger(input.duration) || input.duration < 1 || input.duration > MAX_DURATION)) errors.push({ field: 'duration', message: `duration is whole minutes from 1 to ${MAX_DURATION}` });
  if (input.guests != null && (!Number.isInteger(input.guests) || input.guests < 1 || input.guests > MAX_GUESTS)) errors.push({ field: 'guests', message: `guests is a whole number from 1 to ${MAX_GUESTS}` });
  if (input.specialRequests != null && input.specialRequests.length > MAX_REQUESTS) errors.push({ field: 'specialRequests', message: `special_requests is at most ${MAX_REQUESTS} characters` });
}
