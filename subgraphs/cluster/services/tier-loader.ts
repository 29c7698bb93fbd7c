import { BatchLoader } from '../../../core/batch-loader';
import { RequestContext } from '../../../core/context';
import { Tier } from '../entities/tier';

/**
 * One member-tier loader per request, so a page of members costs two queries (their projections,
 * then their tiers), not two per member. A member without a projection, or whose projected tier
 * was soft-deleted, has no tier.
 */
export class MemberTierLoaders {
  private readonly loaders = new WeakMap<RequestContext, BatchLoader<string, Tier | undefined>>();

  for(ctx: RequestContext): BatchLoader<string, Tier | undefined> {
    let loader = this.loaders.get(ctx);
    if (!loader) {
      loader = new BatchLoader((memberIds) => tiersOfMembers(ctx, memberIds), undefined);
      this.loaders.set(ctx, loader);
    }
    return loader;
  }
}

async function tiersOfMembers(ctx: RequestContext, memberIds: string[]): Promise<Map<string, Tier | undefined>> {
  const projections: Array<{ member_id: string; tier_id: string }> = await ctx.em.execute(
    'select member_id, tier_id from cluster.tier_projection where member_id in (?)',
    [memberIds],
  );
  const tierIds = [...new Set(projections.map((row) => row.tier_id))];
  const tiers = tierIds.length ? await ctx.em.find(Tier, { id: { $in: tierIds }, deletedAt: null }) : [];
  const byId = new Map(tiers.map((tier) => [tier.id, tier]));
  return new Map(projections.map((row) => [row.member_id, byId.get(row.tier_id)]));
}
