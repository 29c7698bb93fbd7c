import { Route, V1_BASE } from '../../../core/rest/route';
import { arrayOf, boolean, date, id, integer, matching, NOT_BLANK, nullable, object, oneOf, ref, string } from '../../../core/rest/json-schema';
import { BOOKING_TYPES } from '../entities/booking';
import { VENUE_TYPES } from '../entities/venue';
import { MAX_DURATION, MAX_GUESTS, MAX_REQUESTS } from '../services/booking.service';
import { TIME as SLOT_TIME } from '../services/slots';
import { MAX_CAPACITY } from '../services/venue.service';
import { bookingFailure, bookingOf, BookingRecord, createBookingVariables, updateBookingVariables, venueInputOf, venueListVariables } from './v1-bookings';

const VENUE_FIELDS = 'id name type address phone capacity openingTime closingTime slotMinutes availableSlots { date times } createdAt updatedAt';
const BOOKING_FIELDS = 'id memberId venueId type date time duration guests specialRequests status checkInCode qrCode cancelReason cancelledAt checkedInAt completedAt noShow createdAt updatedAt';

const VENUES = `${V1_BASE}/venues`;
const BOOKINGS = `${V1_BASE}/bookings`;
const TIME = matching(SLOT_TIME, { description: 'HH:MM' });
const BOOKING_TYPE = oneOf(...BOOKING_TYPES);
const VENUE = ref('Venue');
const BOOKING = ref('Booking');

/** A venue to create, or what to change of one (a field left out stays; `address` and `phone` null clear). */
const VENUE_BODY = (creating: boolean) =>
  object(
    {
      name: string({ ...NOT_BLANK, maxLength: 200 }),
      type: oneOf(...VENUE_TYPES),
      address: nullable(string({ maxLength: 500 })),
      phone: nullable(string({ pattern: '^\\+?[0-9 ()-]{3,32}$' })),
      capacity: integer({ minimum: 1, maximum: MAX_CAPACITY, description: 'Guests per slot' }),
      opening_time: TIME,
      closing_time: TIME,
      slot_minutes: creating ? nullable(integer({ minimum: 5, maximum: 1440, default: 60, description: 'null: 60' })) : integer({ minimum: 5, maximum: 1440 }),
    },
    creating ? ['name', 'type', 'capacity', 'opening_time', 'closing_time'] : [],
  );
const SPECIAL_REQUESTS = nullable(string({ maxLength: MAX_REQUESTS }));
/** A booking write's 404s by what was not found: the booking, the customer booked for, the venue. */
const BOOKING_OR_PARTS_NOT_FOUND = { Booking: 'BOOKING_NOT_FOUND', Member: 'CUSTOMER_NOT_FOUND', Venue: 'VENUE_NOT_FOUND' };
const NO_AVAILABILITY = { 422: { NO_AVAILABILITY: 'a slot is full, the time is no slot start, the booking ends after closing, or the slot has started' } };

/**
 * Venues (CONTRACT-v1 section 5: management needs `admin`; anyone with `read`, customers too, lists them)
 * and bookings (customers on their own; staff with `write` for anyone).
 */
