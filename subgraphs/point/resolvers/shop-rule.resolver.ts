import { POINT } from '../contract';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requirePermission, requirePrincipal } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { PointShopRule } from '../entities/point-shop-rule';
import { ShopRuleService } from '../services/shop-rule.service';
import { CreatePointShopRuleInput, PointShopRuleListArgs, UpdatePointShopRuleInput } from '../types/shop-rule.types';
import { IdArgs } from '../../../core/graphql/id-args';

const PointShopRulePage = PageType(PointShopRule, 'PointShopRule');

/** Shop point rules: any caller reads them; point:manage changes them. */
@Resolver(() => PointShopRule)
export class ShopRuleResolver {
  @Query(() => PointShopRulePage, { description: 'Live shop rules, the default rule first' })
  pointShopRules(@Args() args: PointShopRuleListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext) {
    requirePrincipal(ctx.principal);
    return new ShopRuleService(ctx.em).list(args, locale);
  }

  @Query(() => PointShopRule, { description: 'The default rule (isFixed), for shops without a rule' })
  defaultPointShopRule(@Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<PointShopRule> {
    requirePrincipal(ctx.principal);
    return new ShopRuleService(ctx.em).defaultRule(locale);
  }

  @Query(() => PointShopRule)
  pointShopRule(@Args() { id }: IdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<PointShopRule> {
    requirePrincipal(ctx.principal);
    return new ShopRuleService(ctx.em).get(id, locale);
  }

  @Mutation(() => PointShopRule, { description: 'Adds the rule of one shop; 409 when the shop has a live rule' })
  createPointShopRule(@Arg('input') input: CreatePointShopRuleInput, @Ctx() ctx: RequestContext): Promise<PointShopRule> {
    requirePermission(ctx.principal, POINT.permissions.manage);
    return new ShopRuleService(ctx.em).create(input);
  }

  @Mutation(() => PointShopRule, { description: 'Changes the given fields of a rule; the default rule stays fixed and without shop' })
  updatePointShopRule(@Args() { id }: IdArgs, @Arg('input') input: UpdatePointShopRuleInput, @Ctx() ctx: RequestContext): Promise<PointShopRule> {
    requirePermission(ctx.principal, POINT.permissions.manage);
    return new ShopRuleService(ctx.em).update(id, input);
  }

  @Mutation(() => PointShopRule, { description: 'Soft-deletes a shop rule; the default rule cannot be deleted' })
  deletePointShopRule(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<PointShopRule> {
    requirePermission(ctx.principal, POINT.permissions.manage);
    return new ShopRuleService(ctx.em).softDelete(id);
  }
}
