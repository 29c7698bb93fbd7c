import { POINT } from '../contract';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireKind, requirePermission, requirePrincipal, requireSelfOrPermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { PageType } from '../../../core/pagination';
import { PointTransaction } from '../entities/point-transaction';
import { PointDeps } from '../point-deps';
import { PointService } from '../services/point.service';
import { MemberReference } from '../types/member.type';
import {
  BalanceWindowArgs,
  DailySummaryArgs,
  DailySummaryItem,
  HistoryArgs,
  IdempotencyArgs,
  MemberBalanceArgs,
  PointBalance,
  PointMovementInput,
} from '../types/point.types';

const PointTransactionPage = PageType(PointTransaction, 'PointTransaction');

@Resolver(() => PointTransaction)
export class PointResolver {
  constructor(private readonly deps: PointDeps) {}

  @Mutation(() => PointTransaction, { description: 'Credits points to a member' })
  earnPoints(@Arg('input') input: PointMovementInput, @Args() { idempotencyKey }: IdempotencyArgs, @Ctx() ctx: RequestContext): Promise<PointTransaction> {
    const caller = requirePermission(ctx.principal, POINT.permissions.manage);
    return this.points(ctx).earn(input, caller, idempotencyKey);
  }

  @Mutation(() => PointTransaction, { description: 'Debits points from a member; refused when the balance is smaller' })
  spendPoints(@Arg('input') input: PointMovementInput, @Args() { idempotencyKey }: IdempotencyArgs, @Ctx() ctx: RequestContext): Promise<PointTransaction> {
    const caller = requirePermission(ctx.principal, POINT.permissions.manage);
    return this.points(ctx).spend(input, caller, idempotencyKey);
  }

  @Query(() => PointBalance, { description: "The caller's balance, or sums over a window" })
  myPointBalance(@Args() window: BalanceWindowArgs, @Ctx() ctx: RequestContext): Promise<PointBalance> {
    return this.points(ctx).balanceInWindow(requireKind(ctx.principal, 'member').id, window);
  }

  @Query(() => PointBalance, { description: "A member's balance, or sums over a window" })
  pointBalance(@Args() { memberId, ...window }: MemberBalanceArgs, @Ctx() ctx: RequestContext): Promise<PointBalance> {
    requireSelfOrPermission(ctx.principal, memberId, POINT.permissions.read);
    return this.points(ctx).balanceInWindow(memberId, window);
  }

  @Query(() => PointTransactionPage)
  pointHistory(@Args() args: HistoryArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, POINT.permissions.read);
    return this.points(ctx).history(args);
  }

  @Query(() => PointTransactionPage, { description: "The caller's own ledger" })
  myPointHistory(@Args() args: HistoryArgs, @Ctx() ctx: RequestContext) {
    const member = requireKind(ctx.principal, 'member');
    return this.points(ctx).history({ ...args, memberIds: [member.id] });
  }

  @Query(() => [DailySummaryItem], { description: 'Per day: earned, spent, expired, net change (a member sees its own)' })
  pointDailySummary(@Args() args: DailySummaryArgs, @Ctx() ctx: RequestContext): Promise<DailySummaryItem[]> {
    const caller = requirePrincipal(ctx.principal);
    if (caller.kind === 'member') return this.points(ctx).dailySummary(args, caller.id);
    requirePermission(caller, POINT.permissions.read);
    return this.points(ctx).dailySummary(args);
  }

  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() transaction: PointTransaction): MemberReference {
    return { id: transaction.memberId };
  }

  private points(ctx: RequestContext): PointService {
    return new PointService(ctx.em, this.deps.ledger);
  }
}
