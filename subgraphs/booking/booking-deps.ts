import { KnownMembers } from '../../core/known-members';
import { MemberProjection } from '../../core/member-projection';
import { BookingSettings } from './settings';

/** What the booking services need besides a unit of work. */
export interface BookingDeps {
  settings: BookingSettings;
  /** Which members exist (booking's projection, auth through the supergraph for the others): bookings are for known members only. */
  members: KnownMembers;
  /** Booking's projection of which members exist (`booking.known_member`), kept from auth's events. */
  memberProjection: MemberProjection;
}
