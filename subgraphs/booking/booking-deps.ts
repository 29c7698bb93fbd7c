import { KnownMembers } from '../../core/known-members';
import { BookingSettings } from './settings';

/** What the booking services need besides a unit of work. */
export interface BookingDeps {
  settings: BookingSettings;
  /** Which members exist (auth, through the supergraph): bookings are for known members only. */
  members: KnownMembers;
}
