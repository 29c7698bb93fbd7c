import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { conflict, FieldError, notFound, validationError } from '../../../core/errors';
import { findPage, Page, pageOf } from '../../../core/pagination';
import { DaySlots, Venue, VENUE_TYPES } from '../entities/venue';
import { AvailabilityArgs, VenueAvailability, VenueInput, VenueListArgs } from '../types/venue.types';
import { dateOf, dayOf, daySlots, MINUTES_PER_DAY, nowStamp, pgArray, SlotGrid, stampText, TIME, timeOf } from './slots';

/** Days of `available_slots`: today and the 6 after. */
export const HORIZON_DAYS = 7;
/** The longest availability range, in days. */
export const MAX_AVAILABILITY_DAYS = 31;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_CAPACITY = 100_000;
const GRID_FIELDS = ['openingTime', 'closingTime', 'slotMinutes'] as const;

/** Venues (admin) and their availability (anyone who may read, customers too). */
export class VenueService {
  constructor(
    private readonly em: EntityManager,
    private readonly timeZone: string,
  ) {}

  async create(input: VenueInput): Promise<Venue> {
    const fields = { ...input, slotMinutes: input.slotMinutes ?? 60 };
    checkVenue(fields, true);
    const venue = this.em.create(Venue, {
      name: fields.name!.trim(),
      type: fields.type!,
      address: fields.address ?? null,
      phone: fields.phone ?? null,
      capacity: fields.capacity!,
      openingTime: fields.openingTime!,
      closingTime: fields.closingTime!,
      slotMinutes: fields.slotMinutes,
    });
    await this.em.flush();
    return this.withSlots(venue);
  }

  /**
   * Changes what is given. Opening hours and slot length are fixed while the venue has upcoming confirmed
   * bookings (their places sit in today's slots: 409); a lower capacity keeps the bookings made. The
   * venue row is locked first (bookings share-lock it while they are made): a booking in flight
   * commits before the check, and one that comes after sees the change.
   */
  async update(id: string, input: VenueInput): Promise<Venue> {
    const changed = await this.em.transactional(async (em) => {
      const venue = await this.lockLive(em, id);
      const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as VenueInput;
      checkVenue({ ...venue, ...given }, false, given);
      const gridChanges = GRID_FIELDS.some((field) => given[field] != null && given[field] !== venue[field]);
      if (gridChanges && (await this.hasUpcomingBookings(em, venue.id))) throw conflict('The venue has upcoming bookings: its opening hours and slot length cannot change');
      for (const field of ['name', 'type', 'address', 'phone', 'capacity', ...GRID_FIELDS] as const) {
        if (given[field] !== undefined) (venue as any)[field] = field === 'name' ? given.name!.trim() : given[field];
      }
      return venue;
    });
    return this.withSlots(changed);
  }

  /**
   * Removes a venue from lists and booking (its bookings stay readable); 409 while it has upcoming
   * confirmed bookings. Locks the venue row as `update` does, so no booking slips in after the check.
   */
  async delete(id: string): Promise<boolean> {
    return this.em.transactional(async (em) => {
      const venue = await this.lockLive(em, id);
      if (await this.hasUpcomingBookings(em, venue.id)) throw conflict('The venue has upcoming bookings: cancel them first');
      venue.deletedAt = new Date();
      return true;
    });
  }

  async get(id: string): Promise<Venue> {
    return this.withSlots(await this.live(id));
  }

  /** A venue, also one since removed (a booking's); 404 otherwise. */
  async byId(id: string): Promise<Venue> {
    return this.withSlots(await this.em.findOneOrFail(Venue, { id }, { ...INCLUDING_DELETED, failHandler: () => notFound('Venue', id) }));
  }

  /** A live venue, or 404 (also for what is no id). */
  async live(id: string): Promise<Venue> {
    const venue = UUID.test(id) ? await this.em.findOne(Venue, { id }) : null;
    if (!venue) throw notFound('Venue', id);
    return venue;
  }

