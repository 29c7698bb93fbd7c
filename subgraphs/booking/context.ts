import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { BookingDeps } from './booking-deps';
import { BookingService } from './services/booking.service';
import { VenueService } from './services/venue.service';
import { parseBookingSettings } from './settings';

/** The booking services of one request, on its unit of work. */
export function bookingServices(em: EntityManager, deps?: BookingDeps) {
  const settings = deps?.settings ?? parseBookingSettings({}, []);
  return {
    venues: new VenueService(em, settings.timeZone),
    bookings: new BookingService(em, deps?.members, settings),
  };
}

export type BookingContext = RequestContext<ReturnType<typeof bookingServices>>;