export const V1_BOOKING_ROUTES: Route[] = [
  {
    method: 'post',
    path: VENUES,
    document: `mutation V1CreateVenue($input: VenueInput!) { createVenue(input: $input) { ${VENUE_FIELDS} } }`,
    envelope: 'v1',
    status: 201,
    scope: 'admin',
    doc: { summary: 'Creates a venue: slots every slot_minutes from opening to closing time, capacity guests each', body: VENUE_BODY(true), response: VENUE },
    variables: ({ body }) => ({ input: venueInputOf(body) }),
  },
  {
    method: 'patch',
    path: `${VENUES}/:id`,
    document: `mutation V1UpdateVenue($id: ID!, $input: VenueInput!) { updateVenue(id: $id, input: $input) { ${VENUE_FIELDS} } }`,
    envelope: 'v1',
    scope: 'admin',
    notFound: 'VENUE_NOT_FOUND',
    doc: { summary: 'Changes a venue (opening hours and slot length: 409 INVALID_STATE while it has upcoming bookings)', body: VENUE_BODY(false), response: VENUE },
    variables: ({ params, body }) => ({ id: params.id, input: venueInputOf(body) }),
  },
  {
    method: 'delete',
    path: `${VENUES}/:id`,
    document: `mutation V1DeleteVenue($id: ID!) { deleteVenue(id: $id) }`,
    envelope: 'v1',
    status: 204,
    scope: 'admin',
    notFound: 'VENUE_NOT_FOUND',
    doc: { summary: 'Removes a venue (409 INVALID_STATE while it has upcoming confirmed bookings); its bookings stay readable' },
  },
  {
    method: 'get',
    path: VENUES,
    document: `query V1Venues($page: Int, $limit: Int, $type: String, $location: String, $available: Boolean) {
    venues(page: $page, limit: $limit, type: $type, location: $location, available: $available) { meta { page limit total } data { ${VENUE_FIELDS} } } }`,
    envelope: 'v1List',
    customer: 'self',
    doc: {
      summary: 'Venues, newest first, each with its free slots of today and the next 6 days',
      query: { type: oneOf('restaurant', 'event', 'service'), location: string({ description: 'part of the address, any case' }), available: boolean({ description: 'true: a free slot in the 7 days; false: none' }) },
      response: VENUE,
    },
    variables: ({ query }) => venueListVariables(query),
  },
  {
    method: 'get',
    path: `${VENUES}/:id`,
    document: `query V1Venue($id: ID!) { venue(id: $id) { ${VENUE_FIELDS} } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: 'VENUE_NOT_FOUND',
    doc: { summary: 'One venue with its free slots of today and the next 6 days', response: VENUE },
  },
  {
    method: 'get',
    path: `${VENUES}/:id/availability`,
    document: `query V1VenueAvailability($venueId: ID!, $dateFrom: String, $dateTo: String, $type: String) {
    venueAvailability(venueId: $venueId, dateFrom: $dateFrom, dateTo: $dateTo, type: $type) { venueId availability { date slots { time available capacity } } } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: 'VENUE_NOT_FOUND',
    doc: {
      summary: 'Free places per slot and service day (default today and the next 6 days; at most 31 days)',
      query: { date_from: date({ description: 'first service day' }), date_to: date({ description: 'last service day' }), type: BOOKING_TYPE },
      response: object({
        venue_id: id(),
        availability: arrayOf(object({ date: date(), slots: arrayOf(object({ time: TIME, available: integer({ description: 'free places; 0 once started' }), capacity: integer() })) })),
      }),
    },
    variables: ({ params, query }) => ({ venueId: params.id, dateFrom: query.dateFrom, dateTo: query.dateTo, type: query.type }),
  },
  {
    method: 'post',
    path: BOOKINGS,
    document: `mutation V1CreateBooking($input: CreateBookingInput!, $idempotencyKey: String) {
    createBooking(input: $input, idempotencyKey: $idempotencyKey) { ${BOOKING_FIELDS} } }`,
    envelope: 'v1',
    status: 201,
    idempotent: true,
    customer: 'self',
    notFound: { Venue: 'VENUE_NOT_FOUND', Member: 'CUSTOMER_NOT_FOUND' },
    doc: {
      summary: 'Books guests places in every slot the duration covers (status confirmed, a check-in code and its QR image); a customer token books for itself',
      body: object(
        {
          customer_id: id({ minLength: 1 }),
          venue_id: id({ minLength: 1 }),
          type: BOOKING_TYPE,
          date: date({ description: 'the service day' }),
          time: TIME,
          duration: nullable(integer({ minimum: 1, maximum: MAX_DURATION, description: 'minutes (left out or null: the venue slot)' })),
          guests: integer({ minimum: 1, maximum: MAX_GUESTS }),
          special_requests: SPECIAL_REQUESTS,
        },
        ['customer_id', 'venue_id', 'type', 'date', 'time', 'guests'],
      ),
      response: BOOKING,
      errors: NO_AVAILABILITY,
    },
    variables: ({ body }) => createBookingVariables(body),
    payload: ({ createBooking }) => bookingOf(createBooking as BookingRecord),
    v1Failure: bookingFailure,
  },
  {
    method: 'get',
    path: BOOKINGS,
    document: `query V1Bookings($page: Int, $limit: Int, $customerId: ID, $venueId: ID, $status: String, $dateFrom: String, $dateTo: String) {
    bookings(page: $page, limit: $limit, customerId: $customerId, venueId: $venueId, status: $status, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { ${BOOKING_FIELDS} } } }`,
    envelope: 'v1List',
    customer: 'self',
    doc: {
      summary: 'Bookings, latest service day first (a customer token: its own); date_to before date_from is 400',
      query: { customer_id: id(), venue_id: id(), status: oneOf('pending', 'confirmed', 'cancelled', 'completed'), date_from: date({ description: 'service days from' }), date_to: date({ description: 'service days to' }) },
      response: BOOKING,
    },
    payload: ({ bookings }) => ({ ...bookings, data: bookings.data.map((booking: BookingRecord) => bookingOf(booking)) }),
  },
  {
    method: 'get',
    path: `${BOOKINGS}/:id`,
    document: `query V1Booking($id: ID!) { booking(id: $id) { ${BOOKING_FIELDS} venue { ${VENUE_FIELDS} } member { id nickName name email phoneNumber } } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: 'BOOKING_NOT_FOUND',
    doc: { summary: 'One booking with its venue and customer', response: BOOKING },
    payload: ({ booking }) => bookingOf(booking as BookingRecord),
  },
  {
    method: 'patch',
    path: `${BOOKINGS}/:id`,
    document: `mutation V1UpdateBooking($id: ID!, $input: UpdateBookingInput!) { updateBooking(id: $id, input: $input) { ${BOOKING_FIELDS} } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: BOOKING_OR_PARTS_NOT_FOUND,
    doc: {
      summary: 'Changes a confirmed booking; its places move in one transaction, capacity checked again (409 INVALID_STATE once checked in, cancelled or completed)',
      body: object(
        { date: nullable(date()), time: nullable(TIME), duration: nullable(integer({ minimum: 1, maximum: MAX_DURATION })), guests: nullable(integer({ minimum: 1, maximum: MAX_GUESTS })), special_requests: SPECIAL_REQUESTS },
        [],
        { description: 'A field left out or null stays as it is' },
      ),
      response: BOOKING,
      errors: NO_AVAILABILITY,
    },
    variables: ({ params, body }) => updateBookingVariables(params, body),
    payload: ({ updateBooking }) => bookingOf(updateBooking as BookingRecord),
    v1Failure: bookingFailure,
  },
  {
    method: 'post',
    path: `${BOOKINGS}/:id/cancel`,
    document: `mutation V1CancelBooking($id: ID!, $reason: String) { cancelBooking(id: $id, reason: $reason) { ${BOOKING_FIELDS} } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: BOOKING_OR_PARTS_NOT_FOUND,
    doc: { summary: 'Cancels a booking and frees its places (409 INVALID_STATE once checked in, cancelled or completed)', body: object({ reason: nullable(string({ maxLength: MAX_REQUESTS })) }), response: BOOKING },
    variables: ({ params, body }) => ({ id: params.id, reason: body.reason }),
    payload: ({ cancelBooking }) => bookingOf(cancelBooking as BookingRecord),
    v1Failure: bookingFailure,
  },
  {
    method: 'post',
    path: `${BOOKINGS}/:id/checkin`,
    document: `mutation V1CheckInBooking($id: ID!, $checkInCode: String) { checkInBooking(id: $id, checkInCode: $checkInCode) { ${BOOKING_FIELDS} } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: BOOKING_OR_PARTS_NOT_FOUND,
    doc: {
      summary: 'Checks a confirmed booking in with its code, from BOOKING_CHECK_IN_LEAD_MINUTES (default 30) before it starts until it ends (409 INVALID_STATE when cancelled, completed or already checked in)',
      body: object({ check_in_code: string(NOT_BLANK) }, ['check_in_code']),
      response: BOOKING,
      errors: { 422: { INVALID_CHECK_IN_CODE: 'the code is not the booking\'s', NOT_ELIGIBLE: 'outside the check-in window' } },
    },
    variables: ({ params, body }) => ({ id: params.id, checkInCode: body.checkInCode }),
    payload: ({ checkInBooking }) => bookingOf(checkInBooking as BookingRecord),
    v1Failure: bookingFailure,
  },
];
