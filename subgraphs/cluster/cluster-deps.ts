import { Principal } from '../../core/auth/principal';
import { KnownMembers, knownMembersDocument } from '../../core/known-members';
import { MemberProjection, projectedMembers } from '../../core/member-projection';
import { ModuleStart } from '../../core/module';
import { supergraphAs } from '../../core/supergraph-client';
import { AUTH, MEMBER_LIFECYCLE } from '../auth/contract';

/** The documents the cluster runs on the gateway (validated by `npm run schema:check`). */
export const CLUSTER_SUPERGRAPH_OPERATIONS = {
  ClusterKnownMembers: knownMembersDocument('ClusterKnownMembers'),
};

/** The cluster on the supergraph: reads members only. */
export const CLUSTER_SERVICE_PRINCIPAL = new Principal('service', 'internal:cluster', 'internal', [AUTH.permissions.memberRead]);

/** What the cluster services need besides a unit of work. */
export interface ClusterDeps {
  /** Which members exist: the cluster's projection (`cluster.known_member`), auth through the supergraph for the others. */
  members: KnownMembers;
  /** The cluster's projection of which members exist, kept from auth's events. */
  memberProjection: MemberProjection;
}

export function clusterDeps({ config, gateway, orm }: Pick<ModuleStart<unknown>, 'config' | 'gateway' | 'orm'>): ClusterDeps {
  const { projection, members } = projectedMembers(orm, MEMBER_LIFECYCLE, supergraphAs(CLUSTER_SERVICE_PRINCIPAL, config, gateway), CLUSTER_SUPERGRAPH_OPERATIONS.ClusterKnownMembers);
  return { members, memberProjection: projection };
}
