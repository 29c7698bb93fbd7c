import { Migration20261122ClusterInitial } from './migration-20261122-cluster-initial';
import { Migration20261122ClusterPoints } from './migration-20261122-cluster-points';
import { Migration20261122MemberProfile } from './migration-20261122-member-profile';
import { Migration20261122TierLevelUnique } from './migration-20261122-tier-level-unique';
import { Migration20261122ClusterBadges } from './migration-20261122-cluster-badges';
import { Migration20261122SegmentsInterests } from './migration-20261122-segments-interests';
import { Migration20261123ClusterOutboxChain } from './migration-20261123-outbox-chain';
import { Migration20261124ClusterLargeTiers } from './migration-20261124-large-tiers';
import { Migration20261126ClusterTierReason } from './migration-20261126-tier-reason';
import { Migration20261202ClusterTierCatalogAnnounced } from './migration-20261202-tier-catalog-announced';
import { Migration20261203ClusterKnownMembers } from './migration-20261203-known-members';
import { Migration20261216ClusterConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';

/** Every cluster migration, by name, in the order they apply. */
export const clusterMigrations = {
  Migration20261122ClusterInitial,
  Migration20261122ClusterPoints,
  Migration20261122TierLevelUnique,
  Migration20261122SegmentsInterests,
  Migration20261122ClusterBadges,
  Migration20261122MemberProfile,
  Migration20261123ClusterOutboxChain,
  Migration20261124ClusterLargeTiers,
  Migration20261126ClusterTierReason,
  Migration20261202ClusterTierCatalogAnnounced,
  Migration20261203ClusterKnownMembers,
  Migration20261216ClusterConsumerParkedFlag,
};
