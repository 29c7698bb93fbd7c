import { defineModule } from '../../core/module';
import { BookingDeps } from './booking-deps';
import { bookingServices } from './context';
import { BOOKING } from './contract';
import { Booking } from './entities/booking';
import { Venue } from './entities/venue';
import { bookingMigrations } from './migrations';
import { BookingResolver } from './resolvers/booking.resolver';
import { VenueResolver } from './resolvers/venue.resolver';
import { BOOKING_SUPERGRAPH_OPERATIONS, bookingMembers } from './services/booking-members';
import { BOOKING_COMPLETION_QUEUE, BookingService } from './services/booking.service';
import { BookingSettings, parseBookingSettings } from './settings';
import { BOOKING_SURFACE } from './surface';

/** Booking: venues with daily slots, and customers' bookings that never overbook a slot. */
export const bookingModule = defineModule<BookingSettings, BookingDeps, ReturnType<typeof bookingServices>>({
  contract: BOOKING,
  defaultPort: 4008,
  entities: [Venue, Booking],
  migrations: bookingMigrations,
  resolvers: [VenueResolver, BookingResolver],
  services: bookingServices,
  settings: parseBookingSettings,
  environment: ['BOOKING_TIME_ZONE', 'BOOKING_CHECK_IN_LEAD_MINUTES'],
  deps: (start) => {
    const { projection, members } = bookingMembers(start);
    return { settings: start.settings, members, memberProjection: projection };
  },
  consumers: ({ deps }) => [deps.memberProjection.consumer],
  supergraphOperations: BOOKING_SUPERGRAPH_OPERATIONS,
  surface: BOOKING_SURFACE,
  jobs: [
    {
      queue: BOOKING_COMPLETION_QUEUE,
      cron: '*/5 * * * *',
      run: async ({ orm, deps, logger }) => {
        const completed = await new BookingService(orm.em.fork(), deps.members, deps.settings).completeEnded();
        if (completed > 0) logger.info({ completed }, 'bookings completed');
      },
    },
  ],
});
