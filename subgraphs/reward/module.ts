import { defineModule } from '../../core/module';
import { rewardServices } from './context';
import { REWARD } from './contract';
import { Reward } from './entities/reward';
import { RewardCatalog } from './entities/reward-catalog';
import { RewardCode } from './entities/reward-code';
import { rewardMigrations } from './migrations';
import { RewardCatalogResolver } from './resolvers/reward-catalog.resolver';
import { RewardResolver } from './resolvers/reward.resolver';

/** Reward: rewards and their stock, reward catalogs, reward codes. */
export const rewardModule = defineModule({
  contract: REWARD,
  defaultPort: 4004,
  entities: [Reward, RewardCatalog, RewardCode],
  migrations: rewardMigrations,
  resolvers: [RewardResolver, RewardCatalogResolver],
  services: rewardServices,
});
