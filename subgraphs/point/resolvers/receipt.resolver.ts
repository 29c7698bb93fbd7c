import { POINT } from '../contract';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireKind, requirePermission, requirePrincipal } from '../../../core/auth/principal';
import { BatchLoader } from '../../../core/batch-loader';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { PageType } from '../../../core/pagination';
import { PointShopRule } from '../entities/point-shop-rule';
import { ReceiptVerification } from '../entities/receipt-verification';
import { PointDeps } from '../point-deps';
import { ReceiptService } from '../services/receipt.service';
import { localized } from '../services/shop-rule.service';
import { MemberReference } from '../types/member.type';
import { AutomaticReceiptVerificationInput, ManualReceiptReviewInput, MyReceiptListArgs, MyReceiptSubmissionArgs, ReceiptListArgs, ReceiptSubmissionArgs, ReceiptVerificationStats } from '../types/receipt.types';
import { IdArgs } from '../../../core/graphql/id-args';

const ReceiptVerificationPage = PageType(ReceiptVerification, 'ReceiptVerification');

/** One loader per request: a page of verifications costs one query for the rules they used. */
const ruleLoaders = new WeakMap<RequestContext, BatchLoader<string, PointShopRule | null>>();
function ruleLoader(ctx: RequestContext): BatchLoader<string, PointShopRule | null> {
  let loader = ruleLoaders.get(ctx);
  if (!loader) {
    loader = new BatchLoader(async (ids) => new Map((await ctx.em.find(PointShopRule, { id: { $in: ids } })).map((rule) => [rule.id, rule])), null);
    ruleLoaders.set(ctx, loader);
  }
  return loader;
}

/**
 * Receipt verification: members send their own receipts, point:manage sends for a member,
 * point:read lists and counts them, point:review decides.
 */
@Resolver(() => ReceiptVerification)
export class ReceiptResolver {
  constructor(private readonly deps: PointDeps) {}

  @Mutation(() => ReceiptVerification, { description: "Opens a PENDING verification of a member's receipt image" })
  submitReceiptVerification(@Args() { memberId, imageUrl }: ReceiptSubmissionArgs, @Ctx() ctx: RequestContext): Promise<ReceiptVerification> {
    requirePermission(ctx.principal, POINT.permissions.manage);
    return this.receipts(ctx).submit(memberId, imageUrl);
  }

  @Mutation(() => ReceiptVerification, { description: "Opens a PENDING verification of the caller's receipt image" })
  submitMyReceiptVerification(@Args() { imageUrl }: MyReceiptSubmissionArgs, @Ctx() ctx: RequestContext): Promise<ReceiptVerification> {
    const member = requireKind(ctx.principal, 'member');
    return this.receipts(ctx).submit(member.id, imageUrl);
  }

  @Query(() => ReceiptVerificationPage, { description: 'Newest first' })
  receiptVerifications(@Args() args: ReceiptListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, POINT.permissions.read);
    return this.receipts(ctx).list(args);
  }

  @Query(() => ReceiptVerificationPage, { description: "The caller's own verifications, newest first" })
  myReceiptVerifications(@Args() args: MyReceiptListArgs, @Ctx() ctx: RequestContext) {
    const member = requireKind(ctx.principal, 'member');
    return this.receipts(ctx).list({ ...args, memberId: member.id });
  }

  @Query(() => ReceiptVerificationStats, { description: 'How many verifications are in each status' })
  receiptVerificationStats(@Ctx() ctx: RequestContext): Promise<ReceiptVerificationStats> {
    requirePermission(ctx.principal, POINT.permissions.read);
    return this.receipts(ctx).stats();
  }

  @Query(() => ReceiptVerification, { description: 'A member reads its own; staff need point:read' })
  receiptVerification(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<ReceiptVerification> {
    const caller = requirePrincipal(ctx.principal);
    if (caller.kind !== 'member') requirePermission(caller, POINT.permissions.read);
    return this.receipts(ctx).get(id, caller);
  }

  @Mutation(() => ReceiptVerification, {
    description: 'Automatic verification: approved true credits what the extractor reads (400 when it cannot: manual review); false rejects',
  })
  verifyReceiptAutomatically(
    @Args() { id }: IdArgs,
    @Arg('input') input: AutomaticReceiptVerificationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ReceiptVerification> {
    const caller = requirePermission(ctx.principal, POINT.permissions.review);
    return this.receipts(ctx).verifyAutomatically(id, input, caller);
  }

  @Mutation(() => ReceiptVerification, {
    description: 'Manual review by the caller: approves (crediting the points once) or rejects; APPROVED is final (409)',
  })
  reviewReceiptVerification(@Args() { id }: IdArgs, @Arg('input') input: ManualReceiptReviewInput, @Ctx() ctx: RequestContext): Promise<ReceiptVerification> {
    const caller = requirePermission(ctx.principal, POINT.permissions.review);
    return this.receipts(ctx).review(id, input, caller);
  }

  @FieldResolver(() => MemberReference, { nullable: true, description: 'The member, resolved by the auth subgraph' })
  member(@Root() verification: ReceiptVerification): MemberReference {
    return { id: verification.memberId };
  }

  @FieldResolver(() => PointShopRule, { nullable: true, description: 'The rule that priced the approval' })
  async pointRule(@Root() verification: ReceiptVerification, @Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<PointShopRule | null> {
    if (!verification.pointRuleId) return null;
    const rule = await ruleLoader(ctx).load(verification.pointRuleId);
    return rule && localized(rule, locale);
  }

  private receipts(ctx: RequestContext): ReceiptService {
    return new ReceiptService(ctx.em, this.deps.ledger, this.deps.receiptExtractor);
  }
}
