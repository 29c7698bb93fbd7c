import { EntityManager } from '@mikro-orm/postgresql';
import { isRecordId } from '../../../core/ids';
import { SupergraphClient } from '../../../core/supergraph-client';
import { POINT_SUPERGRAPH_OPERATIONS } from './point-members';

/** What the earning rules know of a member's profile: its current tier and birth month (null when unknown). */
export interface MemberProfileFacts {
  tierId: string | null;
  birthMonth: number | null;
}

/**
 * The facts about a member that the earning rules' conditions test. Its tier and birth month come from
 * point's projection (`point.member_profile`, kept from the cluster's and auth's events: behind them by
 * the consumer's lag); its segments are asked of the cluster through the supergraph at the call, since
 * a rule segment is evaluated when asked and cannot be projected.
 */
export class MemberFacts {
  constructor(private readonly supergraph: SupergraphClient) {}

  /** The member's tier and birth month as the projection holds them; nulls for a member it does not hold (or what is no id). */
  async profile(em: EntityManager, memberId: string): Promise<MemberProfileFacts> {
    if (!isRecordId(memberId)) return { tierId: null, birthMonth: null };
    const [row]: Array<{ tier_id: string | null; birth_month: number | null }> = await em.execute(
      'select tier_id, birth_month from point.member_profile where member_id = ?',
      [memberId],
    );
    return { tierId: row?.tier_id ?? null, birthMonth: row?.birth_month ?? null };
  }

  /** The ids of the live segments the member is in now (rule segments evaluated at the call), from the cluster. */
  async segmentIds(memberId: string): Promise<string[]> {
    const data = await this.supergraph.run<{ memberSegments: Array<{ id: string }> }>(POINT_SUPERGRAPH_OPERATIONS.PointMemberSegments, { memberId });
    return data.memberSegments.map((segment) => segment.id);
  }
}
