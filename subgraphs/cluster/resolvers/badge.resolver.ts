import { CLUSTER } from '../contract';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireKind, requirePermission, requirePrincipal, requireSelfOrPermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { Badge, BadgeMemberProgress } from '../entities/badge';
import { Tier } from '../entities/tier';
import { BadgeService, localizedBadge } from '../services/badge.service';
import { TierService } from '../services/tier.service';
import { BadgeListArgs, BadgeProgressArgs, BadgeProgressMemberArgs, CreateBadgeInput, SetBadgeActiveArgs, UpdateBadgeInput } from '../types/badge.types';
import { MemberReference } from '../types/member.type';
import { IdArgs } from '../../../core/graphql/id-args';

const BadgePage = PageType(Badge, 'Badge');
const BadgeProgressPage = PageType(BadgeMemberProgress, 'BadgeMemberProgress');

/** Badges: any token reads them; badge:manage changes them. */
@Resolver(() => Badge)
export class BadgeResolver {
  @Query(() => BadgePage, { description: 'Badges, newest first; inactive and deleted ones only when asked for' })
  badges(@Args() args: BadgeListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext) {
    requirePrincipal(ctx.principal);
    return new BadgeService(ctx.em).list(args, locale);
  }

  @Query(() => Badge, { description: 'One live badge' })
  badge(@Args() { id }: IdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Badge> {
    requirePrincipal(ctx.principal);
    return new BadgeService(ctx.em).get(id, locale);
  }

  @Mutation(() => Badge, { description: 'Adds a badge; its rule is checked for the goal its type needs' })
  createBadge(@Arg('input') input: CreateBadgeInput, @Ctx() ctx: RequestContext): Promise<Badge> {
    requirePermission(ctx.principal, CLUSTER.permissions.badgeManage);
    return new BadgeService(ctx.em).create(input);
  }

  @Mutation(() => Badge, { description: 'Changes the given fields of a live badge' })
  updateBadge(@Args() { id }: IdArgs, @Arg('input') input: UpdateBadgeInput, @Ctx() ctx: RequestContext): Promise<Badge> {
    requirePermission(ctx.principal, CLUSTER.permissions.badgeManage);
    return new BadgeService(ctx.em).update(id, input);
  }

  @Mutation(() => Badge, { description: 'Activates or deactivates a live badge' })
  setBadgeActive(@Args() { id, isActive }: SetBadgeActiveArgs, @Ctx() ctx: RequestContext): Promise<Badge> {
    requirePermission(ctx.principal, CLUSTER.permissions.badgeManage);
    return new BadgeService(ctx.em).setActive(id, isActive);
  }

  @Mutation(() => Badge, { description: 'Soft-deletes a badge; its progress stops' })
  deleteBadge(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<Badge> {
    requirePermission(ctx.principal, CLUSTER.permissions.badgeManage);
    return new BadgeService(ctx.em).softDelete(id);
  }

  @FieldResolver(() => Int, { description: 'Members with progress on the badge' })
  memberCount(@Root() badge: Badge, @Ctx() ctx: RequestContext): Promise<number> {
    return new BadgeService(ctx.em).memberCount(badge.id);
  }

  @FieldResolver(() => Int, { description: 'Members who completed the badge' })
  totalAchievers(@Root() badge: Badge, @Ctx() ctx: RequestContext): Promise<number> {
    return new BadgeService(ctx.em).totalAchievers(badge.id);
  }

  @FieldResolver(() => [Tier], { description: 'The live tiers named in rule.tierCondition' })
  tiers(@Root() badge: Badge, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Tier[]> {
    const ids = badge.rule.tierCondition?.tierIds ?? [];
    return ids.length ? new TierService(ctx.em).byIds(ids, locale) : Promise.resolve([]);
  }
}

/** Members' badge progress: a member reads its own; staff need tier:read. */
@Resolver(() => BadgeMemberProgress)
export class BadgeProgressResolver {
  @Query(() => BadgeProgressPage, { description: "The caller's badge progress, newest first; page is zero-based" })
  myBadgeProgress(@Args() args: BadgeProgressArgs, @Ctx() ctx: RequestContext) {
    return new BadgeService(ctx.em).progress(requireKind(ctx.principal, 'member').id, args);
  }

  @Query(() => BadgeProgressPage, { description: "A member's badge progress, newest first; page is zero-based" })
  badgeProgress(@Args() { memberId, ...args }: BadgeProgressMemberArgs, @Ctx() ctx: RequestContext) {
    requireSelfOrPermission(ctx.principal, memberId, CLUSTER.permissions.tierRead);
    return new BadgeService(ctx.em).progress(memberId, args as BadgeProgressArgs);
  }

  @FieldResolver(() => Badge, { nullable: true, description: 'The badge (deleted ones too)' })
  async badge(@Root() progress: BadgeMemberProgress, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Badge | null> {
    const badge = await ctx.em.findOne(Badge, progress.badgeId);
    return badge ? localizedBadge(badge, locale) : null;
  }

  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() progress: BadgeMemberProgress): MemberReference {
    return { id: progress.memberId };
  }
}
