import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { ClusterContext } from '../context';
import { CLUSTER } from '../contract';
import { Tier } from '../entities/tier';
import { TierHistory } from '../entities/tier-history';
import { TierProjection } from '../entities/tier-projection';
import { MemberReference } from '../types/member.type';
import { AssignTierInput, MemberIdArgs, TierHistoryArgs, TierProjectionListArgs, TierProjectionUpdate, TierYearArgs, TierYearlySummary, UpdateTierProjectionInput } from '../types/tier-projection.types';

const TierProjectionPage = PageType(TierProjection, 'TierProjection');
const TierHistoryPage = PageType(TierHistory, 'TierHistoryItem');

/** A tier of a projection or history item (deleted ones too), from the unit of work (the services prefetch them), localized. */
async function tierById(ctx: ClusterContext, id: string | null, locale?: LocaleArgs['locale']): Promise<Tier | null> {
  if (!id) return null;
  // findOne with filters would query again: a prefetched tier is taken from the unit of work.
  const tier = ctx.em.getUnitOfWork().getById<Tier>(Tier.name, id) ?? (await ctx.em.findOne(Tier, id, INCLUDING_DELETED));
  return tier ? ctx.services.tiers.localize(tier, locale) : null;
}

/** Members' current tiers: a member reads its own; staff need tier:read to read and tier:manage to change. */
@Resolver(() => TierProjection)
export class TierProjectionResolver {
  @Authorized(Access.member)
  @Query(() => TierProjection, { description: "The caller's current tier" })
  myTierProjection(@Caller() member: Principal, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.get(member.id);
  }

  @Authorized(Access.selfBy('memberId'), CLUSTER.permissions.tierRead)
  @Query(() => TierProjection, { description: "A member's current tier; 404 when the member has none" })
  tierProjection(@Args() { memberId }: MemberIdArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.get(memberId);
  }

  @Authorized(CLUSTER.permissions.tierRead)
  @Query(() => TierProjectionPage, { description: 'Members with a tier, newest first' })
  tierProjections(@Args() args: TierProjectionListArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.list(args);
  }

  @Authorized(CLUSTER.permissions.tierRead)
  @Query(() => TierYearlySummary, { description: 'Members per tier now, and the upgrades and downgrades of a year' })
  tierYearlySummary(@Args() { year }: TierYearArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.yearlySummary(year);
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => TierProjection, { description: 'Gives a member without a tier its first tier; 409 when it has one' })
  assignTier(@Arg('input') input: AssignTierInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.assign(input);
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => TierProjectionUpdate, { description: "Sets a member's tier and its end, writing a history item" })
  updateTierProjection(@Args() { memberId }: MemberIdArgs, @Arg('input') input: UpdateTierProjectionInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.update(memberId, input);
  }

  @FieldResolver(() => Tier, { nullable: true, description: 'The tier (null only if it vanished)' })
  tier(@Root() projection: TierProjection, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Tier | null> {
    return tierById(ctx, projection.tierId, locale);
  }

  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() projection: TierProjection): MemberReference {
    return { id: projection.memberId };
  }
}

/** Tier history: a member reads its own; staff need tier:read. */
@Resolver(() => TierHistory)
export class TierHistoryResolver {
  @Authorized(Access.member)
  @Query(() => TierHistoryPage, { description: "The caller's tier changes, newest first" })
  myTierHistory(@Args() args: TierHistoryArgs, @Caller() member: Principal, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.history(member.id, args);
  }

  @Authorized(Access.selfBy('memberId'), CLUSTER.permissions.tierRead)
  @Query(() => TierHistoryPage, { description: "A member's tier changes, newest first" })
  tierHistory(@Args() { memberId }: MemberIdArgs, @Args() args: TierHistoryArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.projections.history(memberId, args);
  }

  @FieldResolver(() => Tier, { nullable: true, description: 'The tier before the change; null: none' })
  fromTier(@Root() item: TierHistory, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Tier | null> {
    return tierById(ctx, item.fromTierId, locale);
  }

  @FieldResolver(() => Tier, { nullable: true, description: 'The tier after the change; null: none (an expiry with no tier left)' })
  toTier(@Root() item: TierHistory, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Tier | null> {
    return tierById(ctx, item.toTierId, locale);
  }
}
