import { AccessTokens } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { Config } from '../../../core/config';
import { AppError } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';
import { CLUSTER } from '../../cluster/contract';

/** The documents the notification domain runs on the gateway (validated by `npm run schema:check`). */
export const NOTIFICATION_SUPERGRAPH_OPERATIONS = {
  NotificationSegment: `query NotificationSegment($id: ID!) { segment(id: $id) { id memberCount } }`,
  NotificationSegmentMemberIds: `query NotificationSegmentMemberIds($id: ID!, $after: ID, $limit: Int!) { segmentMemberIds(id: $id, after: $after, limit: $limit) }`,
  NotificationRecipients: `query NotificationRecipients($ids: [ID!]!) { membersByIds(ids: $ids) { id name nickName email phoneNumber openId } }`,
};

/** The most ids membersByIds takes at once. */
export const MEMBERS_PER_CALL = 500;

/** What a channel needs to reach a customer. */
export interface Recipient {
  id: string;
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
  openId: string | null;
}

/**
 * The notification domain as a service principal on the supergraph: which customers exist and how to
 * reach them (`member:read`), segments and their members (`segment:read`).
 */
export const NOTIFICATION_SERVICE_PRINCIPAL = new Principal('service', 'internal:notification', 'internal', [AUTH.permissions.memberRead, CLUSTER.permissions.segmentRead]);

export class NotificationSupergraph {
  constructor(private readonly supergraph: SupergraphClient) {}

  static over(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): NotificationSupergraph {
    return new NotificationSupergraph(new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), NOTIFICATION_SERVICE_PRINCIPAL)));
  }

  /** The segment's member count now; null when there is no such live segment. */
  async segmentSize(id: string): Promise<number | null> {
    try {
      const data = await this.supergraph.run<{ segment: { memberCount: number } }>(NOTIFICATION_SUPERGRAPH_OPERATIONS.NotificationSegment, { id });
      return data.segment.memberCount;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION')) return null;
      throw error;
    }
  }

  /** The next `limit` member ids of the segment after `after`; null when the segment is gone. */
  async segmentMemberIds(id: string, after: string | null, limit: number): Promise<string[] | null> {
    try {
      const data = await this.supergraph.run<{ segmentMemberIds: string[] }>(NOTIFICATION_SUPERGRAPH_OPERATIONS.NotificationSegmentMemberIds, { id, after, limit });
      return data.segmentMemberIds;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  /** The live customers among `ids` with their contact details (any number of ids, asked 500 at a time). */
  async recipients(ids: string[]): Promise<Map<string, Recipient>> {
    const found = new Map<string, Recipient>();
    for (let start = 0; start < ids.length; start += MEMBERS_PER_CALL) {
      const data = await this.supergraph.run<{ membersByIds: Array<Recipient & { nickName: string | null }> }>(NOTIFICATION_SUPERGRAPH_OPERATIONS.NotificationRecipients, {
        ids: ids.slice(start, start + MEMBERS_PER_CALL),
      });
      for (const member of data.membersByIds) {
        found.set(member.id.toLowerCase(), { id: member.id, name: member.name ?? member.nickName, email: member.email, phoneNumber: member.phoneNumber, openId: member.openId });
      }
    }
    return found;
  }
}
