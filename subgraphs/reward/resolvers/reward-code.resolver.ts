import QRCode from 'qrcode';
import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { LocaleArgs } from '../../../core/i18n';
import { RewardContext } from '../context';
import { REWARD } from '../contract';
import { Reward } from '../entities/reward';
import { RewardCatalog } from '../entities/reward-catalog';
import { RewardCode } from '../entities/reward-code';
import { MemberReference } from '../types/member.type';
import { MyRewardCodeListArgs, RewardCodeArgs, RewardCodeCheck, RewardCodeIdArgs, RewardCodeListArgs, RewardCodePage, UseRewardCodeArgs } from '../types/reward-code.types';

/** Reward codes: reward:manage lists, checks and uses them; a member reads its own. */
@Resolver(() => RewardCode)
export class RewardCodeResolver {
  @Authorized(REWARD.permissions.manage)
  @Query(() => RewardCodePage, { description: "Every member's reward codes, newest first, filtered" })
  rewardCodes(@Args() args: RewardCodeListArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.codes.list(args);
  }

  @Authorized(Access.member)
  @Query(() => RewardCodePage, { description: "The caller's own reward codes, newest first, filtered" })
  myRewardCodes(@Args() args: MyRewardCodeListArgs, @Caller() member: Principal, @Ctx() ctx: RewardContext) {
    return ctx.services.codes.list({ ...args, memberId: member.id });
  }

  @Authorized(Access.member, REWARD.permissions.manage)
  @Query(() => RewardCode, { description: "One reward code: reward:manage reads any, a member its own (another member's is 404)" })
  rewardCode(@Args() { id }: RewardCodeIdArgs, @Caller() caller: Principal, @Ctx() ctx: RewardContext) {
    return ctx.services.codes.get(id, caller);
  }

  @Authorized(REWARD.permissions.manage)
  @Query(() => RewardCodeCheck, { description: 'Whether a code may be used now, with its reward; 400 when it names no code' })
  checkRewardCode(@Args() { code }: RewardCodeArgs, @Ctx() ctx: RewardContext) {
    return ctx.services.codes.check(code);
  }

  @Authorized(REWARD.permissions.manage)
  @Mutation(() => RewardCode, { description: 'The calling staff member marks the code used, once; 400 on other characters, a used or an expired code' })
  useRewardCode(@Args() { id, code }: UseRewardCodeArgs, @Caller() staff: Principal, @Ctx() ctx: RewardContext) {
    return ctx.services.codes.use(id, code, staff);
  }

  @FieldResolver(() => String, { description: 'The code as a QR image: an SVG data URL (a few hundred bytes, cheap to draw for a whole page of codes)' })
  async qrCode(@Root() code: RewardCode): Promise<string> {
    const svg = await QRCode.toString(code.code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  }

  @FieldResolver(() => Reward, { nullable: true, description: "The code's reward, deleted or not" })
  async reward(@Root() code: RewardCode, @Args() { locale }: LocaleArgs, @Ctx() ctx: RewardContext): Promise<Reward | null> {
    const reward = await ctx.services.rewardsById.load(code.rewardId);
    return reward && ctx.services.rewards.localize(reward, locale);
  }

  @FieldResolver(() => RewardCatalog, { nullable: true, description: 'The live catalog the code was redeemed through (REST: includeLink)' })
  async rewardCatalog(@Root() code: RewardCode, @Args() { locale }: LocaleArgs, @Ctx() ctx: RewardContext): Promise<RewardCatalog | null> {
    const catalog = await ctx.services.catalogsById.load(code.rewardCatalogId);
    return catalog && ctx.services.catalogs.localize(catalog, locale);
  }

  @FieldResolver(() => MemberReference, { nullable: true, description: 'The owner, resolved by the auth subgraph (REST: includeMember)' })
  member(@Root() code: RewardCode): MemberReference {
    return { id: code.memberId };
  }
}
