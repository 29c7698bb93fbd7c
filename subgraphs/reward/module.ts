import { defineModule } from '../../core/module';
import { rewardServices } from './context';
import { REWARD } from './contract';
import { Redemption } from './entities/redemption';
import { Reward } from './entities/reward';
import { RewardCatalog } from './entities/reward-catalog';
import { RewardCode } from './entities/reward-code';
import { rewardMigrations } from './migrations';
import { MemberRewardCodesResolver } from './resolvers/member-reward-codes.resolver';
import { RedemptionResolver } from './resolvers/redemption.resolver';
import { RewardCatalogResolver } from './resolvers/reward-catalog.resolver';
import { RewardCodeResolver } from './resolvers/reward-code.resolver';
import { RewardResolver } from './resolvers/reward.resolver';
import { rewardDeps } from './reward-deps';
import { CODE_EXPIRY_NOTICE_QUEUE, noticeExpiringCodes } from './services/code-expiry-notice';
import { RECOVER_REDEMPTIONS_QUEUE, recoverRedemptions } from './services/redemption-recovery';
import { REDEMPTION_OPERATIONS } from './services/redemption-calls';
import { parseRewardSettings } from './settings';
import { MemberReference } from './types/member.type';
import { REWARD_SURFACE } from './surface';

/**
 * Reward: rewards and their stock, reward catalogs, reward codes (with a job announcing the codes
 * about to expire), and redemptions (points spent in-process or through the supergraph; a job every minute settles
 * those a dead process left PENDING). Contributes `Member.rewardCodes`.
 */
export const rewardModule = defineModule({
  contract: REWARD,
  defaultPort: 4004,
  entities: [Reward, RewardCatalog, RewardCode, Redemption],
  migrations: rewardMigrations,
  resolvers: [RewardResolver, RewardCatalogResolver, RewardCodeResolver, MemberRewardCodesResolver, RedemptionResolver],
  orphanedTypes: [MemberReference],
  referenceResolvers: { Member: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  settings: parseRewardSettings,
  environment: ['REWARD_CODE_EXPIRY_NOTICE_DAYS'],
  deps: ({ config, gateway, calls }) => rewardDeps(config, gateway, calls),
  services: rewardServices,
  supergraphOperations: REDEMPTION_OPERATIONS,
  surface: REWARD_SURFACE,
  jobs: [
    {
      queue: CODE_EXPIRY_NOTICE_QUEUE,
      cron: '*/10 * * * *',
      run: async ({ orm, settings, logger }) => {
        const noticed = await noticeExpiringCodes(orm, settings.codeExpiryNoticeDays);
        if (noticed > 0) logger.info({ noticed }, 'expiring reward codes announced');
      },
    },
    {
      queue: RECOVER_REDEMPTIONS_QUEUE,
      cron: '* * * * *',
      run: async ({ orm, deps, logger }) => {
        const tally = await recoverRedemptions(orm, deps.calls, { logger });
        if (tally.completed + tally.failed + tally.pending > 0) logger.info(tally, 'PENDING redemptions settled');
      },
    },
  ],
});
