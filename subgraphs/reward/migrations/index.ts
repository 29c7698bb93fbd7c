import { Migration20261124RewardInitial } from './migration-20261124-reward-initial';

/** Every reward migration, by name, in the order they apply. */
export const rewardMigrations = {
  Migration20261124RewardInitial,
};
