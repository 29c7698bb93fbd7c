import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { PointShopRule } from '../entities/point-shop-rule';
import { ReceiptVerification } from '../entities/receipt-verification';
import { MemberReference } from '../types/member.type';
import { AutomaticReceiptVerificationInput, ManualReceiptReviewInput, MyReceiptListArgs, MyReceiptSubmissionArgs, ReceiptListArgs, ReceiptSubmissionArgs, ReceiptVerificationStats } from '../types/receipt.types';

const ReceiptVerificationPage = PageType(ReceiptVerification, 'ReceiptVerification');

/**
 * Receipt verification: members send their own receipts, point:manage sends for a member,
 * point:read lists and counts them, point:review decides.
 */
@Resolver(() => ReceiptVerification)
export class ReceiptResolver {
  @Authorized(POINT.permissions.manage)
  @Mutation(() => ReceiptVerification, { description: "Opens a PENDING verification of a member's receipt image" })
  submitReceiptVerification(@Args() { memberId, imageUrl }: ReceiptSubmissionArgs, @Ctx() ctx: PointContext) {
    return ctx.services.receipts.submit(memberId, imageUrl);
  }

  @Authorized(Access.member)
  @Mutation(() => ReceiptVerification, { description: "Opens a PENDING verification of the caller's receipt image" })
  submitMyReceiptVerification(@Args() { imageUrl }: MyReceiptSubmissionArgs, @Caller() member: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.receipts.submit(member.id, imageUrl);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => ReceiptVerificationPage, { description: 'Newest first' })
  receiptVerifications(@Args() args: ReceiptListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.receipts.list(args);
  }

  @Authorized(Access.member)
  @Query(() => ReceiptVerificationPage, { description: "The caller's own verifications, newest first" })
  myReceiptVerifications(@Args() args: MyReceiptListArgs, @Caller() member: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.receipts.list({ ...args, memberId: member.id });
  }

  @Authorized(POINT.permissions.read)
  @Query(() => ReceiptVerificationStats, { description: 'How many verifications are in each status' })
  receiptVerificationStats(@Ctx() ctx: PointContext) {
    return ctx.services.receipts.stats();
  }

  @Authorized(Access.member, POINT.permissions.read)
  @Query(() => ReceiptVerification, { description: 'A member reads its own; staff need point:read' })
  receiptVerification(@Args() { id }: IdArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.receipts.get(id, caller);
  }

  @Authorized(POINT.permissions.review)
  @Mutation(() => ReceiptVerification, {
    description: 'Automatic verification: approved true credits what the extractor reads (400 when it cannot: manual review); false rejects',
  })
  verifyReceiptAutomatically(
    @Args() { id }: IdArgs,
    @Arg('input') input: AutomaticReceiptVerificationInput,
    @Caller() caller: Principal,
    @Ctx() ctx: PointContext,
  ) {
    return ctx.services.receipts.verifyAutomatically(id, input, caller);
  }

  @Authorized(POINT.permissions.review)
  @Mutation(() => ReceiptVerification, {
    description: 'Manual review by the caller: approves (crediting the points once) or rejects; APPROVED is final (409)',
  })
  reviewReceiptVerification(@Args() { id }: IdArgs, @Arg('input') input: ManualReceiptReviewInput, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.receipts.review(id, input, caller);
  }

  @FieldResolver(() => MemberReference, { nullable: true, description: 'The member, resolved by the auth subgraph' })
  member(@Root() verification: ReceiptVerification): MemberReference {
    return { id: verification.memberId };
  }

  @FieldResolver(() => PointShopRule, { nullable: true, description: 'The rule that priced the approval' })
  async pointRule(@Root() verification: ReceiptVerification, @Args() { locale }: LocaleArgs, @Ctx() ctx: PointContext): Promise<PointShopRule | null> {
    if (!verification.pointRuleId) return null;
    const rule = await ctx.services.shopRulesById.load(verification.pointRuleId);
    return rule && ctx.services.shopRules.localize(rule, locale);
  }
}
