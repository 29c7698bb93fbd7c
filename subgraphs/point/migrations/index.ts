import { Migration20261122PointInitial } from './migration-20261122-initial';

/** Every point migration, by name, in the order they apply. */
export const pointMigrations = {
  Migration20261122PointInitial,
};
