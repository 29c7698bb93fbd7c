import { AUTH } from '../contract';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requireKind, requirePermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { PageType } from '../../../core/pagination';
import { AuthDeps } from '../auth-deps';
import { Staff } from '../entities/staff';
import { StaffService } from '../services/staff.service';
import { CreateStaffInput, StaffListArgs, UpdateStaffInput } from '../types/staff.inputs';
import { IdArgs } from '../../../core/graphql/id-args';

const StaffPage = PageType(Staff, 'Staff');

@Resolver(() => Staff)
export class StaffResolver {
  constructor(private readonly deps: AuthDeps) {}

  @Query(() => StaffPage)
  staffs(@Args() args: StaffListArgs, @Ctx() ctx: RequestContext) {
    requirePermission(ctx.principal, AUTH.permissions.staffManage);
    return new StaffService(ctx.em, this.deps).list(args);
  }

  @Query(() => Staff, { description: 'The staff member of the Bearer token' })
  currentStaff(@Ctx() ctx: RequestContext): Promise<Staff> {
    const principal = requireKind(ctx.principal, 'staff');
    return new StaffService(ctx.em, this.deps).get(principal.id);
  }

  @Query(() => Staff)
  staff(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    requirePermission(ctx.principal, AUTH.permissions.staffManage);
    return new StaffService(ctx.em, this.deps).get(id);
  }

  @Mutation(() => Staff)
  createStaff(@Arg('input') input: CreateStaffInput, @Ctx() ctx: RequestContext): Promise<Staff> {
    requirePermission(ctx.principal, AUTH.permissions.staffManage);
    return new StaffService(ctx.em, this.deps).create(input);
  }

  @Mutation(() => Staff)
  updateStaff(@Args() { id }: IdArgs, @Arg('input') input: UpdateStaffInput, @Ctx() ctx: RequestContext): Promise<Staff> {
    requirePermission(ctx.principal, AUTH.permissions.staffManage);
    return new StaffService(ctx.em, this.deps).update(id, input);
  }

  @Mutation(() => Staff, { description: 'Soft-deletes a staff member and ends its sessions' })
  deleteStaff(@Args() { id }: IdArgs, @Ctx() ctx: RequestContext): Promise<Staff> {
    const principal = requirePermission(ctx.principal, AUTH.permissions.staffManage);
    return new StaffService(ctx.em, this.deps).softDelete(id, principal);
  }
}