  /** A live venue locked for a change (`for update`: waits for the bookings being made there), or 404. */
  private async lockLive(em: EntityManager, id: string): Promise<Venue> {
    const venue = UUID.test(id) ? await em.findOne(Venue, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!venue) throw notFound('Venue', id);
    return venue;
  }

  /**
   * Venues, newest first, filtered by type, address (contains, any case) and whether they have a free
   * slot in the horizon. Without `available` the page is read in SQL and only its venues' slots are
   * computed; `available` needs every matching venue's slots (computed from its hours), then pages.
   */
  async list(args: VenueListArgs): Promise<Page<Venue>> {
    const errors: FieldError[] = [];
    if (args.type !== undefined && !(VENUE_TYPES as readonly string[]).includes(args.type)) errors.push({ field: 'type', message: `type is one of ${VENUE_TYPES.join(', ')}` });
    if (errors.length) throw validationError(errors);
    const where: Record<string, unknown> = {};
    if (args.type) where.type = args.type;
    if (args.location) where.address = { $ilike: `%${args.location.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
    const orderBy = { createdAt: 'desc', id: 'asc' } as const;
    if (args.available === undefined) {
      const page = await findPage(this.em, Venue, where, orderBy, args, await this.em.count(Venue, where));
      await this.fillSlots(page.data);
      return page;
    }
    const venues = await this.em.find(Venue, where, { orderBy });
    await this.fillSlots(venues);
    const matching = venues.filter((venue) => venue.availableSlots.some((day) => day.times.length > 0) === args.available);
    return pageOf(matching.slice((args.page - 1) * args.limit, args.page * args.limit), matching.length, args);
  }

  /** Free places per slot and service day from `dateFrom` (today) to `dateTo` (6 days later), at most 31 days. */
  async availability(args: AvailabilityArgs): Promise<VenueAvailability> {
    const errors: FieldError[] = [];
    const today = Math.floor(nowStamp(this.timeZone) / MINUTES_PER_DAY);
    const from = args.dateFrom === undefined ? today : dayOf(args.dateFrom);
    if (from === null) errors.push({ field: 'dateFrom', message: 'date_from is a date (YYYY-MM-DD)' });
    const to = args.dateTo === undefined ? (from ?? today) + HORIZON_DAYS - 1 : dayOf(args.dateTo);
    if (to === null) errors.push({ field: 'dateTo', message: 'date_to is a date (YYYY-MM-DD)' });
    if (from !== null && to !== null && (to < from || to - from >= MAX_AVAILABILITY_DAYS))
      errors.push({ field: 'dateTo', message: `date_to is on or after date_from, at most ${MAX_AVAILABILITY_DAYS} days in all` });
    if (args.type !== undefined && !['table', 'slot', 'ticket'].includes(args.type)) errors.push({ field: 'type', message: 'type is one of table, slot, ticket' });
    const venue = await this.live(args.venueId);
    if (errors.length) throw validationError(errors);
    const days = Array.from({ length: to! - from! + 1 }, (_, index) => from! + index);
    const held = await this.heldIn([venue.id], days[0], days[days.length - 1]);
    const now = nowStamp(this.timeZone);
    return {
      venueId: venue.id,
      availability: days.map((day) => ({
        date: dateOf(day),
        slots: daySlots(venue, day).map((stamp) => ({
          time: timeOf(stamp),
          available: stamp <= now ? 0 : Math.max(0, venue.capacity - (held.get(`${venue.id} ${stampText(stamp)}`) ?? 0)),
          capacity: venue.capacity,
        })),
      })),
    };
  }

  private async withSlots(venue: Venue): Promise<Venue> {
    await this.fillSlots([venue]);
    return venue;
  }

  /** Sets each venue's `availableSlots`: the horizon's slot starts that have not started and have a free place. */
  private async fillSlots(venues: Venue[]): Promise<void> {
    if (venues.length === 0) return;
    const now = nowStamp(this.timeZone);
    const today = Math.floor(now / MINUTES_PER_DAY);
    const held = await this.heldIn(venues.map((venue) => venue.id), today, today + HORIZON_DAYS - 1);
    for (const venue of venues) {
      venue.availableSlots = Array.from({ length: HORIZON_DAYS }, (_, index): DaySlots => {
        const day = today + index;
        const times = daySlots(venue, day)
          .filter((stamp) => stamp > now && (held.get(`${venue.id} ${stampText(stamp)}`) ?? 0) < venue.capacity)
          .map(timeOf);
        return { date: dateOf(day), times };
      });
    }
  }

  /** Places held per `<venue id> <YYYY-MM-DD HH:MM>` in the slots of service days `first` to `last` (those past midnight included). */
  private async heldIn(venueIds: string[], first: number, last: number): Promise<Map<string, number>> {
    const rows: Array<{ venue_id: string; starts: string; held: number }> = await this.em.execute(
      `select venue_id, to_char(starts_at, 'YYYY-MM-DD HH24:MI') as starts, held from booking.venue_slot
       where venue_id = any(?::uuid[]) and starts_at >= ?::timestamp and starts_at < ?::timestamp and held > 0`,
      [pgArray(venueIds), stampText(first * MINUTES_PER_DAY), stampText((last + 2) * MINUTES_PER_DAY)],
    );
    return new Map(rows.map((row) => [`${row.venue_id} ${row.starts}`, Number(row.held)]));
  }

  private async hasUpcomingBookings(em: EntityManager, venueId: string): Promise<boolean> {
    const rows = await em.execute(`select 1 from booking.booking where venue_id = ? and status = 'confirmed' and ends_at > ?::timestamp limit 1`, [
      venueId,
      stampText(nowStamp(this.timeZone)),
    ]);
    return rows.length > 0;
  }
}

/** Every bad field of a venue at once (400); `given` names the fields of a partial update. */
function checkVenue(venue: VenueInput, creating: boolean, given: VenueInput = venue): void {
  const errors: FieldError[] = [];
  const present = (field: keyof VenueInput) => creating || given[field] !== undefined;
  if (present('name') && (typeof venue.name !== 'string' || !venue.name.trim() || venue.name.length > 200)) errors.push({ field: 'name', message: 'name is required, at most 200 characters' });
  if (present('type') && !(VENUE_TYPES as readonly string[]).includes(venue.type ?? '')) errors.push({ field: 'type', message: `type is one of ${VENUE_TYPES.join(', ')}` });
  if (venue.address != null && (typeof venue.address !== 'string' || venue.address.length > 500)) errors.push({ field: 'address', message: 'address is at most 500 characters' });
  if (venue.phone != null && !/^\+?[0-9 ()-]{3,32}$/.test(venue.phone)) errors.push({ field: 'phone', message: 'phone is 3 to 32 digits, spaces, dashes or parentheses, with an optional leading +' });
  if (present('capacity') && (!Number.isInteger(venue.capacity) || venue.capacity! < 1 || venue.capacity! > MAX_CAPACITY)) errors.push({ field: 'capacity', message: `capacity is a whole number from 1 to ${MAX_CAPACITY}` });
  for (const field of ['openingTime', 'closingTime'] as const) {
    if (present(field) && (typeof venue[field] !== 'string' || !TIME.test(venue[field]!))) errors.push({ field, message: `${field === 'openingTime' ? 'opening_time' : 'closing_time'} is a time HH:MM` });
  }
  if (present('slotMinutes') && (!Number.isInteger(venue.slotMinutes) || venue.slotMinutes! < 5 || venue.slotMinutes! > MINUTES_PER_DAY)) errors.push({ field: 'slotMinutes', message: 'slot_minutes is a whole number from 5 to 1440' });
  if (errors.length === 0 && (venue.openingTime !== undefined || venue.closingTime !== undefined)) {
    const grid = venue as SlotGrid;
    const open = Number(grid.openingTime.slice(0, 2)) * 60 + Number(grid.openingTime.slice(3));
    let close = Number(grid.closingTime.slice(0, 2)) * 60 + Number(grid.closingTime.slice(3));
    if (close <= open) close += MINUTES_PER_DAY;
    if (grid.slotMinutes > close - open) errors.push({ field: 'slotMinutes', message: 'slot_minutes is at most the time from opening to closing' });
  }
  if (errors.length) throw validationError(errors);
}

