/** The GraphQL documents behind the /api/v1 booking and venue routes; CI validates each against the supergraph. */

const VENUE = 'id name type address phone capacity openingTime closingTime slotMinutes availableSlots { date times } createdAt updatedAt';
const BOOKING = 'id memberId venueId type date time duration guests specialRequests status checkInCode qrCode cancelReason cancelledAt checkedInAt completedAt noShow createdAt updatedAt';

export const V1_BOOKING_OPERATIONS = {
  V1CreateVenue: `mutation V1CreateVenue($input: VenueInput!) { createVenue(input: $input) { ${VENUE} } }`,
  V1UpdateVenue: `mutation V1UpdateVenue($id: ID!, $input: VenueInput!) { updateVenue(id: $id, input: $input) { ${VENUE} } }`,
  V1DeleteVenue: `mutation V1DeleteVenue($id: ID!) { deleteVenue(id: $id) }`,
  V1Venues: `query V1Venues($page: Int, $limit: Int, $type: String, $location: String, $available: Boolean) {
    venues(page: $page, limit: $limit, type: $type, location: $location, available: $available) { meta { page limit total } data { ${VENUE} } } }`,
  V1Venue: `query V1Venue($id: ID!) { venue(id: $id) { ${VENUE} } }`,
  V1VenueAvailability: `query V1VenueAvailability($venueId: ID!, $dateFrom: String, $dateTo: String, $type: String) {
    venueAvailability(venueId: $venueId, dateFrom: $dateFrom, dateTo: $dateTo, type: $type) { venueId availability { date slots { time available capacity } } } }`,
  V1CreateBooking: `mutation V1CreateBooking($input: CreateBookingInput!, $idempotencyKey: String) {
    createBooking(input: $input, idempotencyKey: $idempotencyKey) { ${BOOKING} } }`,
  V1UpdateBooking: `mutation V1UpdateBooking($id: ID!, $input: UpdateBookingInput!) { updateBooking(id: $id, input: $input) { ${BOOKING} } }`,
  V1CancelBooking: `mutation V1CancelBooking($id: ID!, $reason: String) { cancelBooking(id: $id, reason: $reason) { ${BOOKING} } }`,
  V1CheckInBooking: `mutation V1CheckInBooking($id: ID!, $checkInCode: String) { checkInBooking(id: $id, checkInCode: $checkInCode) { ${BOOKING} } }`,
  V1Bookings: `query V1Bookings($page: Int, $limit: Int, $customerId: ID, $venueId: ID, $status: String, $dateFrom: String, $dateTo: String) {
    bookings(page: $page, limit: $limit, customerId: $customerId, venueId: $venueId, status: $status, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { ${BOOKING} } } }`,
  V1Booking: `query V1Booking($id: ID!) { booking(id: $id) { ${BOOKING} venue { ${VENUE} } member { id nickName name email phoneNumber } } }`,
};
