import { isUUID } from 'class-validator';
import { validationError } from '../../core/errors';
import type { V1PlatformFailure, V1RouteFailure } from '../route';

/** A booking as the booking subgraph answers it. */
export interface BookingRecord {
  id: string;
  memberId: string;
  venueId: string;
  [field: string]: unknown;
}

/** A booking in v1 (camelCase here): `customer_id` for the subgraph's member. */
export function bookingOf(booking: BookingRecord): Record<string, unknown> {
  const { memberId, member, ...rest } = booking;
  return { customerId: memberId, ...rest, ...(member ? { customer: member } : {}) };
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

/** GET /bookings: a customer_id that is no id is a 400 here (the subgraph checks the rest). */
export function bookingListVariables(query: Record<string, unknown>): Record<string, unknown> {
  if (query.customerId !== undefined && (typeof query.customerId !== 'string' || !isUUID(query.customerId))) throw validationError([{ field: 'customer_id', message: 'customer_id is a customer id' }]);
  return { page: query.page, limit: query.limit, customerId: query.customerId, venueId: query.venueId, status: query.status, dateFrom: query.dateFrom, dateTo: query.dateTo };
}

/**
 * The booking domain's failures in v1: a refused rule (`data.rule`: NO_AVAILABILITY,
 * INVALID_CHECK_IN_CODE) is 422 with that code; a 404 names what was not found (customer, venue).
 */
export function bookingFailure(failure: V1PlatformFailure): V1RouteFailure | undefined {
  const rule = (failure.data as { rule?: string } | undefined)?.rule;
  if (failure.status === 400 && rule) return { status: 422, code: rule, message: failure.message };
  if (failure.status === 404 && /^Member\b/.test(failure.message)) return { status: 404, code: 'CUSTOMER_NOT_FOUND', message: 'Customer not found' };
  if (failure.status === 404 && /^Venue\b/.test(failure.message)) return { status: 404, code: 'VENUE_NOT_FOUND', message: failure.message };
  return undefined;
}
