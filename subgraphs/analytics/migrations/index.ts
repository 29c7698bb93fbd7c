import { Migration20261210AnalyticsInitial } from './migration-20261210-analytics-initial';

/** Every analytics migration, by name, in the order they apply. */
export const analyticsMigrations = {
  Migration20261210AnalyticsInitial,
};
