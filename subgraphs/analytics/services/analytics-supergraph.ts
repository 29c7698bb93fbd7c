import { Principal } from '../../../core/auth/principal';
import { Config } from '../../../core/config';
import { AppError } from '../../../core/errors';
import { OperationExecutor } from '../../../core/graphql-http';
import { isRecordId } from '../../../core/ids';
import { SupergraphClient, supergraphAs } from '../../../core/supergraph-client';
import { CLUSTER } from '../../cluster/contract';

/** The documents the analytics domain runs on the gateway (validated by `npm run schema:check`). */
export const ANALYTICS_SUPERGRAPH_OPERATIONS = {
  AnalyticsSegments: `query AnalyticsSegments($page: Int!) { segments(page: $page, limit: 100) { meta { total } data { id name_en } } }`,
  AnalyticsSegment: `query AnalyticsSegment($id: ID!) { segment(id: $id) { id name_en } }`,
  AnalyticsSegmentMemberIds: `query AnalyticsSegmentMemberIds($id: ID!, $after: ID, $limit: Int!) { segmentMemberIds(id: $id, after: $after, limit: $limit) }`,
};

/** Member ids asked per call (the most `segmentMemberIds` answers). */
const MEMBER_PAGE = 5_000;

/** Segments belong to the cluster domain and rule segments exist only when evaluated: read through the gateway, with `segment:read`. */
export const ANALYTICS_SERVICE_PRINCIPAL = new Principal('service', 'internal:analytics', 'internal', [CLUSTER.permissions.segmentRead]);

export interface SegmentSummary {
  id: string;
  name: string | null;
}

/** Segments and their members, asked of the cluster domain through the gateway as the analytics service. */
export class AnalyticsSupergraph {
  constructor(private readonly supergraph: SupergraphClient) {}

  static over(config: Pick<Config, 'jwtSecret'>, gateway: OperationExecutor): AnalyticsSupergraph {
    return new AnalyticsSupergraph(supergraphAs(ANALYTICS_SERVICE_PRINCIPAL, config, gateway));
  }

  /** Every live segment. */
  async segments(): Promise<SegmentSummary[]> {
    const all: SegmentSummary[] = [];
    for (let page = 1; ; page++) {
      const { segments } = await this.supergraph.run<{ segments: { meta: { total: number }; data: Array<{ id: string; name_en: string | null }> } }>(
        ANALYTICS_SUPERGRAPH_OPERATIONS.AnalyticsSegments,
        { page },
      );
      all.push(...segments.data.map((segment) => ({ id: segment.id, name: segment.name_en })));
      if (segments.data.length === 0 || all.length >= segments.meta.total) return all;
    }
  }

  /** The live segment, or null when there is none of that id. */
  async segment(id: string): Promise<SegmentSummary | null> {
    if (!isRecordId(id)) return null;
    try {
      const { segment } = await this.supergraph.run<{ segment: { id: string; name_en: string | null } }>(ANALYTICS_SUPERGRAPH_OPERATIONS.AnalyticsSegment, { id });
      return { id: segment.id, name: segment.name_en };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  /** The ids of a segment's members now (a rule segment evaluated at the call), MEMBER_PAGE per call, in id order. */
  async memberIds(segmentId: string): Promise<string[]> {
    const ids: string[] = [];
    for (;;) {
      const { segmentMemberIds } = await this.supergraph.run<{ segmentMemberIds: string[] }>(ANALYTICS_SUPERGRAPH_OPERATIONS.AnalyticsSegmentMemberIds, {
        id: segmentId,
        after: ids.length > 0 ? ids[ids.length - 1] : null,
        limit: MEMBER_PAGE,
      });
      ids.push(...segmentMemberIds);
      if (segmentMemberIds.length < MEMBER_PAGE) return ids;
    }
  }
}
