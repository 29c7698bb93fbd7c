import { AUTH } from '../contract';
import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { requirePermission } from '../../../core/auth/principal';
import { RequestContext } from '../../../core/context';
import { LocaleArgs } from '../../../core/i18n';
import { Role } from '../entities/role';
import { RoleService } from '../services/role.service';

@Resolver(() => Role)
export class RoleResolver {
  @Query(() => [Role])
  roles(@Args() { locale }: LocaleArgs, @Ctx() ctx: RequestContext): Promise<Role[]> {
    requirePermission(ctx.principal, AUTH.permissions.roleRead);
    return new RoleService(ctx.em).list(locale);
  }
}
