import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { IdArgs } from '../../../core/graphql/id-args';
import { Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { Purchase } from '../entities/purchase';
import { MemberReference } from '../types/member.type';
import { IdempotencyArgs } from '../types/point.types';
import { PurchaseListArgs, RecordPurchaseInput, RefundPurchaseInput } from '../types/purchase.types';

const PurchasePage = PageType(Purchase, 'Purchase');

@Resolver(() => Purchase)
export class PurchaseResolver {
  @Authorized(POINT.permissions.manage)
  @Mutation(() => Purchase, { description: "Records a member's purchase and earns its points by the store's shop rule; a known externalId answers the first" })
  recordPurchase(@Arg('input') input: RecordPurchaseInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext): Promise<Purchase> {
    return ctx.services.purchases.record(input, caller, idempotencyKey, ctx.requestId);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => Purchase, { description: 'Refunds a purchase in part or in whole; its points are taken back in proportion' })
  refundPurchase(
    @Args() { id }: IdArgs,
    @Arg('input', () => RefundPurchaseInput, { nullable: true }) input: RefundPurchaseInput | undefined,
    @Args() { idempotencyKey }: IdempotencyArgs,
    @Caller() caller: Principal,
    @Ctx() ctx: PointContext,
  ): Promise<Purchase> {
    return ctx.services.purchases.refund(id, input ?? {}, caller, idempotencyKey);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => Purchase)
  purchase(@Args() { id }: IdArgs, @Ctx() ctx: PointContext): Promise<Purchase> {
    return ctx.services.purchases.get(id);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => PurchasePage, { description: 'Newest first, by when they happened' })
  purchases(@Args() args: PurchaseListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.purchases.list(args);
  }

  @FieldResolver(() => MemberReference, { description: 'The member, resolved by the auth subgraph' })
  member(@Root() purchase: Purchase): MemberReference {
    return { id: purchase.memberId };
  }
}
