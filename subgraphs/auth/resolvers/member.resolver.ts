import { AUTH } from '../contract';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requireKind, requirePermission, requireSelfOrPermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { PageType } from '../../../core/pagination';
import { AuthDeps } from '../auth-deps';
import { Member } from '../entities/member';
import { MemberService } from '../services/member.service';
import {
  ChatappProfileInput,
  CreateMemberDirectInput,
  MemberDirectUpdateInput,
  MemberIdArgs,
  MemberIdsArgs,
  MemberListArgs,
  MemberProfileInput,
} from '../types/member.inputs';
import { MemberQrCode } from '../types/member.types';
import { ChatappLoginArgs, MemberLogin } from '../types/session.types';
import { IdArgs } from '../../../core/graphql/id-args';
import { OncePerRequest } from '../../../core/graphql/once-per-request';


const MemberPage = PageType(Member, 'Member');

@Resolver(() => Member)
export class MemberResolver {
  constructor(private readonly deps: AuthDeps) {}

  @Mutation(() => MemberLogin, { description: 'Logs a member in with a chat-app login code (creating it on first login)' })
  @OncePerRequest()
  chatappLogin(@Args() { code }: ChatappLoginArgs, @Ctx() ctx: RequestContext): Promise<MemberLogin> {
    return this.service(ctx).chatappLogin(code);
  }

  @Query(() => Member, { description: 'The member of the Bearer token' })
  currentMember(@Ctx() ctx: RequestContext): Promise<Member> {
    return this.service(ctx).get(requireKind(ctx.principal, 'member').id);
  }

  @Mutation(() => Member)
  updateCurrentMember(@Arg('input') input: MemberProfileInput, @Ctx() ctx: RequestContext): Promise<Member> {
    return this.service(ctx).updateProfile(requireKind(ctx.principal, 'member').id, input);
  }

  @Query(() => MemberQrCode)
  currentMemberQrCode(@Ctx() ctx: RequestContext): Promise<MemberQrCode> {
    return this.service(ctx).qrCode(requireKind(ctx.principal, 'member').id);
  }

  @Query(() => MemberPage)
  members(@Args() args: MemberListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, AUTH.permissions.memberRead);
    return this.service(ctx).list(args);
  }

  @Query(() => [Member])
  membersByIds(@Args() { ids }: MemberIdsArgs, @Ctx() ctx: RequestContext): Promise<Member[]> {
    requirePermission(ctx.principal, AUTH.permissions.memberRead);
    return this.service(ctx).findByIds(ids);
  }

  @Query(() => Member)
  member(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<Member> {
    requireSelfOrPermission(ctx.principal, id, AUTH.permissions.memberRead);
    return this.service(ctx).get(id);
  }

  @Mutation(() => Member, { description: "Copies the profile the mini-program read from the chat app" })
  syncChatappMember(@Args() { memberId }: MemberIdArgs, @Arg('input') input: ChatappProfileInput, @Ctx() ctx: RequestContext): Promise<Member> {
    requireSelfOrPermission(ctx.principal, memberId, AUTH.permissions.memberManage);
    return this.service(ctx).syncFromChatapp(memberId, input);
  }

  @Mutation(() => Member)
  updateMember(@Args() { memberId }: MemberIdArgs, @Arg('input') input: MemberProfileInput, @Ctx() ctx: RequestContext): Promise<Member> {
    requirePermission(ctx.principal, AUTH.permissions.memberManage);
    return this.service(ctx).updateProfile(memberId, input);
  }

  @Mutation(() => Member, { description: 'Staff create a member directly (walk-in, no chat-app account)' })
  createMemberDirect(@Arg('input') input: CreateMemberDirectInput, @Ctx() ctx: RequestContext): Promise<Member> {
    requirePermission(ctx.principal, AUTH.permissions.memberManage);
    return this.service(ctx).createDirect(input);
  }

  @Mutation(() => Member, { description: 'Staff update a member directly, status included' })
  updateMemberDirect(
    @Args() { memberId }: MemberIdArgs,
    @Arg('input') input: MemberDirectUpdateInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Member> {
    requirePermission(ctx.principal, AUTH.permissions.memberManage);
    return this.service(ctx).updateProfile(memberId, input);
  }

  private service(ctx: RequestContext): MemberService {
    return new MemberService(ctx.em, this.deps);
  }
}
