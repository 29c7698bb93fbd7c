import { Principal } from '../../../core/auth/principal';
import { AppError } from '../../../core/errors';
import { isRecordId } from '../../../core/ids';
import { KnownMembers, knownMembersDocument } from '../../../core/known-members';
import { MemberProjection, projectedMembers } from '../../../core/member-projection';
import { ModuleStart } from '../../../core/module';
import { SupergraphClient, supergraphAs } from '../../../core/supergraph-client';
import { AUTH, MEMBER_LIFECYCLE } from '../../auth/contract';
import { CLUSTER } from '../../cluster/contract';
import { POINT } from '../../point/contract';
import { REWARD } from '../../reward/contract';

/** The documents the campaign domain runs on the gateway (validated by `npm run schema:check`). */
export const CAMPAIGN_SUPERGRAPH_OPERATIONS = {
  CampaignKnownMembers: knownMembersDocument('CampaignKnownMembers'),
  CampaignSegment: `query CampaignSegment($id: ID!) { segment(id: $id) { id } }`,
  CampaignMemberSegments: `query CampaignMemberSegments($memberId: ID!) { memberSegments(memberId: $memberId) { id } }`,
  CampaignAwardPoints: `mutation CampaignAwardPoints($input: PointAwardInput!, $idempotencyKey: String) {
    awardPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
  CampaignRewardCatalog: `query CampaignRewardCatalog($id: ID!) { rewardCatalog(id: $id) { id } }`,
  CampaignGrantReward: `mutation CampaignGrantReward($id: ID!, $memberId: ID!, $reference: String!) {
    grantRewardCatalog(id: $id, memberId: $memberId, reference: $reference) { redemptionId } }`,
};

/**
 * The campaign domain on the supergraph: a service principal of its own with what joins and rewards
 * need: which members exist (`member:read`), segments and a member's segments (`segment:read`), and
 * awarding a completed participation's points (`point:manage`, the gate of awardPoints) and granting
 * its reward claim (`reward:manage`, the gate of grantRewardCatalog).
 */
export const CAMPAIGN_SERVICE_PRINCIPAL = new Principal('service', 'internal:campaign', 'internal', [
  AUTH.permissions.memberRead,
  CLUSTER.permissions.segmentRead,
  POINT.permissions.manage,
  REWARD.permissions.manage,
]);

/**
 * Members (from campaign's projection, `campaign.known_member`, with auth as fallback), segments and point
 * awards, asked of the other domains through the gateway as the campaign service.
 */
export class CampaignSupergraph {
  constructor(
    private readonly supergraph: SupergraphClient,
    private readonly members: KnownMembers,
  ) {}

  /** The campaign service on the supergraph, and its projection of which members exist (`deps.memberProjection`). */
  static over({ config, gateway, orm }: Pick<ModuleStart<unknown>, 'config' | 'gateway' | 'orm'>): { supergraph: CampaignSupergraph; memberProjection: MemberProjection } {
    const supergraph = supergraphAs(CAMPAIGN_SERVICE_PRINCIPAL, config, gateway);
    const { projection, members } = projectedMembers(orm, MEMBER_LIFECYCLE, supergraph, CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignKnownMembers);
    return { supergraph: new CampaignSupergraph(supergraph, members), memberProjection: projection };
  }

  /** 404 (`Member not found`) for an unknown or deleted member. */
  assertMember(memberId: string): Promise<void> {
    return this.members.assertExists(memberId);
  }

  /** Whether a live segment has this id. */
  segmentExists(id: string): Promise<boolean> {
    return this.found(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignSegment, id);
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

  /** Whether a live reward catalog (a v1 reward) has this id. */
  rewardExists(id: string): Promise<boolean> {
    return this.found(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignRewardCatalog, id);
  }

  /**
   * Grants a completed participation's reward claim once (the reference is the participation's): the
   * claim's redemption id, or null when the reward domain refuses it for good (out of stock, the reward
   * gone). Other failures throw, for the event to be retried.
   */
  async grantReward(participantId: string, memberId: string, rewardId: string): Promise<string | null> {
    try {
      const data = await this.supergraph.run<{ grantRewardCatalog: { redemptionId: string } }>(CAMPAIGN_SUPERGRAPH_OPERATIONS.CampaignGrantReward, {
        id: rewardId,
        memberId,
        reference: `campaign-participant:${participantId}`,
      });
      return data.grantRewardCatalog.redemptionId;
    } catch (error) {
      if (error instanceof AppError && REFUSED_FOR_GOOD.has(error.code)) return null;
      throw error;
    }
  }

  /** Whether the query by id answers (a non-id or NOT_FOUND: false). */
  private async found(operation: string, id: string): Promise<boolean> {
    if (!isRecordId(id)) return false;
    try {
      await this.supergraph.run(operation, { id });
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
      throw error;
    }
  }
}

/** The reward domain's answers that will not change on a retry: no stock, no such reward, a bad id. */
const REFUSED_FOR_GOOD = new Set(['BAD_REQUEST', 'NOT_FOUND', 'VALIDATION']);
