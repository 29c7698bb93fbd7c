import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { BookingDeps } from './booking-deps';
import { BookingService } from './services/booking.service';
import { VenueService } from './services/venue.service';

/** The booking services of one request, on its unit of work. */
export function bookingServices(em: EntityManager, deps?: BookingDeps) {
  const timeZone = deps?.settings.timeZone ?? 'UTC';
  return {
    venues: new VenueService(em, timeZone),
    bookings: new BookingService(em, deps?.members, timeZone),
  };
}

export type BookingContext = RequestContext<ReturnType<typeof bookingServices>>;
