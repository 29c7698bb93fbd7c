import { Migration20261122PointInitial } from './migration-20261122-initial';
import { Migration20261122PointReceiptsRules } from './migration-20261122-receipts-rules';

/** Every point migration, by name, in the order they apply. */
export const pointMigrations = {
  Migration20261122PointInitial,
  Migration20261122PointReceiptsRules,
};
