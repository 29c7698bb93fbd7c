import { EntityManager } from '@mikro-orm/postgresql';
import { arrayLiteral } from '../../../core/db/array-literal';
import { badRequest } from '../../../core/errors';
import type { DomainContract } from '../../../core/module';
import { Locale, projectLocale } from '../../../core/i18n';
import { Role } from '../entities/role';

export class RoleService {
  constructor(private readonly em: EntityManager) {}

  async list(locale?: Locale): Promise<Role[]> {
    const roles = await this.em.find(Role, {}, { orderBy: { key: 'asc' } });
    return roles.map((role) => projectLocale(role, ['name'], locale));
  }

  /**
   * Gives each seeded role the permissions the domains' contracts grant it by default, keeping the ones
   * it has; a role holding `*` needs none. Runs at every start, so a new domain's permissions reach the
   * roles without a migration of auth.
   */
  async grantDefaults(contracts: readonly DomainContract[]): Promise<void> {
    const byRole = new Map<string, Set<string>>();
    for (const contract of contracts) {
      for (const [role, permissions] of Object.entries(contract.grants)) {
        byRole.set(role, new Set([...(byRole.get(role) ?? []), ...permissions]));
      }
    }
    for (const [role, permissions] of byRole) {
      await this.em.execute(
        `update auth.role set permissions = permissions || array(select unnest(?::text[]) except select unnest(permissions)), updated_at = now()
          where key = ? and not ('*' = any (permissions)) and not (permissions @> ?::text[])`,
        [arrayLiteral([...permissions]), role, arrayLiteral([...permissions])],
      );
    }
  }

  /** The role a request names in `field`; a 400 on that field when there is none. */
  async require(id: string, field = 'roleId'): Promise<Role> {
    const role = await this.em.findOne(Role, { id });
    if (!role) throw badRequest('Role not found', field);
    return role;
  }
}
