import { defineModule } from '../../core/module';
import { rewardServices } from './context';
import { REWARD } from './contract';
import { Reward } from './entities/reward';
import { RewardCatalog } from './entities/reward-catalog';
import { rewardMigrations } from './migrations';
import { RewardResolver } from './resolvers/reward.resolver';

/** Reward: rewards and their stock, reward catalogs. */
export const rewardModule = defineModule({
  contract: REWARD,
  defaultPort: 4004,
  entities: [Reward, RewardCatalog],
  migrations: rewardMigrations,
  resolvers: [RewardResolver],
  services: rewardServices,
});
