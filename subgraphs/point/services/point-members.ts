import { Principal } from '../../../core/auth/principal';
import { knownMembersDocument } from '../../../core/known-members';
import { projectedMembers } from '../../../core/member-projection';
import { ModuleStart } from '../../../core/module';
import { supergraphAs } from '../../../core/supergraph-client';
import { AUTH, MEMBER_LIFECYCLE } from '../../auth/contract';

/** The documents the point domain runs on the gateway (validated by `npm run schema:check`). */
export const POINT_SUPERGRAPH_OPERATIONS = {
  PointKnownMembers: knownMembersDocument('PointKnownMembers'),
};

/** The point domain on the supergraph: reads which members exist (`member:read`), nothing else. */
export const POINT_SERVICE_PRINCIPAL = new Principal('service', 'internal:point', 'internal', [AUTH.permissions.memberRead]);

/** Which members exist, from point's projection (`point.known_member`) with auth as fallback: awards and purchases for nobody are refused. */
export const pointMembers = ({ config, gateway, orm }: Pick<ModuleStart<unknown>, 'config' | 'gateway' | 'orm'>) =>
  projectedMembers(orm, MEMBER_LIFECYCLE, supergraphAs(POINT_SERVICE_PRINCIPAL, config, gateway), POINT_SUPERGRAPH_OPERATIONS.PointKnownMembers);
