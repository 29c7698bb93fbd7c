import { defineModule } from '../../core/module';
import { rewardServices } from './context';
import { REWARD } from './contract';
import { Reward } from './entities/reward';
import { RewardCatalog } from './entities/reward-catalog';
import { RewardCode } from './entities/reward-code';
import { rewardMigrations } from './migrations';
import { MemberRewardCodesResolver } from './resolvers/member-reward-codes.resolver';
import { RewardCatalogResolver } from './resolvers/reward-catalog.resolver';
import { RewardCodeResolver } from './resolvers/reward-code.resolver';
import { RewardResolver } from './resolvers/reward.resolver';
import { CODE_EXPIRY_NOTICE_QUEUE, noticeExpiringCodes } from './services/code-expiry-notice';
import { parseRewardSettings } from './settings';
import { MemberReference } from './types/member.type';

/**
 * Reward: rewards and their stock, reward catalogs, reward codes (with a job announcing the codes
 * about to expire). Contributes `Member.rewardCodes`.
 */
export const rewardModule = defineModule({
  contract: REWARD,
  defaultPort: 4004,
  entities: [Reward, RewardCatalog, RewardCode],
  migrations: rewardMigrations,
  resolvers: [RewardResolver, RewardCatalogResolver, RewardCodeResolver, MemberRewardCodesResolver],
  orphanedTypes: [MemberReference],
  referenceResolvers: { Member: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  settings: parseRewardSettings,
  environment: ['REWARD_CODE_EXPIRY_NOTICE_DAYS'],
  services: rewardServices,
  jobs: [
    {
      queue: CODE_EXPIRY_NOTICE_QUEUE,
      cron: '*/10 * * * *',
      run: async ({ orm, settings, logger }) => {
        const noticed = await noticeExpiringCodes(orm, settings.codeExpiryNoticeDays);
        if (noticed > 0) logger.info({ noticed }, 'expiring reward codes announced');
      },
    },
  ],
});
