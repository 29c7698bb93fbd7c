import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { IdArgs } from '../../../core/graphql/id-args';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { PointShopRule } from '../entities/point-shop-rule';
import { CreatePointShopRuleInput, PointShopRuleListArgs, UpdatePointShopRuleInput } from '../types/shop-rule.types';

const PointShopRulePage = PageType(PointShopRule, 'PointShopRule');

/** Shop point rules: any caller reads them; point:manage changes them. */
@Resolver(() => PointShopRule)
export class ShopRuleResolver {
  @Authorized()
  @Query(() => PointShopRulePage, { description: 'Live shop rules, the default rule first' })
  pointShopRules(@Args() args: PointShopRuleListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: PointContext) {
    return ctx.services.shopRules.list(args, locale);
  }

  @Authorized()
  @Query(() => PointShopRule, { description: 'The default rule (isFixed), for shops without a rule' })
  defaultPointShopRule(@Args() { locale }: LocaleArgs, @Ctx() ctx: PointContext) {
    return ctx.services.shopRules.defaultRule(locale);
  }

  @Authorized()
  @Query(() => PointShopRule)
  pointShopRule(@Args() { id }: IdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: PointContext) {
    return ctx.services.shopRules.get(id, locale);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointShopRule, { description: 'Adds the rule of one shop; 409 when the shop has a live rule' })
  createPointShopRule(@Arg('input') input: CreatePointShopRuleInput, @Ctx() ctx: PointContext) {
    return ctx.services.shopRules.create(input);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointShopRule, { description: 'Changes the given fields of a rule; the default rule stays fixed and without shop' })
  updatePointShopRule(@Args() { id }: IdArgs, @Arg('input') input: UpdatePointShopRuleInput, @Ctx() ctx: PointContext) {
    return ctx.services.shopRules.update(id, input);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointShopRule, { description: 'Soft-deletes a shop rule; the default rule cannot be deleted' })
  deletePointShopRule(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.shopRules.softDelete(id);
  }
}
