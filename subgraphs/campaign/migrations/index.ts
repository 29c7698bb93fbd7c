import { Migration20261201CampaignInitial } from './migration-20261201-campaign-initial';

/** Every campaign migration, by name, in the order they apply. */
export const campaignMigrations = {
  Migration20261201CampaignInitial,
};
