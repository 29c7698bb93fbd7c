import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { IdArgs } from '../../../core/graphql/id-args';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { ClusterContext } from '../context';
import { CLUSTER } from '../contract';
import { Badge, BadgeMemberProgress } from '../entities/badge';
import { Tier } from '../entities/tier';
import { BadgeListArgs, BadgeProgressArgs, BadgeProgressMemberArgs, CreateBadgeInput, UpdateBadgeInput } from '../types/badge.types';
import { SetActiveArgs } from '../../../core/catalog/catalog-inputs';
import { MemberReference } from '../types/member.type';

const BadgePage = PageType(Badge, 'Badge');
const BadgeProgressPage = PageType(BadgeMemberProgress, 'BadgeMemberProgress');

/** Badges: any token reads them; badge:manage changes them. */
@Resolver(() => Badge)
export class BadgeResolver {
  @Authorized()
  @Query(() => BadgePage, { description: 'Badges, newest first; inactive and deleted ones only when asked for' })
  badges(@Args() args: BadgeListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.list(args, locale);
  }

  @Authorized()
  @Query(() => Badge, { description: 'One live badge' })
  badge(@Args() { id }: IdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.get(id, locale);
  }

  @Authorized(CLUSTER.permissions.badgeManage)
  @Mutation(() => Badge, { description: 'Adds a badge; its rule is checked for the goal its type needs' })
  createBadge(@Arg('input') input: CreateBadgeInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.create(input);
  }

  @Authorized(CLUSTER.permissions.badgeManage)
  @Mutation(() => Badge, { description: 'Changes the given fields of a live badge' })
  updateBadge(@Args() { id }: IdArgs, @Arg('input') input: UpdateBadgeInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.update(id, input);
  }

  @Authorized(CLUSTER.permissions.badgeManage)
  @Mutation(() => Badge, { description: 'Activates or deactivates a live badge' })
  setBadgeActive(@Args() { id, isActive }: SetActiveArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.setActive(id, isActive);
  }

  @Authorized(CLUSTER.permissions.badgeManage)
  @Mutation(() => Badge, { description: 'Soft-deletes a badge; its progress stops' })
  deleteBadge(@Args() { id }: IdArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.softDelete(id);
  }

  @FieldResolver(() => Int, { description: 'Members with progress on the badge' })
  memberCount(@Root() badge: Badge, @Ctx() ctx: ClusterContext): Promise<number> {
    return ctx.services.badges.memberCount(badge.id);
  }

  @FieldResolver(() => Int, { description: 'Members who completed the badge' })
  totalAchievers(@Root() badge: Badge, @Ctx() ctx: ClusterContext): Promise<number> {
    return ctx.services.badges.totalAchievers(badge.id);
  }

  @FieldResolver(() => [Tier], { description: 'The live tiers named in rule.tierCondition' })
  tiers(@Root() badge: Badge, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Tier[]> {
    const ids = badge.rule.tierCondition?.tierIds ?? [];
    return ids.length ? ctx.services.tiers.byIds(ids, locale) : Promise.resolve([]);
  }
}

/** Members' badge progress: a member reads its own; staff need tier:read. */
@Resolver(() => BadgeMemberProgress)
export class BadgeProgressResolver {
  @Authorized(Access.member)
  @Query(() => BadgeProgressPage, { description: "The caller's badge progress, newest first; page is zero-based" })
  myBadgeProgress(@Args() args: BadgeProgressArgs, @Caller() member: Principal, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.progress(member.id, args);
  }

  @Authorized(Access.selfBy('memberId'), CLUSTER.permissions.tierRead)
  @Query(() => BadgeProgressPage, { description: "A member's badge progress, newest first; page is zero-based" })
  badgeProgress(@Args() { memberId, ...args }: BadgeProgressMemberArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.badges.progress(memberId, args as BadgeProgressArgs);
  }

  @FieldResolver(() => Badge, { nullable: true, description: 'The badge (deleted ones too)' })
  async badge(@Root() progress: BadgeMemberProgress, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext): Promise<Badge | null> {
    const badge = await ctx.em.findOne(Badge, progress.badgeId, INCLUDING_DELETED);
    return badge ? ctx.services.badges.localize(badge, locale) : null;
  }

  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() progress: BadgeMemberProgress): MemberReference {
    return { id: progress.memberId };
  }
}
