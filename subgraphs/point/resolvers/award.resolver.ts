import { Arg, Args, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { PointTransaction } from '../entities/point-transaction';
import { PointAwardInput, PointBatchAwardInput, PointBatchAwardOutcome } from '../types/award.types';
import { IdempotencyArgs } from '../types/point.types';

/** Awards of whole points to known members (the v1 surface's award and batch award). */
@Resolver()
export class AwardResolver {
  @Authorized(POINT.permissions.manage)
  @Mutation(() => PointTransaction, { description: "Awards whole points to a member (404 for an unknown member); a repeat of the award's transactionId for the member by the same caller returns the first entry" })
  awardPoints(@Arg('input') input: PointAwardInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.awards.award(input, caller, idempotencyKey, ctx.requestId);
  }

  @Authorized(POINT.permissions.batchAward)
  @Mutation(() => PointBatchAwardOutcome, { description: 'Awards points to many members, each row on its own: an unknown member fails its row only' })
  awardPointsBatch(@Arg('input') input: PointBatchAwardInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.awards.awardBatch(input, caller, idempotencyKey, ctx.requestId, ctx.logger);
  }
}
