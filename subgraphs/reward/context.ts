import { EntityManager } from '@mikro-orm/postgresql';
import { INCLUDING_DELETED } from '../../core/db/soft-deletable';
import { BatchLoader } from '../../core/batch-loader';
import { RequestContext } from '../../core/context';
import { Reward } from './entities/reward';
import { RewardCatalog } from './entities/reward-catalog';
import { RewardDeps } from './reward-deps';
import { RedemptionService } from './services/redemption.service';
import { RewardCatalogService } from './services/reward-catalog.service';
import { RewardCodeService } from './services/reward-code.service';
import { RewardService } from './services/reward.service';

/** The live catalogs among `ids`, one query for a whole page of rewards. */
async function catalogsByIds(em: EntityManager, ids: string[]): Promise<Map<string, RewardCatalog | null>> {
  const catalogs = await em.find(RewardCatalog, { id: { $in: ids } });
  return new Map(catalogs.map((catalog) => [catalog.id, catalog]));
}

/** The rewards among `ids`, deleted ones too (a catalog's reward may since have been deleted). */
async function rewardsByIds(em: EntityManager, ids: string[]): Promise<Map<string, Reward | null>> {
  const rewards = await em.find(Reward, { id: { $in: ids } }, INCLUDING_DELETED);
  return new Map(rewards.map((reward) => [reward.id, reward]));
}

/** The reward services of one request, on its unit of work. */
export function rewardServices(em: EntityManager, deps: RewardDeps) {
  return {
    redemptions: new RedemptionService(em, deps.calls),
    rewards: new RewardService(em),
    catalogs: new RewardCatalogService(em),
    /** Reward.rewardCatalog (`includeLink`): a page of rewards costs one query. */
    catalogsById: new BatchLoader((ids: string[]) => catalogsByIds(em, ids), null),
    /** RewardCatalog.status and stats: a page of catalogs costs one query. */
    rewardsById: new BatchLoader((ids: string[]) => rewardsByIds(em, ids), null),
    codes: new RewardCodeService(em),
  };
}

export type RewardContext = RequestContext<ReturnType<typeof rewardServices>>;
