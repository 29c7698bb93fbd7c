import { Config } from '../../core/config';
import { CallClient, DomainCalls } from '../../core/domain-calls';
import { OperationExecutor } from '../../core/graphql-http';
import { supergraphAs } from '../../core/supergraph-client';
import { RedemptionCalls, REWARD_SERVICE_PRINCIPAL } from './services/redemption-calls';

/** What the reward services need besides a unit of work. */
export interface RewardDeps {
  /** Members' tiers and balances, and spends, as the reward service: in-process when their owners run here, else through the supergraph. */
  calls: RedemptionCalls;
}

export function rewardDeps(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor, calls: DomainCalls): RewardDeps {
  return { calls: new RedemptionCalls(new CallClient(calls, supergraphAs(REWARD_SERVICE_PRINCIPAL, config, gateway), REWARD_SERVICE_PRINCIPAL)) };
}
