import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { EarningRule } from '../entities/earning-rule';
import { EarningRuleVersion } from '../entities/earning-rule-version';
import { RuleApplication } from '../entities/rule-application';
import { EarningRuleInput, EarningRuleListArgs, EarningRulePatch, EarningSimulation, EarningSimulationInput, RuleApplicationListArgs } from '../types/earning-rule.types';

const EarningRulePage = PageType(EarningRule, 'EarningRule');
const RuleApplicationPage = PageType(RuleApplication, 'RuleApplication');

/** Earning rules: point:read reads them and runs dry runs; point:rules-manage (admin) writes them. */
@Resolver(() => EarningRule)
export class EarningRuleResolver {
  @Authorized(POINT.permissions.read)
  @Query(() => EarningRulePage, { description: 'Live earning rules, the newest first' })
  earningRules(@Args() args: EarningRuleListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.list(args);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => EarningRule)
  earningRule(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.get(id);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => RuleApplicationPage, { description: 'Which rule versions earned which points, the newest first' })
  earningRuleApplications(@Args() args: RuleApplicationListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.applications(args);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => EarningSimulation, { description: 'What a purchase would earn now (shop rule and earning rules), writing nothing' })
  simulateEarning(@Arg('input') input: EarningSimulationInput, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.simulate(input, ctx.requestId);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => EarningRule, { description: 'Adds an earning rule, inactive, at version 1' })
  createEarningRule(@Arg('input') input: EarningRuleInput, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.create(input, caller);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => EarningRule, { description: 'Changes the given fields; a changed definition is a new version' })
  updateEarningRule(@Args() { id }: IdArgs, @Arg('input') input: EarningRulePatch, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.update(id, input, caller);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => EarningRule)
  activateEarningRule(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.setActive(id, true);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => EarningRule)
  deactivateEarningRule(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.setActive(id, false);
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => EarningRule, { description: 'Deletes a rule softly: it stops applying; its versions and applications stay' })
  deleteEarningRule(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.softDelete(id);
  }

  @Authorized(POINT.permissions.read)
  @FieldResolver(() => [EarningRuleVersion], { description: 'Every version, the newest first' })
  versions(@Root() rule: EarningRule, @Ctx() ctx: PointContext) {
    return ctx.services.earningRules.versions(rule.id);
  }
}
