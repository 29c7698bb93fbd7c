import { defineModule } from '../../core/module';
import { rewardServices } from './context';
import { REWARD } from './contract';
import { Redemption } from './entities/redemption';
import { Reward } from './entities/reward';
import { RewardCatalog } from './entities/reward-catalog';
import { RewardCode } from './entities/reward-code';
import { rewardMigrations } from './migrations';
import { RedemptionResolver } from './resolvers/redemption.resolver';
import { RewardCatalogResolver } from './resolvers/reward-catalog.resolver';
import { RewardResolver } from './resolvers/reward.resolver';
import { rewardDeps } from './reward-deps';
import { RECOVER_REDEMPTIONS_QUEUE, recoverRedemptions } from './services/redemption-recovery';
import { REDEMPTION_OPERATIONS } from './services/redemption-supergraph';

/**
 * Reward: rewards and their stock, reward catalogs, reward codes, and redemptions (points spent through
 * the supergraph; a job every minute settles those a dead process left PENDING).
 */
export const rewardModule = defineModule({
  contract: REWARD,
  defaultPort: 4004,
  entities: [Reward, RewardCatalog, RewardCode, Redemption],
  migrations: rewardMigrations,
  resolvers: [RewardResolver, RewardCatalogResolver, RedemptionResolver],
  deps: ({ config, gateway }) => rewardDeps(config, gateway),
  services: rewardServices,
  supergraphOperations: REDEMPTION_OPERATIONS,
  jobs: [
    {
      queue: RECOVER_REDEMPTIONS_QUEUE,
      cron: '* * * * *',
      run: async ({ orm, deps, logger }) => {
        const tally = await recoverRedemptions(orm, deps.points, { logger });
        if (tally.completed + tally.failed + tally.pending > 0) logger.info(tally, 'PENDING redemptions settled');
      },
    },
  ],
});
