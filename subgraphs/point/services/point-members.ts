import { Principal } from '../../../core/auth/principal';
import { knownMembersDocument } from '../../../core/known-members';
import { projectedMembers } from '../../../core/member-projection';
import { ModuleStart } from '../../../core/module';
import { supergraphAs } from '../../../core/supergraph-client';
import { AUTH, MEMBER_LIFECYCLE } from '../../auth/contract';
import { CLUSTER } from '../../cluster/contract';

/** The documents the point domain runs on the gateway (validated by `npm run schema:check`). */
export const POINT_SUPERGRAPH_OPERATIONS = {
  PointKnownMembers: knownMembersDocument('PointKnownMembers'),
  PointMemberSegments: `query PointMemberSegments($memberId: ID!) { memberSegments(memberId: $memberId) { id } }`,
  PointMemberContacts: `query PointMemberContacts($ids: [ID!]!) { membersByIds(ids: $ids) { id email phoneNumber unionId } }`,
};

/**
 * The point domain on the supergraph: reads which members exist and their contact (`member:read`, the
 * referral program's fingerprints) and the segments a member is in (`segment:read`, for the earning rules'
 * conditions), nothing else.
 */
export const POINT_SERVICE_PRINCIPAL = new Principal('service', 'internal:point', 'internal', [AUTH.permissions.memberRead, CLUSTER.permissions.segmentRead]);

/**
 * Which members exist, from point's projection (`point.known_member`) with auth as fallback: awards and
 * purchases for nobody are refused. With the point service's client of the supergraph it asks through
 * (`supergraph`), for the domain's other questions (a member's segments).
 */
export const pointMembers = ({ config, gateway, orm }: Pick<ModuleStart<unknown>, 'config' | 'gateway' | 'orm'>) => {
  const supergraph = supergraphAs(POINT_SERVICE_PRINCIPAL, config, gateway);
  return { supergraph, ...projectedMembers(orm, MEMBER_LIFECYCLE, supergraph, POINT_SUPERGRAPH_OPERATIONS.PointKnownMembers) };
};
