import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { PointTransaction } from '../entities/point-transaction';
import { MemberReference } from '../types/member.type';
import { BalanceWindowArgs, DailySummaryArgs, DailySummaryItem, HistoryArgs, IdempotencyArgs, MemberArgs, MemberBalanceArgs, MemberHistoryArgs, PointBalance, PointExpiration, PointMovementInput, SagaKeyArgs } from '../types/point.types';

const PointTransactionPage = PageType(PointTransaction, 'PointTransaction');

@Resolver(() => PointTransaction)
export class PointResolver {
  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointTransaction, { description: 'Credits points to a member' })
  earnPoints(@Arg('input') input: PointMovementInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.points.earn(input, caller, idempotencyKey);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointTransaction, { description: 'Debits points from a member; refused when the balance is smaller' })
  spendPoints(@Arg('input') input: PointMovementInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.points.spend(input, caller, idempotencyKey);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointTransaction, {
    description: "A saga's spend (another domain's, as a redemption's): spendPoints once per key, a refusal being the key's answer for good, so that the step its caller compensated never happens later",
  })
  spendPointsOnce(@Arg('input') input: PointMovementInput, @Args() { idempotencyKey }: SagaKeyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.points.spendOnce(input, caller, idempotencyKey);
  }

  @Authorized(Access.member)
  @Query(() => PointBalance, { description: "The caller's balance, or sums over a window" })
  myPointBalance(@Args() window: BalanceWindowArgs, @Caller() member: Principal, @Ctx() ctx: PointContext): Promise<PointBalance> {
    return ctx.services.points.balanceInWindow(member.id, window);
  }

  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => PointBalance, { description: "A member's balance, or sums over a window" })
  pointBalance(@Args() { memberId, ...window }: MemberBalanceArgs, @Ctx() ctx: PointContext): Promise<PointBalance> {
    return ctx.services.points.balanceInWindow(memberId, window);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => PointTransactionPage)
  pointHistory(@Args() args: HistoryArgs, @Ctx() ctx: PointContext) {
    return ctx.services.points.history(args);
  }

  @Authorized(Access.member)
  @Query(() => PointTransactionPage, { description: "The caller's own ledger" })
  myPointHistory(@Args() args: HistoryArgs, @Caller() member: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.points.history({ ...args, memberIds: [member.id] });
  }

  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => PointTransactionPage, { description: "One member's ledger, newest first (a member reads its own)" })
  memberPointHistory(@Args() { memberId, ...args }: MemberHistoryArgs, @Ctx() ctx: PointContext) {
    return ctx.services.points.history({ ...args, memberIds: [memberId] });
  }

  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => PointExpiration, { nullable: true, description: "A member's next points to expire; null when none will (a member reads its own)" })
  nextPointExpiration(@Args() { memberId }: MemberArgs, @Ctx() ctx: PointContext): Promise<PointExpiration | null> {
    return ctx.services.points.nextExpiration(memberId);
  }

  @Authorized(Access.member, POINT.permissions.read)
  @Query(() => [DailySummaryItem], { description: 'Per day: earned, spent, expired, net change (a member sees its own)' })
  pointDailySummary(@Args() args: DailySummaryArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext): Promise<DailySummaryItem[]> {
    return ctx.services.points.dailySummary(args, caller.kind === 'member' ? caller.id : undefined);
  }

  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() transaction: PointTransaction): MemberReference {
    return { id: transaction.memberId };
  }
}
