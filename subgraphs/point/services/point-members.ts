import { Principal } from '../../../core/auth/principal';
import { Config } from '../../../core/config';
import { OperationExecutor } from '../../../core/graphql-http';
import { KnownMembers, knownMembersDocument } from '../../../core/known-members';
import { supergraphAs } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';

/** The documents the point domain runs on the gateway (validated by `npm run schema:check`). */
export const POINT_SUPERGRAPH_OPERATIONS = {
  PointKnownMembers: knownMembersDocument('PointKnownMembers'),
};

/** The point domain on the supergraph: reads which members exist (`member:read`), nothing else. */
export const POINT_SERVICE_PRINCIPAL = new Principal('service', 'internal:point', 'internal', [AUTH.permissions.memberRead]);

/** Which members exist: awards and purchases for nobody are refused. */
export const pointMembers = (config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): KnownMembers =>
  new KnownMembers(supergraphAs(POINT_SERVICE_PRINCIPAL, config, gateway), POINT_SUPERGRAPH_OPERATIONS.PointKnownMembers);
