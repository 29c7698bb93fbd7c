import { CLUSTER } from '../contract';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireKind, requirePermission, requirePrincipal } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { InterestCategory } from '../entities/interest-category';
import { Segment } from '../entities/segment';
import { InterestService } from '../services/interest.service';
import { SegmentService } from '../services/segment.service';

import { MemberIdArgs } from '../types/tier-projection.types';
import { MemberReference } from '../types/member.type';
import {
  CreateSegmentInput,
  InterestCategoryInput,
  SegmentListArgs,
  SegmentMember,
  SegmentMemberListArgs,
  SegmentMembersArgs,
  SegmentMembershipChange,
  SetMyInterestsArgs,
  UpdateInterestCategoryInput,
  UpdateSegmentInput,
} from '../types/segment.types';
import { IdArgs } from '../../../core/graphql/id-args';

const SegmentPage = PageType(Segment, 'Segment');
const SegmentMemberPage = PageType(SegmentMember, 'SegmentMember');

/** Segments: segment:read reads them and their members; segment:manage changes them. */
@Resolver(() => Segment)
export class SegmentResolver {
  @Query(() => SegmentPage, { description: 'Live segments, newest first; needs segment:read' })
  segments(@Args() args: SegmentListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentRead);
    return new SegmentService(ctx.em).list(args, locale);
  }

  @Query(() => Segment, { description: 'One live segment; needs segment:read' })
  segment(@Args() { id }: IdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Segment> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentRead);
    return new SegmentService(ctx.em).get(id, locale);
  }

  @Query(() => SegmentMemberPage, { description: "A segment's members (a rule segment's evaluated now); needs segment:read" })
  segmentMembers(@Args() args: SegmentMemberListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentRead);
    return new SegmentService(ctx.em).members(args.id, args);
  }

  @Query(() => [Segment], { description: 'The live segments a member is in now, by name; needs segment:read' })
  memberSegments(@Args() { memberId }: MemberIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Segment[]> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentRead);
    return new SegmentService(ctx.em).ofMember(memberId, locale);
  }

  @Mutation(() => Segment, { description: 'Adds a segment; 409 when a live segment has its name_en' })
  createSegment(@Arg('input') input: CreateSegmentInput, @Ctx() ctx: RequestContext): Promise<Segment> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new SegmentService(ctx.em).create(input);
  }

  @Mutation(() => Segment, { description: 'Changes the given fields of a live segment (not its type)' })
  updateSegment(@Args() { id }: IdArgs, @Arg('input') input: UpdateSegmentInput, @Ctx() ctx: RequestContext): Promise<Segment> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new SegmentService(ctx.em).update(id, input);
  }

  @Mutation(() => Segment, { description: 'Soft-deletes a segment' })
  deleteSegment(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<Segment> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new SegmentService(ctx.em).softDelete(id);
  }

  @Mutation(() => SegmentMembershipChange, { description: 'Adds members to a manual segment (idempotent); 400 on a rule segment' })
  addSegmentMembers(@Args() { id, memberIds }: SegmentMembersArgs, @Ctx() ctx: RequestContext): Promise<SegmentMembershipChange> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new SegmentService(ctx.em).addMembers(id, memberIds);
  }

  @Mutation(() => SegmentMembershipChange, { description: 'Removes members from a manual segment (idempotent); 400 on a rule segment' })
  removeSegmentMembers(@Args() { id, memberIds }: SegmentMembersArgs, @Ctx() ctx: RequestContext): Promise<SegmentMembershipChange> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new SegmentService(ctx.em).removeMembers(id, memberIds);
  }

  @FieldResolver(() => Int, { description: 'Members now (a rule segment evaluated at read): one query per segment' })
  memberCount(@Root() segment: Segment, @Ctx() ctx: RequestContext): Promise<number> {
    return new SegmentService(ctx.em).memberCount(segment);
  }
}

@Resolver(() => SegmentMember)
export class SegmentMemberResolver {
  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() item: SegmentMember): MemberReference {
    return { id: item.memberId };
  }
}

/** Interest categories: any token reads them; segment:manage changes them. Members pick their own. */
@Resolver(() => InterestCategory)
export class InterestResolver {
  @Query(() => [InterestCategory], { description: 'Every live interest category, by English name; any token' })
  interestCategories(@Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<InterestCategory[]> {
    requirePrincipal(ctx.principal);
    return new InterestService(ctx.em).categories(locale);
  }

  @Query(() => [InterestCategory], { description: "The caller's interests (a member token)" })
  myInterests(@Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<InterestCategory[]> {
    return new InterestService(ctx.em).ofMember(requireKind(ctx.principal, 'member').id, locale);
  }

  @Query(() => [InterestCategory], { description: "A member's interests; needs segment:read" })
  memberInterests(@Args() { memberId }: MemberIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<InterestCategory[]> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentRead);
    return new InterestService(ctx.em).ofMember(memberId, locale);
  }

  @Mutation(() => [InterestCategory], { description: "Replaces the caller's interests with the given set; an unknown category is 400" })
  setMyInterests(@Args() { categoryIds }: SetMyInterestsArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<InterestCategory[]> {
    return new InterestService(ctx.em).replace(requireKind(ctx.principal, 'member').id, categoryIds, locale);
  }

  @Mutation(() => InterestCategory, { description: 'Adds an interest category; 409 when a live one has its name_en' })
  createInterestCategory(@Arg('input') input: InterestCategoryInput, @Ctx() ctx: RequestContext): Promise<InterestCategory> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new InterestService(ctx.em).create(input);
  }

  @Mutation(() => InterestCategory, { description: 'Changes the given names of a live interest category' })
  updateInterestCategory(@Args() { id }: IdArgs, @Arg('input') input: UpdateInterestCategoryInput, @Ctx() ctx: RequestContext): Promise<InterestCategory> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new InterestService(ctx.em).update(id, input);
  }

  @Mutation(() => InterestCategory, { description: "Soft-deletes an interest category; it leaves every member's interests" })
  deleteInterestCategory(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<InterestCategory> {
    requirePermission(ctx.principal, CLUSTER.permissions.segmentManage);
    return new InterestService(ctx.em).softDelete(id);
  }
}
