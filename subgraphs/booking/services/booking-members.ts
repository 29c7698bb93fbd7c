import { AccessTokens } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { Config } from '../../../core/config';
import { notFound } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';

/** The documents the booking domain runs on the gateway (validated by `npm run schema:check`). */
export const BOOKING_SUPERGRAPH_OPERATIONS = {
  BookingKnownMembers: `query BookingKnownMembers($ids: [ID!]!) { membersByIds(ids: $ids) { id } }`,
};

/** The booking domain on the supergraph: reads which members exist (`member:read`), nothing else. */
export const BOOKING_SERVICE_PRINCIPAL = new Principal('service', 'internal:booking', 'internal', [AUTH.permissions.memberRead]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which members exist, asked of the auth domain through the supergraph: bookings are for known members only. */
export class BookingMembers {
  constructor(private readonly supergraph: SupergraphClient) {}

  static over(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): BookingMembers {
    return new BookingMembers(new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), BOOKING_SERVICE_PRINCIPAL)));
  }

  /** 404 (`Member not found`) for an unknown or deleted member, or what is no id at all. */
  async assertExists(memberId: string, requestId?: string): Promise<void> {
    if (!UUID.test(memberId)) throw notFound('Member', memberId);
    const data = await this.supergraph.run<{ membersByIds: Array<{ id: string }> }>(BOOKING_SUPERGRAPH_OPERATIONS.BookingKnownMembers, { ids: [memberId.toLowerCase()] }, requestId);
    if (!data.membersByIds.some((member) => member.id.toLowerCase() === memberId.toLowerCase())) throw notFound('Member', memberId);
  }
}
