import { Migration20261201BookingInitial } from './migration-20261201-booking-initial';
import { Migration20261203BookingKnownMembers } from './migration-20261203-known-members';
import { Migration20261216BookingConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';

/** Every booking migration, by name, in the order they apply. */
export const bookingMigrations = {
  Migration20261201BookingInitial,
  Migration20261203BookingKnownMembers,
  Migration20261216BookingConsumerParkedFlag,
};
