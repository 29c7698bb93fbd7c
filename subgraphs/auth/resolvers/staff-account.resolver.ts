import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { RequestContext } from '../../../core/context';
import { AuthDeps } from '../auth-deps';
import { PasswordResetService } from '../services/password-reset.service';
import { StaffService } from '../services/staff.service';
import {
  RequestPasswordResetByEmailInput,
  RequestPasswordResetInput,
  ResetPasswordInput,
  ResetSessionArgs,
  ResetSessionCheck,
} from '../types/password-reset.inputs';
import { TokenPair } from '../types/session.types';
import { StaffLoginInput } from '../types/staff.inputs';
import { OncePerRequest } from '../../../core/graphql/once-per-request';

/** What staff do without a token: log in and reset a password. */
@Resolver()
export class StaffAccountResolver {
  constructor(private readonly deps: AuthDeps) {}

  @Mutation(() => TokenPair)
  @OncePerRequest()
  staffLogin(@Arg('input') input: StaffLoginInput, @Ctx() ctx: RequestContext): Promise<TokenPair> {
    return new StaffService(ctx.em, this.deps).login(input.email, input.password);
  }

  @Mutation(() => Boolean, { description: 'Sends a reset code to the staff member by e-mail or SMS' })
  @OncePerRequest()
  async requestStaffPasswordReset(@Arg('input') input: RequestPasswordResetInput, @Ctx() ctx: RequestContext): Promise<boolean> {
    await new PasswordResetService(ctx.em, this.deps).requestForStaff(input.staffId, input.type);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Sends a reset code to the address when it belongs to a staff member' })
  @OncePerRequest()
  async requestStaffPasswordResetByEmail(
    @Arg('input') input: RequestPasswordResetByEmailInput,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    await new PasswordResetService(ctx.em, this.deps).requestByEmail(input.email, input.locale);
    return true;
  }

  @Mutation(() => Boolean)
  @OncePerRequest()
  async resetStaffPassword(
    @Args() { sessionId }: ResetSessionArgs,
    @Arg('input') input: ResetPasswordInput,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    await new PasswordResetService(ctx.em, this.deps).reset(sessionId, input.code, input.newPassword);
    return true;
  }

  @Query(() => ResetSessionCheck)
  async staffResetSession(@Args() { sessionId }: ResetSessionArgs, @Ctx() ctx: RequestContext): Promise<ResetSessionCheck> {
    return { isValid: await new PasswordResetService(ctx.em, this.deps).isValid(sessionId) };
  }
}
