import { AccessTokens } from '../../core/auth/jwt';
import { Principal } from '../../core/auth/principal';
import { ServiceIdentity } from '../../core/auth/service-identity';
import { Config } from '../../core/config';
import { AppError } from '../../core/errors';
import { OperationExecutor } from '../../core/graphql-http';
import { SupergraphClient } from '../../core/supergraph-client';
import { AUTH } from '../auth/contract';

/** The documents the cluster runs on the gateway (validated by `npm run schema:check`). */
export const CLUSTER_SUPERGRAPH_OPERATIONS = {
  ClusterMemberExists: `query ClusterMemberExists($id: ID!) { member(id: $id) { id } }`,
};

/** The cluster on the supergraph: reads members only. */
export const CLUSTER_SERVICE_PRINCIPAL = new Principal('service', 'internal:cluster', 'internal', [AUTH.permissions.memberRead]);

/** Whether a member exists, asked of the auth subgraph (the cluster keeps no member table). */
export class MemberDirectory {
  constructor(private readonly client: SupergraphClient) {}

  async exists(id: string): Promise<boolean> {
    try {
      await this.client.run(CLUSTER_SUPERGRAPH_OPERATIONS.ClusterMemberExists, { id });
      return true;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION')) return false;
      throw error;
    }
  }
}

/** What the cluster services need besides a unit of work. */
export interface ClusterDeps {
  members: MemberDirectory;
}

export function clusterDeps(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): ClusterDeps {
  return { members: new MemberDirectory(new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), CLUSTER_SERVICE_PRINCIPAL))) };
}
