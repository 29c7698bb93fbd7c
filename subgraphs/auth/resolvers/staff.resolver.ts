import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, Caller } from '../../../core/auth/access';
import { Principal } from '../../../core/auth/principal';
import { IdArgs } from '../../../core/graphql/id-args';
import { PageType } from '../../../core/pagination';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { Staff } from '../entities/staff';
import { CreateStaffInput, StaffListArgs, UpdateStaffInput } from '../types/staff.inputs';

const StaffPage = PageType(Staff, 'Staff');

@Resolver(() => Staff)
export class StaffResolver {
  @Authorized(AUTH.permissions.staffManage)
  @Query(() => StaffPage)
  staffs(@Args() args: StaffListArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.list(args);
  }

  @Authorized(Access.staff)
  @Query(() => Staff, { description: 'The staff member of the Bearer token' })
  currentStaff(@Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.view(caller.id);
  }

  @Authorized(AUTH.permissions.staffManage)
  @Query(() => Staff)
  staff(@Args() { id }: IdArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.view(id);
  }

  @Authorized(AUTH.permissions.staffManage)
  @Mutation(() => Staff)
  createStaff(@Arg('input') input: CreateStaffInput, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.create(input, caller);
  }

  @Authorized(AUTH.permissions.staffManage)
  @Mutation(() => Staff)
  updateStaff(@Args() { id }: IdArgs, @Arg('input') input: UpdateStaffInput, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.update(id, input, caller);
  }

  @Authorized(AUTH.permissions.staffManage)
  @Mutation(() => Staff, { description: 'Soft-deletes a staff member and ends its sessions' })
  deleteStaff(@Args() { id }: IdArgs, @Caller() caller: Principal, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.softDelete(id, caller);
  }
}
