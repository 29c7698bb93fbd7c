import { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../../core/errors';
import { Locale, projectLocale } from '../../../core/i18n';
import { Role } from '../entities/role';

export class RoleService {
  constructor(private readonly em: EntityManager) {}

  async list(locale?: Locale): Promise<Role[]> {
    const roles = await this.em.find(Role, {}, { orderBy: { key: 'asc' } });
    return roles.map((role) => projectLocale(role, ['name'], locale));
  }

  /** The role a request names in `field`; a 400 on that field when there is none. */
  async require(id: string, field = 'roleId'): Promise<Role> {
    const role = await this.em.findOne(Role, { id });
    if (!role) throw badRequest('Role not found', field);
    return role;
  }
}
