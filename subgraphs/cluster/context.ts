import { EntityDictionary, EntityManager } from '@mikro-orm/postgresql';
import { BatchLoader } from '../../core/batch-loader';
import { readRowsByIds } from '../../core/db/coalesced-read';
import { columnsOf, tableOf, viewOf } from '../../core/db/row-lookup';
import { INCLUDING_DELETED } from '../../core/db/soft-deletable';
import { RequestContext } from '../../core/context';
import { isRecordId } from '../../core/ids';
import { ClusterDeps } from './cluster-deps';
import { ENTRY_TIER_PROMISE } from './contract';
import { Segment } from './entities/segment';
import { Tier } from './entities/tier';
import { MemberReference } from './types/member.type';
import { BadgeService } from './services/badge.service';
import { CustomerTierService, entryTierOf } from './services/customer-tier.service';
import { InterestService } from './services/interest.service';
import { SegmentService } from './services/segment.service';
import { TierProjectionService } from './services/tier-projection.service';
import { TierService } from './services/tier.service';

/** Each placed member's tier (null when its tier was soft-deleted): the projection and the tier in one statement, compiled once. */
let placedTiersSql: string | undefined;
const placedTiersOf = (em: EntityManager) =>
  (placedTiersSql ??= `select p.member_id as placed_member_id, ${columnsOf(em, Tier, 't')}
     from cluster.tier_projection p left join ${tableOf(em, Tier)} t on t.id = p.tier_id and t.deleted_at is null
    where p.member_id = any($1::uuid[])`);

/**
 * The tiers of members: one statement for a page of placed members (their projections with their
 * tiers, as plain rows: the answer only shows them); members the cluster has not placed cost at most
 * three more. A member the cluster has never placed (no projection, no history) shows the tier auth's
 * projection names (`projectedTierId`; ENTRY_TIER_PROMISE: the entry tier, which a v1 creation
 * promised), until the cluster applies its `customer.created`. One whose tier ended (history, no
 * projection) has none, as has one whose tier was soft-deleted.
 */
export async function tiersOfMembers(em: EntityManager, members: MemberReference[]): Promise<Map<MemberReference, Tier | null>> {
  const ids = [...new Set(members.map((member) => member.id.toLowerCase()))].filter(isRecordId);
  if (ids.length === 0) return new Map();
  const placed = await readRowsByIds<EntityDictionary<Tier> & { placed_member_id: string }>(em, placedTiersOf(em), ids, 'placed_member_id');
  const tierOf = new Map(placed.map(({ placed_member_id, ...tier }) => [placed_member_id, tier.id === null ? null : viewOf(em, Tier, tier as EntityDictionary<Tier>)]));
  const waiting = members.filter((member) => isRecordId(member.id) && !tierOf.has(member.id.toLowerCase()) && member.projectedTierId);
  if (waiting.length > 0) {
    const history: Array<{ member_id: string }> = await em.execute('select distinct member_id from cluster.tier_history where member_id in (?)', [waiting.map((member) => member.id.toLowerCase())]);
    const everPlaced = new Set(history.map((row) => row.member_id));
    const promised = waiting.some((member) => member.projectedTierId === ENTRY_TIER_PROMISE) ? await entryTierOf(em) : null;
    const tierIdOf = new Map<string, string>();
    for (const member of waiting) {
      const tierId = member.projectedTierId === ENTRY_TIER_PROMISE ? promised?.id : member.projectedTierId;
      if (tierId && !everPlaced.has(member.id.toLowerCase())) tierIdOf.set(member.id.toLowerCase(), tierId);
    }
    const tierIds = [...new Set(tierIdOf.values())].filter(isRecordId);
    const tiers = new Map((tierIds.length ? await em.find(Tier, { id: { $in: tierIds } }) : []).map((tier) => [tier.id, tier]));
    for (const [memberId, tierId] of tierIdOf) tierOf.set(memberId, tiers.get(tierId) ?? null);
  }
  return new Map(members.map((member) => [member, tierOf.get(member.id.toLowerCase()) ?? null]));
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
    /** Member.tier: a page of placed members costs one query. */
    memberTiers: new BatchLoader((members: MemberReference[]) => tiersOfMembers(em, members), null),
    /** Segment references of a page of campaigns: one query. */
    segmentReferences: new BatchLoader((ids: string[]) => segmentsByIds(em, ids), null),
  };
}

export type ClusterContext = RequestContext<ReturnType<typeof clusterServices>>;
