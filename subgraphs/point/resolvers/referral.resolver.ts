import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access } from '../../../core/auth/access';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { Referral } from '../entities/referral';
import { ReferralSettings } from '../entities/referral-settings';
import { MemberArgs } from '../types/point.types';
import { MemberReferral, ReferralListArgs, ReferralSettingsInput } from '../types/referral.types';

const ReferralPage = PageType(Referral, 'Referral');

/** Referrals: point:read reads codes (a member its own), referrals and the settings; an admin (point:rules-manage) changes the settings. */
@Resolver(() => Referral)
export class ReferralResolver {
  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => MemberReferral, { description: "A member's referral code (made at its first read), who referred it and its referrals by status" })
  memberReferral(@Args() { memberId }: MemberArgs, @Ctx() ctx: PointContext) {
    return ctx.services.referrals.ofMember(memberId, ctx.requestId);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => ReferralPage, { description: 'Sign-ups with a referral code (refused ones with the reason), newest first' })
  referrals(@Args() args: ReferralListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.referrals.list(args);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => ReferralSettings)
  referralSettings(@Ctx() ctx: PointContext) {
    return ctx.services.referrals.settings();
  }

  @Authorized(POINT.permissions.rulesManage)
  @Mutation(() => ReferralSettings, { description: 'Changes the referral settings (fields left out stay, null clears a limit)' })
  updateReferralSettings(@Arg('input') input: ReferralSettingsInput, @Ctx() ctx: PointContext) {
    return ctx.services.referrals.updateSettings(input);
  }
}
