import { TestMember, TestPlatform, TestStaff } from './test-platform';

export const VENUES = '/api/v1/venues';
export const BOOKINGS = '/api/v1/bookings';

/** A service day `days` from today (UTC, the test platform's BOOKING_TIME_ZONE). */
export const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Venue hours under which `slotSoon` is a slot: open all day, 5-minute slots. */
export const OPEN_ALL_DAY = { opening_time: '00:00', closing_time: '00:00', slot_minutes: 5 };

/**
 * A booking slot that can be checked in right away (check-in opens BOOKING_CHECK_IN_LEAD_MINUTES, 30 by
 * default, before the start), at an OPEN_ALL_DAY venue: the slot after next, 5 to 10 minutes from now
 * (UTC), so still bookable when the request arrives. Book it with `duration: 5` (one slot ends by
 * midnight, the closing time).
 */
export function slotSoon(now = Date.now()): { date: string; time: string } {
  const start = new Date((Math.floor(now / 300_000) + 2) * 300_000).toISOString();
  return { date: start.slice(0, 10), time: start.slice(11, 16) };
}

/** The REST calls of the booking tests: as `staff` unless another token is given; bookings are `customer`'s unless the fields say otherwise. */
export function bookingClient(platform: TestPlatform, staff: TestStaff, customer: TestMember) {
  const api = (method: string, path: string, body?: unknown, token: string = staff.token, headers?: Record<string, string>) => platform.api(method, path, { token, body, headers });

  async function createVenue(fields: Record<string, unknown> = {}) {
    const response = await api('POST', VENUES, { name: 'Riverside', type: 'restaurant', address: '1 River Road, Bangkok', phone: '+66 2 123 4567', capacity: 10, opening_time: '10:00', closing_time: '22:00', ...fields });
    if (response.status !== 201) throw new Error(`venue: ${JSON.stringify(response.body)}`);
    return response.body.data as { id: string; capacity: number };
  }

  /** Books 2 guests at 19:00 for 60 minutes, three days from now, unless `fields` say otherwise. */
  const book = (venueId: string, fields: Record<string, unknown> = {}, token = staff.token, headers?: Record<string, string>) =>
    api('POST', BOOKINGS, { customer_id: customer.id, venue_id: venueId, type: 'table', date: dayFromNow(3), time: '19:00', duration: 60, guests: 2, ...fields }, token, headers);

  /** A booking of the next slots of an OPEN_ALL_DAY venue (one made here unless given): it can be checked in now. */
  async function bookSoon(fields: Record<string, unknown> = {}, token = staff.token, venueId?: string) {
    const venue = venueId ?? (await createVenue(OPEN_ALL_DAY)).id;
    const response = await book(venue, { ...slotSoon(), duration: 5, ...fields }, token);
    if (response.status !== 201) throw new Error(`booking: ${JSON.stringify(response.body)}`);
    return response.body.data as { id: string; venue_id: string; date: string; time: string; check_in_code: string };
  }

  const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();

  return { api, createVenue, book, bookSoon, detailFields };
}
