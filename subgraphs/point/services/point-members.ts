import { AccessTokens } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { Config } from '../../../core/config';
import { AppError, notFound } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';

/** The documents the point domain runs on the gateway (validated against the supergraph by `npm run schema:check`). */
export const POINT_SUPERGRAPH_OPERATIONS = {
  PurchasingMember: `query PurchasingMember($id: ID!) { member(id: $id) { id } }`,
};

/** The point domain on the supergraph: reads whether a member exists (`member:read`, the gate of Query.member), nothing else. */
export const POINT_SERVICE_PRINCIPAL = new Principal('service', 'internal:point', 'internal', [AUTH.permissions.memberRead]);

/**
 * Whether a member exists, asked of the auth domain through the gateway (as the reward domain asks before
 * a redemption). The ledger itself takes any member id; a purchase names a customer a retailer sends, so
 * it is checked first.
 */
export class PointMembers {
  constructor(private readonly supergraph: SupergraphClient) {}

  /** 404 (`Member not found`) for an unknown or deleted member. */
  async assertExists(memberId: string, requestId?: string): Promise<void> {
    try {
      const data = await this.supergraph.run<{ member: { id: string } | null }>(POINT_SUPERGRAPH_OPERATIONS.PurchasingMember, { id: memberId }, requestId);
      if (!data.member) throw notFound('Member', memberId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound('Member', memberId);
      throw error;
    }
  }
}

export function pointMembers(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): PointMembers {
  return new PointMembers(new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), POINT_SERVICE_PRINCIPAL)));
}
