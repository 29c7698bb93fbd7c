import { EntityManager } from '@mikro-orm/postgresql';
import { BatchLoader } from '../../core/batch-loader';
import { RequestContext } from '../../core/context';
import { RewardCatalog } from './entities/reward-catalog';
import { RewardService } from './services/reward.service';

/** The live catalogs among `ids`, one query for a whole page of rewards. */
async function catalogsByIds(em: EntityManager, ids: string[]): Promise<Map<string, RewardCatalog | null>> {
  const catalogs = await em.find(RewardCatalog, { id: { $in: ids } });
  return new Map(catalogs.map((catalog) => [catalog.id, catalog]));
}

/** The reward services of one request, on its unit of work. */
export function rewardServices(em: EntityManager) {
  return {
    rewards: new RewardService(em),
    /** Reward.rewardCatalog (`includeLink`): a page of rewards costs one query. */
    catalogsById: new BatchLoader((ids: string[]) => catalogsByIds(em, ids), null),
  };
}

export type RewardContext = RequestContext<ReturnType<typeof rewardServices>>;
