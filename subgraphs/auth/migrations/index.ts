import { Migration20261122Initial } from './migration-20261122-initial';

/** Every auth migration, by name, in the order they apply. */
export const authMigrations = {
  Migration20261122Initial,
};
