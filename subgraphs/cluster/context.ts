import { EntityManager } from '@mikro-orm/postgresql';
import { BatchLoader } from '../../core/batch-loader';
import { INCLUDING_DELETED } from '../../core/catalog/catalog-entity';
import { RequestContext } from '../../core/context';
import { isRecordId } from '../../core/ids';
import { ClusterDeps } from './cluster-deps';
import { Segment } from './entities/segment';
import { Tier } from './entities/tier';
import { BadgeService } from './services/badge.service';
import { CustomerTierService } from './services/customer-tier.service';
import { InterestService } from './services/interest.service';
import { SegmentService } from './services/segment.service';
import { TierProjectionService } from './services/tier-projection.service';
import { TierService } from './services/tier.service';

/**
 * The tiers of members, two queries for a whole page (their projections, then their tiers). A member
 * without a projection, or whose projected tier was soft-deleted, has no tier.
 */
async function tiersOfMembers(em: EntityManager, memberIds: string[]): Promise<Map<string, Tier | undefined>> {
  const projections: Array<{ member_id: string; tier_id: string }> = await em.execute('select member_id, tier_id from cluster.tier_projection where member_id in (?)', [
    memberIds,
  ]);
  const tierIds = [...new Set(projections.map((row) => row.tier_id))];
  const tiers = tierIds.length ? await em.find(Tier, { id: { $in: tierIds } }) : [];
  const byId = new Map(tiers.map((tier) => [tier.id, tier]));
  return new Map(projections.map((row) => [row.member_id, byId.get(row.tier_id)]));
}

/** Segments by id, removed ones included (a campaign may still target one): federation's references. */
async function segmentsByIds(em: EntityManager, ids: string[]): Promise<Map<string, Segment | null>> {
  const segments = await em.find(Segment, { id: { $in: ids.filter(isRecordId) } }, INCLUDING_DELETED);
  return new Map(segments.map((segment) => [segment.id, segment]));
}

/** The cluster services of one request, on its unit of work. */
export function clusterServices(em: EntityManager, deps: ClusterDeps) {
  return {
    tiers: new TierService(em),
    projections: new TierProjectionService(em),
    badges: new BadgeService(em),
    segments: new SegmentService(em),
    interests: new InterestService(em),
    customerTiers: new CustomerTierService(em, deps),
    /** Member.tier: a page of members costs two queries. */
    memberTiers: new BatchLoader((memberIds: string[]) => tiersOfMembers(em, memberIds), undefined),
    /** Segment references of a page of campaigns: one query. */
    segmentReferences: new BatchLoader((ids: string[]) => segmentsByIds(em, ids), null),
  };
}

export type ClusterContext = RequestContext<ReturnType<typeof clusterServices>>;
