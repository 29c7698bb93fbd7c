import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Public } from '../../../core/auth/access';
import { OncePerRequest } from '../../../core/graphql/once-per-request';
import { AuthContext } from '../context';
import { RequestPasswordResetByEmailInput, RequestPasswordResetInput, ResetPasswordInput, ResetSessionArgs, ResetSessionCheck } from '../types/password-reset.inputs';
import { TokenPair } from '../types/session.types';
import { StaffLoginInput } from '../types/staff.inputs';

/** What staff do without a token: log in and reset a password. */
@Resolver()
export class StaffAccountResolver {
  @Public()
  @OncePerRequest()
  @Mutation(() => TokenPair)
  staffLogin(@Arg('input') input: StaffLoginInput, @Ctx() ctx: AuthContext) {
    return ctx.services.staff.login(input.email, input.password);
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => Boolean, { description: 'Sends a reset code to the staff member by e-mail or SMS' })
  async requestStaffPasswordReset(@Arg('input') input: RequestPasswordResetInput, @Ctx() ctx: AuthContext): Promise<boolean> {
    await ctx.services.passwordResets.requestForStaff(input.staffId, input.type);
    return true;
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => Boolean, { description: 'Sends a reset code to the address when it belongs to a staff member' })
  async requestStaffPasswordResetByEmail(@Arg('input') input: RequestPasswordResetByEmailInput, @Ctx() ctx: AuthContext): Promise<boolean> {
    await ctx.services.passwordResets.requestByEmail(input.email, input.locale);
    return true;
  }

  @Public()
  @OncePerRequest()
  @Mutation(() => Boolean)
  async resetStaffPassword(@Args() { sessionId }: ResetSessionArgs, @Arg('input') input: ResetPasswordInput, @Ctx() ctx: AuthContext): Promise<boolean> {
    await ctx.services.passwordResets.reset(sessionId, input.code, input.newPassword);
    return true;
  }

  @Public()
  @Query(() => ResetSessionCheck)
  async staffResetSession(@Args() { sessionId }: ResetSessionArgs, @Ctx() ctx: AuthContext): Promise<ResetSessionCheck> {
    return { isValid: await ctx.services.passwordResets.isValid(sessionId) };
  }
}
