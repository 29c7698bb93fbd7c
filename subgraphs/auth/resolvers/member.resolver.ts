import { Arg, Args, Authorized, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller, Public } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { OncePerRequest } from '../../../core/graphql/once-per-request';
import { PageType } from '../../../core/pagination';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { Member } from '../entities/member';
import { ChatappProfileInput, CreateMemberDirectInput, MemberDirectUpdateInput, MemberIdArgs, MemberIdsArgs, MemberListArgs, MemberProfileInput } from '../types/member.inputs';
import { MemberQrCode } from '../types/member.types';
import { MemberView } from '../services/member.service';
import { ChatappLoginArgs, MemberLogin } from '../types/session.types';

const MemberPage = PageType(Member, 'Member');

@Resolver(() => Member)
export class MemberResolver {
  /** Not for clients (@inaccessible): what the cluster's `Member.tier` @requires, for members it has not placed yet. */
  @Directive('@inaccessible')
  @FieldResolver(() => ID, { nullable: true, description: "The member's tier id in auth's projection: the entry tier a creation promised, then the cluster's changes" })
  projectedTierId(@Root() member: MemberView, @Ctx() ctx: AuthContext) {
    // A member read by `view` has it already; references and pages ask for theirs together.
    return member.projectedTierId !== undefined ? member.projectedTierId : ctx.services.memberTierIds.load(member.id);
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => MemberLogin, { description: 'Logs a member in with a chat-app login code (creating it on first login)' })
  chatappLogin(@Args() { code, appId, referralCode }: ChatappLoginArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.members.chatappLogin(code, appId, referralCode);
  }

  @Authorized(Access.member)
  @Query(() => Member, { description: 'The member of the Bearer token' })
  currentMember(@Caller() member: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.members.view(member.id);
  }

  @Authorized(Access.member)
  @Mutation(() => Member)
  updateCurrentMember(@Arg('input') input: MemberProfileInput, @Caller() member: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.members.updateProfile(member.id, input);
  }

  @Authorized(Access.member)
  @Query(() => MemberQrCode)
  currentMemberQrCode(@Caller() member: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.members.qrCode(member.id);
  }

  @Authorized(AUTH.permissions.memberRead)
  @Query(() => MemberPage)
  members(@Args() args: MemberListArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.members.list(args);
  }

  @Authorized(AUTH.permissions.memberRead)
  @Query(() => [Member])
  membersByIds(@Args() { ids }: MemberIdsArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.members.findByIds(ids);
  }

  @Authorized(Access.selfBy('id'), AUTH.permissions.memberRead)
  @Query(() => Member)
  member(@Args() { id }: IdArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.members.view(id);
  }

  @Authorized(Access.selfBy('memberId'), AUTH.permissions.memberManage)
  @Mutation(() => Member, { description: 'Copies the profile the mini-program read from the chat app' })
  syncChatappMember(@Args() { memberId }: MemberIdArgs, @Arg('input') input: ChatappProfileInput, @Ctx() ctx: AuthContext) {
    return ctx.services.members.syncFromChatapp(memberId, input);
  }

  @Authorized(AUTH.permissions.memberManage)
  @Mutation(() => Member)
  updateMember(@Args() { memberId }: MemberIdArgs, @Arg('input') input: MemberProfileInput, @Ctx() ctx: AuthContext) {
    return ctx.services.members.updateProfile(memberId, input);
  }

  @Authorized(AUTH.permissions.memberManage)
  @Mutation(() => Member, { description: 'Staff create a member directly (walk-in, no chat-app account)' })
  createMemberDirect(@Arg('input') input: CreateMemberDirectInput, @Ctx() ctx: AuthContext) {
    return ctx.services.members.createDirect(input);
  }

  @Authorized(AUTH.permissions.memberManage)
  @Mutation(() => Member, { description: 'Staff update a member directly, status included' })
  updateMemberDirect(@Args() { memberId }: MemberIdArgs, @Arg('input') input: MemberDirectUpdateInput, @Ctx() ctx: AuthContext) {
    return ctx.services.members.updateProfile(memberId, input);
  }
}
