import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { ClusterContext } from '../context';
import { CLUSTER } from '../contract';
import { InterestCategory } from '../entities/interest-category';
import { Segment } from '../entities/segment';
import { MemberReference } from '../types/member.type';
import { CreateSegmentInput, InterestCategoryInput, SegmentListArgs, SegmentMember, SegmentMemberIdsArgs, SegmentMemberListArgs, SegmentMembersArgs, SegmentMembershipChange, SetMyInterestsArgs, UpdateInterestCategoryInput, UpdateSegmentInput } from '../types/segment.types';
import { MemberIdArgs } from '../types/tier-projection.types';

const SegmentPage = PageType(Segment, 'Segment');
const SegmentMemberPage = PageType(SegmentMember, 'SegmentMember');

/** Segments: segment:read reads them and their members; segment:manage changes them. */
@Resolver(() => Segment)
export class SegmentResolver {
  @Authorized(CLUSTER.permissions.segmentRead)
  @Query(() => SegmentPage, { description: 'Live segments, newest first; needs segment:read' })
  segments(@Args() args: SegmentListArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.list(args, locale);
  }

  @Authorized(CLUSTER.permissions.segmentRead)
  @Query(() => Segment, { description: 'One live segment; needs segment:read' })
  segment(@Args() { id }: IdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.get(id, locale);
  }

  @Authorized(CLUSTER.permissions.segmentRead)
  @Query(() => SegmentMemberPage, { description: "A segment's members (a rule segment's evaluated now); needs segment:read" })
  segmentMembers(@Args() args: SegmentMemberListArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.members(args.id, args);
  }

  @Authorized(CLUSTER.permissions.segmentRead)
  @Query(() => [ID], { description: "A segment's member ids in id order after `after` (at most `limit`, 5,000): walks a whole segment; needs segment:read" })
  segmentMemberIds(@Args() { id, after, limit }: SegmentMemberIdsArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.memberIdsAfter(id, after ?? null, limit);
  }

  @Authorized(Access.selfBy('memberId'), CLUSTER.permissions.segmentRead)
  @Query(() => [Segment], { description: 'The live segments a member is in now, by name; a member reads its own, staff need segment:read' })
  memberSegments(@Args() { memberId }: MemberIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.ofMember(memberId, locale);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => Segment, { description: 'Adds a segment; 409 when a live segment has its name_en' })
  createSegment(@Arg('input') input: CreateSegmentInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.create(input);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => Segment, { description: 'Changes the given fields of a live segment (not its type)' })
  updateSegment(@Args() { id }: IdArgs, @Arg('input') input: UpdateSegmentInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.update(id, input);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => Segment, { description: 'Soft-deletes a segment' })
  deleteSegment(@Args() { id }: IdArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.softDelete(id);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => SegmentMembershipChange, { description: 'Adds members to a manual segment (idempotent); 400 on a rule segment' })
  addSegmentMembers(@Args() { id, memberIds }: SegmentMembersArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.addMembers(id, memberIds);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => SegmentMembershipChange, { description: 'Removes members from a manual segment (idempotent); 400 on a rule segment' })
  removeSegmentMembers(@Args() { id, memberIds }: SegmentMembersArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.segments.removeMembers(id, memberIds);
  }

  @Authorized(CLUSTER.permissions.segmentRead)
  @FieldResolver(() => Int, { description: 'Members now (a rule segment evaluated at read): one query per segment (segment:read)' })
  memberCount(@Root() segment: Segment, @Ctx() ctx: ClusterContext): Promise<number> {
    return ctx.services.segments.memberCount(segment);
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
  @Authorized()
  @Query(() => [InterestCategory], { description: 'Every live interest category, by English name; any token' })
  interestCategories(@Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.categories(locale);
  }

  @Authorized(Access.member)
  @Query(() => [InterestCategory], { description: "The caller's interests (a member token)" })
  myInterests(@Args() { locale }: LocaleArgs, @Caller() member: Principal, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.ofMember(member.id, locale);
  }

  @Authorized(CLUSTER.permissions.segmentRead)
  @Query(() => [InterestCategory], { description: "A member's interests; needs segment:read" })
  memberInterests(@Args() { memberId }: MemberIdArgs, @Args() { locale }: LocaleArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.ofMember(memberId, locale);
  }

  @Authorized(Access.member)
  @Mutation(() => [InterestCategory], { description: "Replaces the caller's interests with the given set; an unknown category is 400" })
  setMyInterests(@Args() { categoryIds }: SetMyInterestsArgs, @Args() { locale }: LocaleArgs, @Caller() member: Principal, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.replace(member.id, categoryIds, locale);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => InterestCategory, { description: 'Adds an interest category; 409 when a live one has its name_en' })
  createInterestCategory(@Arg('input') input: InterestCategoryInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.create(input);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => InterestCategory, { description: 'Changes the given names of a live interest category' })
  updateInterestCategory(@Args() { id }: IdArgs, @Arg('input') input: UpdateInterestCategoryInput, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.update(id, input);
  }

  @Authorized(CLUSTER.permissions.segmentManage)
  @Mutation(() => InterestCategory, { description: "Soft-deletes an interest category; it leaves every member's interests" })
  deleteInterestCategory(@Args() { id }: IdArgs, @Ctx() ctx: ClusterContext) {
    return ctx.services.interests.softDelete(id);
  }
}
