import { Migration20261201BookingInitial } from './migration-20261201-booking-initial';

/** Every booking migration, by name, in the order they apply. */
export const bookingMigrations = {
  Migration20261201BookingInitial,
};
