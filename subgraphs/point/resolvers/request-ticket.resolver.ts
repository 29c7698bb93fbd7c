import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { PointRequestActionType, PointRequestTicket } from '../entities/point-request-ticket';
import { IdempotencyArgs } from '../types/point.types';
import { PointRequestInput, PointRequestListArgs, PointRequestReviewInput } from '../types/request-ticket.types';

const PointRequestTicketPage = PageType(PointRequestTicket, 'PointRequestTicket');

@Resolver(() => PointRequestTicket)
export class RequestTicketResolver {
  @Authorized(POINT.permissions.request)
  @Mutation(() => PointRequestTicket, { description: 'Opens a pending ticket asking to credit points to a member' })
  requestEarnPoints(@Arg('input') input: PointRequestInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.tickets.open(PointRequestActionType.EARN, input, caller, idempotencyKey);
  }

  @Authorized(POINT.permissions.request)
  @Mutation(() => PointRequestTicket, { description: 'Opens a pending ticket asking to debit points from a member' })
  requestSpendPoints(@Arg('input') input: PointRequestInput, @Args() { idempotencyKey }: IdempotencyArgs, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.tickets.open(PointRequestActionType.SPEND, input, caller, idempotencyKey);
  }

  @Authorized(POINT.permissions.review)
  @Mutation(() => PointRequestTicket, { description: 'Approves (writing the ledger entry) or rejects a pending ticket' })
  reviewPointRequest(@Args() { id }: IdArgs, @Arg('input') input: PointRequestReviewInput, @Caller() caller: Principal, @Ctx() ctx: PointContext) {
    return ctx.services.tickets.review(id, input, caller);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => PointRequestTicketPage, { description: 'Point request tickets, newest first' })
  pointRequestTickets(@Args() args: PointRequestListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.tickets.list(args);
  }

  @Authorized(POINT.permissions.read)
  @Query(() => PointRequestTicket)
  pointRequestTicket(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.tickets.get(id);
  }
}
