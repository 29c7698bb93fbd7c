import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access } from '../../../core/auth/access';
import { IdArgs } from '../../../core/graphql/id-args';
import { PageType } from '../../../core/pagination';
import { PointContext } from '../context';
import { POINT } from '../contract';
import { PendingPoints } from '../entities/pending-points';
import { PendingPointsListArgs } from '../types/pending-points.types';

const PendingPointsPage = PageType(PendingPoints, 'PendingPoints');

/** Held points: point:read reads them (a member its own); point:manage activates or cancels one early. */
@Resolver(() => PendingPoints)
export class PendingPointsResolver {
  @Authorized(Access.selfBy('memberId'), POINT.permissions.read)
  @Query(() => PendingPointsPage, { description: "A member's held points, newest first (a member reads its own)" })
  memberPendingPoints(@Args() args: PendingPointsListArgs, @Ctx() ctx: PointContext) {
    return ctx.services.pendingPoints.ofMember(args);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PendingPoints, { description: 'Activates held points now; 409 unless they are pending' })
  activatePendingPoints(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.pendingPoints.activate(id);
  }

  @Authorized(POINT.permissions.manage)
  @Mutation(() => PendingPoints, { description: 'Cancels held points; 409 unless they are pending' })
  cancelPendingPoints(@Args() { id }: IdArgs, @Ctx() ctx: PointContext) {
    return ctx.services.pendingPoints.cancel(id);
  }
}
