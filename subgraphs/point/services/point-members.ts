import { AccessTokens } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { Config } from '../../../core/config';
import { notFound } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';

/** The documents the point domain runs on the gateway (validated by `npm run schema:check`). */
export const POINT_SUPERGRAPH_OPERATIONS = {
  PointKnownMembers: `query PointKnownMembers($ids: [ID!]!) { membersByIds(ids: $ids) { id } }`,
};

/** The point domain on the supergraph: reads which members exist (`member:read`), nothing else. */
export const POINT_SERVICE_PRINCIPAL = new Principal('service', 'internal:point', 'internal', [AUTH.permissions.memberRead]);

/** What membersByIds takes at once. */
const IDS_PER_CALL = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which members exist, asked of the auth domain through the supergraph (awards and purchases for nobody are refused). */
export class PointMembers {
  constructor(private readonly supergraph: SupergraphClient) {}

  static over(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): PointMembers {
    return new PointMembers(new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), POINT_SERVICE_PRINCIPAL)));
  }

  /** The ids among `ids` that name a member (lowercase); what is no id at all names nobody. */
  async known(ids: string[], requestId?: string): Promise<Set<string>> {
    const asked = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
    const found = new Set<string>();
    for (let start = 0; start < asked.length; start += IDS_PER_CALL) {
      const data = await this.supergraph.run<{ membersByIds: Array<{ id: string }> }>(
        POINT_SUPERGRAPH_OPERATIONS.PointKnownMembers,
        { ids: asked.slice(start, start + IDS_PER_CALL) },
        requestId,
      );
      for (const member of data.membersByIds) found.add(member.id.toLowerCase());
    }
    return found;
  }

  /** 404 (`Member not found`) for an unknown or deleted member (a purchase names a customer a retailer sends). */
  async assertExists(memberId: string, requestId?: string): Promise<void> {
    if (!(await this.known([memberId], requestId)).has(memberId.toLowerCase())) throw notFound('Member', memberId);
  }
}
