import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Public } from '../../../core/auth/access';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { RewardContext } from '../context';
import { REWARD } from '../contract';
import { RewardCatalog, RewardCatalogStatus } from '../entities/reward-catalog';
import { Reward } from '../entities/reward';
import { RewardStats } from '../entities/reward-stats';
import { catalogStatus, catalogStats } from '../services/catalog-status';
import { CreateRewardCatalogInput, RewardCatalogIdArgs, RewardCatalogListArgs, SetRewardCatalogActiveArgs, UpdateRewardCatalogInput } from '../types/reward-catalog.types';

const RewardCatalogPage = PageType(RewardCatalog, 'RewardCatalog');

/** Reward catalogs: anyone reads them; reward:manage changes them. */
@Resolver(() => RewardCatalog)
export class RewardCatalogResolver {
  @Public()
  @Query(() => RewardCatalogPage, { description: 'Reward catalogs, newest first unless sorted; inactive and deleted ones only when asked for. Public' })
  rewardCatalogs(@Args() args: RewardCatalogListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.catalogs.list(args, locale);
  }

  @Public()
  @Query(() => RewardCatalog, { description: 'One live reward catalog, active or not. Public' })
  rewardCatalog(@Args() { id }: RewardCatalogIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.catalogs.get(id, locale);
  }

  @FieldResolver(() => RewardCatalogStatus, { description: 'From the window and the reward\'s stock, now' })
  async status(@Root() catalog: RewardCatalog, @Ctx() ctx: RewardContext) {
    return catalogStatus(catalog, await ctx.services.rewardsById.load(catalog.rewardId), new Date());
  }

  @FieldResolver(() => RewardStats, { description: 'Codes redeemed and used through this catalog; remaining and total from the reward\'s stock (REST: includeStats)' })
  async stats(@Root() catalog: RewardCatalog, @Ctx() ctx: RewardContext) {
    return catalogStats(catalog, await ctx.services.rewardsById.load(catalog.rewardId));
  }

  @FieldResolver(() => Reward, { nullable: true, description: "The catalog's reward (deleted ones too: see its deletedAt)" })
  reward(@Root() catalog: RewardCatalog, @Ctx() ctx: RewardContext) {
    return ctx.services.rewardsById.load(catalog.rewardId);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => RewardCatalog, { description: 'Adds a reward catalog; 400 with every field that breaks a rule' })
  createRewardCatalog(@Arg('input') input: CreateRewardCatalogInput, @Ctx() ctx: RewardContext) {
    return ctx.services.catalogs.create(input);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => RewardCatalog, { description: 'Changes the given fields of a live reward catalog; the rules apply to the result' })
  updateRewardCatalog(@Args() { id }: RewardCatalogIdArgs, @Arg('input') input: UpdateRewardCatalogInput, @Ctx() ctx: RewardContext) {
    return ctx.services.catalogs.update(id, input);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => RewardCatalog, { description: 'Activates or deactivates a live reward catalog' })
  setRewardCatalogActive(@Args() { id, isActive }: SetRewardCatalogActiveArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.catalogs.setActive(id, isActive);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => RewardCatalog, { description: 'Soft-deletes a reward catalog' })
  deleteRewardCatalog(@Args() { id }: RewardCatalogIdArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.catalogs.softDelete(id);
  }
}
