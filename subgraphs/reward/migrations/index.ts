import { Migration20261124RewardInitial } from './migration-20261124-reward-initial';
import { Migration20261125RewardCatalogs } from './migration-20261125-reward-catalogs';
import { Migration20261126RewardCodes } from './migration-20261126-reward-codes';
import { Migration20261127RewardCodeLists } from './migration-20261127-reward-code-lists';
import { Migration20261128RewardRedemptions } from './migration-20261128-redemptions';
import { Migration20261130RewardRedemptionQuantity } from './migration-20261130-redemption-quantity';

/** Every reward migration, by name, in the order they apply. */
export const rewardMigrations = {
  Migration20261124RewardInitial,
  Migration20261125RewardCatalogs,
  Migration20261126RewardCodes,
  Migration20261127RewardCodeLists,
  Migration20261128RewardRedemptions,
  Migration20261130RewardRedemptionQuantity,
};
