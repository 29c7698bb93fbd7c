import { CLUSTER } from '../contract';
import { Arg, Args, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { requirePermission, requirePrincipal } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { Tier } from '../entities/tier';
import { TierService } from '../services/tier.service';
import { CreateTierInput, SetTierActiveArgs, TierIdArgs, TierIdsArgs, TierLevelArgs, TierListArgs, UpdateTierInput } from '../types/tier.types';

const TierPage = PageType(Tier, 'Tier');

@ObjectType({ description: 'How many members a tier holds (members whose tier projection points at it)' })
export class TierMemberCount {
  @Field(() => ID) tierId: string;
  @Field(() => Int) count: number;
}

/** Tiers: anyone reads them (the list, one by id or level); tier:manage changes them. */
@Resolver(() => Tier)
export class TierResolver {
  @Query(() => TierPage, { description: 'Tiers by level; inactive and deleted ones only when asked for. Public' })
  tiers(@Args() args: TierListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext) {
    return new TierService(ctx.em).list(args, locale);
  }

  @Query(() => [Tier], { description: 'The live tiers among the ids, in their order; unknown ids are left out' })
  tiersByIds(@Args() { ids }: TierIdsArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier[]> {
    requirePrincipal(ctx.principal);
    return new TierService(ctx.em).byIds(ids, locale);
  }

  @Query(() => Tier, { description: 'One live tier; public' })
  tier(@Args() { id }: TierIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier> {
    return new TierService(ctx.em).get(id, locale);
  }

  @Query(() => Tier, { description: 'The live tier at a level; public' })
  tierByLevel(@Args() { level }: TierLevelArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier> {
    return new TierService(ctx.em).byLevel(level, locale);
  }

  @Query(() => TierMemberCount, { description: 'Members on one live tier; needs tier:read' })
  tierMemberCount(@Args() { id }: TierIdArgs, @Ctx() ctx: RequestContext): Promise<TierMemberCount> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierRead);
    return new TierService(ctx.em).memberCount(id);
  }

  @Query(() => [TierMemberCount], { description: 'Members on every live tier, by level; needs tier:read' })
  tierMemberCounts(@Ctx() ctx: RequestContext): Promise<TierMemberCount[]> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierRead);
    return new TierService(ctx.em).memberCounts();
  }

  @Mutation(() => Tier, { description: 'Adds a tier; 409 when a live tier has its level' })
  createTier(@Arg('input') input: CreateTierInput, @Ctx() ctx: RequestContext): Promise<Tier> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierManage);
    return new TierService(ctx.em).create(input);
  }

  @Mutation(() => Tier, { description: 'Changes the given fields of a live tier; 409 when the new level is taken' })
  updateTier(@Args() { id }: TierIdArgs, @Arg('input') input: UpdateTierInput, @Ctx() ctx: RequestContext): Promise<Tier> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierManage);
    return new TierService(ctx.em).update(id, input);
  }

  @Mutation(() => Tier, { description: 'Activates or deactivates a live tier' })
  setTierActive(@Args() { id, isActive }: SetTierActiveArgs, @Ctx() ctx: RequestContext): Promise<Tier> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierManage);
    return new TierService(ctx.em).setActive(id, isActive);
  }

  @Mutation(() => Tier, { description: 'Soft-deletes a tier; its level is free again' })
  deleteTier(@Args() { id }: TierIdArgs, @Ctx() ctx: RequestContext): Promise<Tier> {
    requirePermission(ctx.principal, CLUSTER.permissions.tierManage);
    return new TierService(ctx.em).softDelete(id);
  }
}
