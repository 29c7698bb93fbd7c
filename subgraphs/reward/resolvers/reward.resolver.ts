import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Public } from '../../../core/auth/access';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { RewardContext } from '../context';
import { REWARD } from '../contract';
import { Reward } from '../entities/reward';
import { RewardCatalog } from '../entities/reward-catalog';
import { CreateRewardInput, RewardIdArgs, RewardListArgs, RewardStockArgs, SetRewardActiveArgs, UpdateRewardInput } from '../types/reward.types';

const RewardPage = PageType(Reward, 'Reward');

/** Rewards: anyone reads them; reward:manage changes them. */
@Resolver(() => Reward)
export class RewardResolver {
  @Public()
  @Query(() => RewardPage, { description: 'Rewards, newest first; inactive and deleted ones only when asked for. Public' })
  rewards(@Args() args: RewardListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.list(args, locale);
  }

  @Public()
  @Query(() => Reward, { description: 'One live reward, active or not. Public' })
  reward(@Args() { id }: RewardIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.get(id, locale);
  }

  @FieldResolver(() => RewardCatalog, { nullable: true, description: 'The live catalog named by rewardCatalogId (REST: includeLink)' })
  rewardCatalog(@Root() reward: Reward, @Ctx() ctx: RewardContext) {
    return reward.rewardCatalogId ? ctx.services.catalogsById.load(reward.rewardCatalogId) : null;
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => Reward, { description: 'Adds a reward; 400 with every field that breaks a rule' })
  createReward(@Arg('input') input: CreateRewardInput, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.create(input);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => Reward, { description: 'Changes the given fields of a live reward; the rules apply to the result' })
  updateReward(@Args() { id }: RewardIdArgs, @Arg('input') input: UpdateRewardInput, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.update(id, input);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => Reward, { description: 'Activates or deactivates a live reward' })
  setRewardActive(@Args() { id, isActive }: SetRewardActiveArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.setActive(id, isActive);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => Reward, { description: 'Adds units to a LIMITED stock atomically; INFINITE stock is unchanged' })
  increaseRewardStock(@Args() { id, amount }: RewardStockArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.increaseStock(id, amount);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => Reward, { description: 'Takes units from a LIMITED stock atomically, never below zero (400 when short); INFINITE stock never runs out' })
  decreaseRewardStock(@Args() { id, amount }: RewardStockArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.decreaseStock(id, amount);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => Reward, { description: 'Soft-deletes a reward' })
  deleteReward(@Args() { id }: RewardIdArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.rewards.softDelete(id);
  }
}
