import { CLUSTER } from '../contract';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireKind, requirePermission, requireSelfOrPermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { Tier } from '../entities/tier';
import { TierHistory } from '../entities/tier-history';
import { TierProjection } from '../entities/tier-projection';
import { localized } from '../services/tier.service';
import { TierProjectionService } from '../services/tier-projection.service';
import { MemberReference } from '../types/member.type';
import {
  AssignTierInput,
  MemberIdArgs,
  TierHistoryArgs,
  TierProjectionListArgs,
  TierProjectionUpdate,
  TierYearArgs,
  TierYearlySummary,
  UpdateTierProjectionInput,
} from '../types/tier-projection.types';

const TierProjectionPage = PageType(TierProjection, 'TierProjection');
const TierHistoryPage = PageType(TierHistory, 'TierHistoryItem');

/** A tier of a projection or history item, from the unit of work (the services prefetch them), localized. */
async function tierById(ctx: RequestContext, id: string | null, locale?: LocaleArgs['locale']): Promise<Tier | null> {
  if (!id) return null;
  const tier = await ctx.em.findOne(Tier, id);
  return tier ? localized(tier, locale) : null;
}

/** Members' current tiers: a member reads its own; staff need tier:read to read and tier:manage to change. */
@Resolver(() => TierProjection)
export class TierProjectionResolver {
  @Query(() => TierProjection, { description: "The caller's current tier" })
  myTierProjection(@Ctx() ctx: RequestContext): Promise<TierProjection> {
    return new TierProjectionService(ctx.em).get(requireKind(ctx.principal, 'member').id);
  }

  @Query(() => TierProjection, { description: "A member's current tier; 404 when the member has none" })
  tierProjection(@Args() { memberId }: MemberIdArgs, @Ctx() ctx: RequestContext): Promise<TierProjection> {
    requireSelfOrPermission(ctx.principal, memberId, CLUSTER.permissions.tierRead);
    return new TierProjectionService(ctx.em).get(memberId);
  }

  @Query(() => TierProjectionPage, { description: 'Members with a tier, newest first' })
  tierProjections(@Args() args: TierProjectionListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, CLUSTER.permissions.tierRead);
    return new TierProjectionService(ctx.em).list(args);
  }

  @Query(() => TierYearlySummary, { description: 'Members per tier now, and the upgrades and downgrades of a year' })
  tierYearlySummary(@Args() { year }: TierYearArgs, @Ctx() ctx: RequestContext): Promise<TierYearlySummary> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierRead);
    return new TierProjectionService(ctx.em).yearlySummary(year);
  }

  @Mutation(() => TierProjection, { description: 'Gives a member without a tier its first tier; 409 when it has one' })
  assignTier(@Arg('input') input: AssignTierInput, @Ctx() ctx: RequestContext): Promise<TierProjection> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierManage);
    return new TierProjectionService(ctx.em).assign(input);
  }

  @Mutation(() => TierProjectionUpdate, { description: "Sets a member's tier and its end, writing a history item" })
  updateTierProjection(@Args() { memberId }: MemberIdArgs, @Arg('input') input: UpdateTierProjectionInput, @Ctx() ctx: RequestContext): Promise<TierProjectionUpdate> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierManage);
    return new TierProjectionService(ctx.em).update(memberId, input);
  }

  @FieldResolver(() => Tier, { nullable: true, description: 'The tier (null only if it vanished)' })
  tier(@Root() projection: TierProjection, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier | null> {
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
  @Query(() => TierHistoryPage, { description: "The caller's tier changes, newest first" })
  myTierHistory(@Args() args: TierHistoryArgs, @Ctx() ctx: RequestContext) {
    return new TierProjectionService(ctx.em).history(requireKind(ctx.principal, 'member').id, args);
  }

  @Query(() => TierHistoryPage, { description: "A member's tier changes, newest first" })
  tierHistory(@Args() { memberId }: MemberIdArgs, @Args() args: TierHistoryArgs, @Ctx() ctx: RequestContext) {
    requireSelfOrPermission(ctx.principal, memberId, CLUSTER.permissions.tierRead);
    return new TierProjectionService(ctx.em).history(memberId, args);
  }

  @FieldResolver(() => Tier, { nullable: true, description: 'The tier before the change; null: none' })
  fromTier(@Root() item: TierHistory, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier | null> {
    return tierById(ctx, item.fromTierId, locale);
  }

  @FieldResolver(() => Tier, { nullable: true, description: 'The tier after the change; null: none (an expiry with no tier left)' })
  toTier(@Root() item: TierHistory, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier | null> {
    return tierById(ctx, item.toTierId, locale);
  }
}
