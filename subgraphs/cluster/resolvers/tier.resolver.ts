import { Arg, Args, Authorized, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Public } from '../../../core/auth/access';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { ClusterContext } from '../context';
import { CLUSTER } from '../contract';
import { Tier } from '../entities/tier';
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
  @Public()
  @Query(() => TierPage, { description: 'Tiers by level; inactive and deleted ones only when asked for. Public' })
  tiers(@Args() args: TierListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.list(args, locale);
  }

  @Authorized()
  @Query(() => [Tier], { description: 'The live tiers among the ids, in their order; unknown ids are left out' })
  tiersByIds(@Args() { ids }: TierIdsArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.byIds(ids, locale);
  }

  @Public()
  @Query(() => Tier, { description: 'One live tier; public' })
  tier(@Args() { id }: TierIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.get(id, locale);
  }

  @Public()
  @Query(() => Tier, { description: 'The live tier at a level; public' })
  tierByLevel(@Args() { level }: TierLevelArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.byLevel(level, locale);
  }

  @Authorized(CLUSTER.permissions.tierRead)
  @Query(() => TierMemberCount, { description: 'Members on one live tier; needs tier:read' })
  tierMemberCount(@Args() { id }: TierIdArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.memberCount(id);
  }

  @Authorized(CLUSTER.permissions.tierRead)
  @Query(() => [TierMemberCount], { description: 'Members on every live tier, by level; needs tier:read' })
  tierMemberCounts(@Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.memberCounts();
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => Tier, { description: 'Adds a tier; 409 when a live tier has its level' })
  createTier(@Arg('input') input: CreateTierInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.create(input);
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => Tier, { description: 'Changes the given fields of a live tier; 409 when the new level is taken' })
  updateTier(@Args() { id }: TierIdArgs, @Arg('input') input: UpdateTierInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.update(id, input);
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => Tier, { description: 'Activates or deactivates a live tier' })
  setTierActive(@Args() { id, isActive }: SetTierActiveArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.setActive(id, isActive);
  }

  @Authorized(CLUSTER.permissions.tierManage)
  @Mutation(() => Tier, { description: 'Soft-deletes a tier; its level is free again' })
  deleteTier(@Args() { id }: TierIdArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.tiers.softDelete(id);
  }
}
