import { Migration20261122ClusterInitial } from './migration-20261122-cluster-initial';
import { Migration20261122ClusterPoints } from './migration-20261122-cluster-points';
import { Migration20261122TierLevelUnique } from './migration-20261122-tier-level-unique';

/** Every cluster migration, by name, in the order they apply. */
export const clusterMigrations = {
  Migration20261122ClusterInitial,
  Migration20261122ClusterPoints,
  Migration20261122TierLevelUnique,
};
