import { forEachLimit } from './concurrency';
import { SeedContext } from './context';
import { utcDayAfter } from './days';
import { ensureNamed, idsBy } from './ensure';
import { DemoApiError, GraphqlClient } from './graphql-client';
import { SeededMember } from './members';
import { DemoVenue, VENUES } from './program';

/** Bookings made at once: they meet on the same slots, whose capacity the platform checks one at a time. */
const BOOKINGS_IN_FLIGHT = 4;

async function ensureVenues({ client, tally }: SeedContext): Promise<Map<string, string>> {
  const existing = idsBy(await client.listAll<{ id: string; name: string }>('venues', 'id name'), 'name');
  return ensureNamed(tally, 'venues', VENUES, (venue) => venue.name, existing, ({ name, type, address, phone, capacity, openingTime, closingTime, slotMinutes }: DemoVenue) =>
    client.create('createVenue', 'VenueInput', { name, type, address, phone, capacity, openingTime, closingTime, slotMinutes }),
  );
}

/** The members with a booking at the venue, whatever its state. */
async function bookedAt(client: GraphqlClient, venueId: string): Promise<Set<string>> {
  return new Set((await client.listAll<{ memberId: string }>('bookings', 'memberId', `venueId: ${JSON.stringify(venueId)}`)).map((booking) => booking.memberId));
}

/**
 * The two venues and the members' bookings in the coming days, one per member who books (found by
 * member and venue). A slot already full is the platform's refusal, counted as such.
 */
export async function seedBookings(context: SeedContext, members: SeededMember[], today: Date): Promise<void> {
  const { client, tally } = context;
  const venues = await ensureVenues(context);
  const booked = new Map<string, Set<string>>();
  for (const [name, id] of venues) booked.set(name, await bookedAt(client, id));
  const bookers = members.filter((member) => member.plan.booking);
  await forEachLimit(bookers, BOOKINGS_IN_FLIGHT, async (member) => {
    const booking = member.plan.booking!;
    if (booked.get(booking.venue.name)!.has(member.id)) return tally.note('bookings', 'present');
    const input = {
      customerId: member.id,
      venueId: venues.get(booking.venue.name),
      type: booking.venue.bookingType,
      date: utcDayAfter(today, booking.inDays).toISOString().slice(0, 10),
      time: booking.time,
      guests: booking.guests,
    };
    try {
      await client.request(`mutation DemoBook($key: String, $input: CreateBookingInput!) { createBooking(idempotencyKey: $key, input: $input) { id } }`, { key: `demo-${member.person.key}-booking`, input });
      tally.note('bookings', 'created');
    } catch (error) {
      if (!(error instanceof DemoApiError && error.reason === 'NO_AVAILABILITY')) throw error;
      tally.note('bookings', 'refused');
    }
  });
}
