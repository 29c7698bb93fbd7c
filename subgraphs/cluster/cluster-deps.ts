import { Principal } from '../../core/auth/principal';
import { Config } from '../../core/config';
import { OperationExecutor } from '../../core/graphql-http';
import { KnownMembers, knownMembersDocument } from '../../core/known-members';
import { supergraphAs } from '../../core/supergraph-client';
import { AUTH } from '../auth/contract';

/** The documents the cluster runs on the gateway (validated by `npm run schema:check`). */
export const CLUSTER_SUPERGRAPH_OPERATIONS = {
  ClusterKnownMembers: knownMembersDocument('ClusterKnownMembers'),
};

/** The cluster on the supergraph: reads members only. */
export const CLUSTER_SERVICE_PRINCIPAL = new Principal('service', 'internal:cluster', 'internal', [AUTH.permissions.memberRead]);

/** What the cluster services need besides a unit of work. */
export interface ClusterDeps {
  /** Which members exist, asked of the auth subgraph (the cluster keeps no member table). */
  members: KnownMembers;
}

export function clusterDeps(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): ClusterDeps {
  return { members: new KnownMembers(supergraphAs(CLUSTER_SERVICE_PRINCIPAL, config, gateway), CLUSTER_SUPERGRAPH_OPERATIONS.ClusterKnownMembers) };
}
