import { Migration20261210AnalyticsInitial } from './migration-20261210-analytics-initial';
import { Migration20261215AnalyticsProfilesBookings } from './migration-20261215-analytics-profiles-bookings';
import { Migration20261216AnalyticsConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';
import { Migration20270103AnalyticsReferrals } from './migration-20270103-analytics-referrals';

/** Every analytics migration, by name, in the order they apply. */
export const analyticsMigrations = {
  Migration20261210AnalyticsInitial,
  Migration20261215AnalyticsProfilesBookings,
  Migration20261216AnalyticsConsumerParkedFlag,
  Migration20270103AnalyticsReferrals,
};
