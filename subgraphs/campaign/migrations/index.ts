import { Migration20261201CampaignInitial } from './migration-20261201-campaign-initial';
import { Migration20261202CampaignSegmentFederated } from './migration-20261202-segment-federated';
import { Migration20261203CampaignRefundedPurchases } from './migration-20261203-refunded-purchases';
import { Migration20261204CampaignParticipantMeasure } from './migration-20261204-participant-measure';
import { Migration20261205CampaignKnownMembers } from './migration-20261205-known-members';
import { Migration20261216CampaignConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';

/** Every campaign migration, by name, in the order they apply. */
export const campaignMigrations = {
  Migration20261201CampaignInitial,
  Migration20261202CampaignSegmentFederated,
  Migration20261203CampaignRefundedPurchases,
  Migration20261204CampaignParticipantMeasure,
  Migration20261205CampaignKnownMembers,
  Migration20261216CampaignConsumerParkedFlag,
};
