import { AccessTokens } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { ServiceIdentity } from '../../../core/auth/service-identity';
import { Config } from '../../../core/config';
import { AppError, notFound } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { isRecordId } from '../../../core/ids';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH } from '../../auth/contract';
import { CLUSTER } from '../../cluster/contract';
import { POINT } from '../../point/contract';

/** The documents the campaign domain runs on the gateway (validated by `npm run schema:check`). */
export const CAMPAIGN_SUPERGRAPH_OPERATIONS = {
  CampaignKnownMembers: `query CampaignKnownMembers($ids: [ID!]!) { membersByIds(ids: $ids) { id } }`,
  CampaignSegment: `query CampaignSegment($id: ID!) { segment(id: $id) { id name_en } }`,
  CampaignMemberSegments: `query CampaignMemberSegments($memberId: ID!) { memberSegments(memberId: $memberId) { id } }`,
  CampaignAwardPoints: `mutation CampaignAwardPoints($input: PointAwardInput!, $idempotencyKey: String) {
    awardPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
};

/**
 * The campaign domain on the supergraph: a service principal of its own with what joins and rewards
 * need: which members exist (`member:read`), segments and a member's segments (`segment:read`), and
 * awarding a completed participation's points (`point:manage`, the gate of awardPoints).
 */
export const CAMPAIGN_SERVICE_PRINCIPAL = new Principal('service', 'internal:campaign', 'internal', [
  AUTH.permissions.memberRead,
  CLUSTER.permissions.segmentRead,
  POINT.permissions.manage,
]);

/** Members, segments and point awards, asked of the other domains through the gateway as the campaign service. */
export class CampaignSupergraph {
  constructor(private readonly supergraph: SupergraphClient) {}

  static over(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): CampaignSupergraph {
    return new CampaignSupergraph(new SupergraphClient(gateway, new ServiceIdentity(new AccessTokens(config.jwtSecret), CAMPAIGN_SERVICE_PRINCIPAL)));
  }

  /** 404 (`Member not found`, on `customerId`) for an unknown or deleted member. */
  async assertMember(memberId: string): Promise<void> {
    const found = isRecordId(memberId)
      ? (await this.supergraph.run<{ membersByIds: Array<{ id: string }> }>(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignKnownMembers, { ids: [memberId] })).membersByIds
      : [];
    if (found.length === 0) throw notFound('Member', memberId);
  }

  /** The segment's English name; null when there is no such live segment. */
  async segment(id: string): Promise<{ id: string; name: string | null } | null> {
    if (!isRecordId(id)) return null;
    try {
      const data = await this.supergraph.run<{ segment: { id: string; name_en: string | null } }>(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignSegment, { id });
      return { id: data.segment.id, name: data.segment.name_en };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  /** Whether the member is in the segment now (a rule segment evaluated at the call). */
  async inSegment(memberId: string, segmentId: string): Promise<boolean> {
    const data = await this.supergraph.run<{ memberSegments: Array<{ id: string }> }>(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignMemberSegments, { memberId });
    return data.memberSegments.some((segment) => segment.id === segmentId);
  }

  /** Awards a completed participation's points once: the key and body are the same on every try. */
  async awardPoints(participantId: string, memberId: string, points: number, campaignId: string): Promise<string> {
    const data = await this.supergraph.run<{ awardPoints: { id: string } }>(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignAwardPoints, {
      input: { memberId, points, reason: `Campaign ${campaignId}`, transactionId: `campaign-participant:${participantId}` },
      idempotencyKey: `campaign-participant:${participantId}`,
    });
    return data.awardPoints.id;
  }
}
