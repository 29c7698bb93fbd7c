import { validationError } from '../../../core/errors';
import type { V1PlatformFailure, V1RouteFailure } from '../../../core/rest/route';
import { declaredFailure } from '../../../core/rest/failures';

/** The member a booking's detail reads (`member { id nickName name email phoneNumber }`). */
interface BookingMember {
  id: string;
  nickName: string | null;
  name: string | null;
  email?: string | null;
  phoneNumber: string | null;
}

/** A booking as the booking subgraph answers it. */
export interface BookingRecord {
  id: string;
  memberId: string;
  venueId: string;
  member?: BookingMember | null;
  [field: string]: unknown;
}

/** A booking in v1 (camelCase here): `customer_id` for the subgraph's member; the detail's `customer` as the v1 customer names its fields. */
export function bookingOf(booking: BookingRecord): Record<string, unknown> {
  const { memberId, member, ...rest } = booking;
  return { customerId: memberId, ...rest, ...(member ? { customer: embeddedCustomerOf(member) } : {}) };
}

/** The customer embedded in a booking: `{id, name, email, phone}`, as GET /customers/{id} names them. */
const embeddedCustomerOf = (member: BookingMember): Record<string, unknown> => ({ id: member.id, name: member.name ?? member.nickName, email: member.email ?? null, phone: member.phoneNumber });

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

/** A refused rule (its reason: NO_AVAILABILITY, INVALID_CHECK_IN_CODE, NOT_ELIGIBLE) is 422 with that code. */
const answerBookingFailure = ({ status, reason, message }: V1PlatformFailure): V1RouteFailure | undefined => (status === 400 && reason ? { status: 422, code: reason, message } : undefined);

/** The booking routes' own failures: their business rules (422), each route's to declare (`doc.errors`). */
export const bookingFailure = declaredFailure({}, answerBookingFailure);
