import { POINT } from '../contract';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requirePermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { PageType } from '../../../core/pagination';
import { PointRequestActionType, PointRequestTicket } from '../entities/point-request-ticket';
import { PointDeps } from '../point-deps';
import { RequestTicketService } from '../services/request-ticket.service';
import { IdempotencyArgs } from '../types/point.types';
import { PointRequestInput, PointRequestListArgs, PointRequestReviewInput } from '../types/request-ticket.types';
import { IdArgs } from '../../../core/graphql/id-args';

const PointRequestTicketPage = PageType(PointRequestTicket, 'PointRequestTicket');

@Resolver(() => PointRequestTicket)
export class RequestTicketResolver {
  constructor(private readonly deps: PointDeps) {}

  @Mutation(() => PointRequestTicket, { description: 'Opens a pending ticket asking to credit points to a member' })
  requestEarnPoints(@Arg('input') input: PointRequestInput, @Args() { idempotencyKey }: IdempotencyArgs, @Ctx() ctx: RequestContext): Promise<PointRequestTicket> {
    const caller = requirePermission(ctx.principal, POINT.permissions.request);
    return this.tickets(ctx).open(PointRequestActionType.EARN, input, caller, idempotencyKey);
  }

  @Mutation(() => PointRequestTicket, { description: 'Opens a pending ticket asking to debit points from a member' })
  requestSpendPoints(@Arg('input') input: PointRequestInput, @Args() { idempotencyKey }: IdempotencyArgs, @Ctx() ctx: RequestContext): Promise<PointRequestTicket> {
    const caller = requirePermission(ctx.principal, POINT.permissions.request);
    return this.tickets(ctx).open(PointRequestActionType.SPEND, input, caller, idempotencyKey);
  }

  @Mutation(() => PointRequestTicket, { description: 'Approves (writing the ledger entry) or rejects a pending ticket' })
  reviewPointRequest(@Args() { id }: IdArgs, @Arg('input') input: PointRequestReviewInput, @Ctx() ctx: RequestContext): Promise<PointRequestTicket> {
    const caller = requirePermission(ctx.principal, POINT.permissions.review);
    return this.tickets(ctx).review(id, input, caller);
  }

  @Query(() => PointRequestTicketPage, { description: 'Point request tickets, newest first' })
  pointRequestTickets(@Args() args: PointRequestListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, POINT.permissions.read);
    return this.tickets(ctx).list(args);
  }

  @Query(() => PointRequestTicket)
  pointRequestTicket(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<PointRequestTicket> {
    requirePermission(ctx.principal, POINT.permissions.read);
    return this.tickets(ctx).get(id);
  }

  private tickets(ctx: RequestContext): RequestTicketService {
    return new RequestTicketService(ctx.em, this.deps.ledger);
  }
}
