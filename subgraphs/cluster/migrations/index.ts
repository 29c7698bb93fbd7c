import { Migration20261122ClusterInitial } from './migration-20261122-cluster-initial';

/** Every cluster migration, by name, in the order they apply. */
export const clusterMigrations = {
  Migration20261122ClusterInitial,
};
