import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { LocaleArgs } from '../../../core/i18n';
import { AuthContext } from '../context';
import { AUTH } from '../contract';
import { Role } from '../entities/role';

@Resolver(() => Role)
export class RoleResolver {
  @Authorized(AUTH.permissions.roleRead)
  @Query(() => [Role])
  roles(@Args() { locale }: LocaleArgs, @Ctx() ctx: AuthContext) {
    return ctx.services.roles.list(locale);
  }
}
