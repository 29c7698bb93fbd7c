import { Config } from '../../core/config';
import { OperationExecutor } from '../../core/graphql-http';
import { supergraphAs } from '../../core/supergraph-client';
import { RedemptionPoints, REWARD_SERVICE_PRINCIPAL } from './services/redemption-supergraph';

/** What the reward services need besides a unit of work. */
export interface RewardDeps {
  /** Members' tiers and balances, and spends, through the supergraph as the reward service. */
  points: RedemptionPoints;
}

export function rewardDeps(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): RewardDeps {
  return { points: new RedemptionPoints(supergraphAs(REWARD_SERVICE_PRINCIPAL, config, gateway)) };
}
