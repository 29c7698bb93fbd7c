import { validationError } from '../../core/errors';
import type { V1PlatformFailure, V1RouteFailure } from '../../core/rest/route';
import { declaredFailure } from '../../core/rest/failures';
import { customerOf, MemberRecord } from '../../core/rest/customer';

/** A booking as the booking subgraph answers it. */
export interface BookingRecord {
  id: string;
  memberId: string;
  venueId: string;
  [field: string]: unknown;
}

/** A booking in v1 (camelCase here): `customer_id` for the subgraph's member; the detail's `customer` as the v1 customer names its fields. */
export function bookingOf(booking: BookingRecord): Record<string, unknown> {
  const { memberId, member, ...rest } = booking;
  return { customerId: memberId, ...rest, ...(member ? { customer: embeddedCustomerOf(member as MemberRecord) } : {}) };
}

/** The customer embedded in a booking: `{id, name, email, phone}`, mapped as GET /customers/{id} maps them. */
function embeddedCustomerOf(member: MemberRecord): Record<string, unknown> {
  const { id, name, email, phone } = customerOf(member, new Set());
  return { id, name, email, phone };
}

/** POST /bookings: the body's known fields as the operation's input. */
export function createBookingVariables(body: Record<string, unknown>): Record<string, unknown> {
  const { customerId, venueId, type, date, time, duration, guests, specialRequests } = body;
  return { input: { customerId, venueId, type, date, time, duration, guests, specialRequests } };
}

/** PATCH /bookings/{id}. */
export function updateBookingVariables(params: Record<string, string>, body: Record<string, unknown>): Record<string, unknown> {
  const { date, time, duration, guests, specialRequests } = body;
  return { id: params.id, input: { date, time, duration, guests, specialRequests } };
}

/** POST/PATCH /venues. */
export function venueInputOf(body: Record<string, unknown>): Record<string, unknown> {
  const { name, type, address, phone, capacity, openingTime, closingTime, slotMinutes } = body;
  return { name, type, address, phone, capacity, openingTime, closingTime, slotMinutes };
}

/** GET /venues: `type`, `location`, `available` (true or false), `page`, `limit`. */
export function venueListVariables(query: Record<string, unknown>): Record<string, unknown> {
  const variables: Record<string, unknown> = { page: query.page, limit: query.limit, type: query.type, location: query.location };
  if (query.available !== undefined) {
    if (query.available === 'true' || query.available === 'false') variables.available = query.available === 'true';
    else throw validationError([{ field: 'available', message: 'available is true or false' }]);
  }
  return variables;
}

/**
 * The booking domain's failures in v1: a refused rule (`data.rule`: NO_AVAILABILITY,
 * INVALID_CHECK_IN_CODE, NOT_ELIGIBLE) is 422 with that code; a 404 names what was not found (customer, venue).
 */
function answerBookingFailure(failure: V1PlatformFailure): V1RouteFailure | undefined {
  const rule = (failure.data as { rule?: string } | undefined)?.rule;
  if (failure.status === 400 && rule) return { status: 422, code: rule, message: failure.message };
  if (failure.status === 404 && /^Member\b/.test(failure.message)) return { status: 404, code: 'CUSTOMER_NOT_FOUND', message: 'Customer not found' };
  if (failure.status === 404 && /^Venue\b/.test(failure.message)) return { status: 404, code: 'VENUE_NOT_FOUND', message: failure.message };
  return undefined;
}

/** Its business rules (422) are each route's to declare. */
export const bookingFailure = declaredFailure({ 404: { CUSTOMER_NOT_FOUND: 'no customer by customer_id', VENUE_NOT_FOUND: 'no venue by venue_id' } }, answerBookingFailure);
