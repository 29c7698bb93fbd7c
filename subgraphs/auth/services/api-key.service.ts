import { EntityManager } from '@mikro-orm/postgresql';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../core/auth/jwt';
import { Principal } from '../../../core/auth/principal';
import { hashToken, randomToken } from '../../../core/auth/secrets';
import { notFound, unauthenticated } from '../../../core/errors';
import { offsetOf, Page, PageArgs, pageOf } from '../../../core/pagination';
import { AuthDeps } from '../auth-deps';
import { ServiceApiKey } from '../entities/service-api-key';
import { CreatedApiKey, GenerateApiKeyInput } from '../types/api-key.inputs';
import { ServiceAccessToken } from '../types/session.types';
import { RoleService } from './role.service';

const KEY_PREFIX = 'lpk_';

/** API keys for service callers: shown once, stored as a hash, exchanged for short-lived tokens. */
export class ApiKeyService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  async generate(input: GenerateApiKeyInput, creator: Principal): Promise<CreatedApiKey> {
    const role = await new RoleService(this.em).require(input.roleId);
    const apiKey = `${KEY_PREFIX}${randomToken(32)}`;
    const key = this.em.create(ServiceApiKey, {
      name: input.name,
      role,
      prefix: apiKey.slice(0, KEY_PREFIX.length + 6),
      keyHash: hashToken(apiKey),
      createdById: creator.id,
      expiresAt: input.expiredIn ? new Date(Date.now() + input.expiredIn) : null,
    });
    await this.em.flush();
    return { id: key.id, name: key.name, apiKey, roleId: role.id, expiresAt: key.expiresAt, createdAt: key.createdAt };
  }

  async listCreatedBy(creator: Principal, args: PageArgs): Promise<Page<ServiceApiKey>> {
    const [items, total] = await this.em.findAndCount(
      ServiceApiKey,
      { createdById: creator.id },
      { populate: ['role'], orderBy: { createdAt: 'desc', id: 'asc' }, limit: args.limit, offset: offsetOf(args) },
    );
    return pageOf(items, total, args);
  }

  /** Revokes a key its caller created (an admin may revoke any key). */
  async revoke(id: string, caller: Principal): Promise<void> {
    const key = await this.em.findOne(ServiceApiKey, { id, revokedAt: null });
    if (!key || (key.createdById !== caller.id && !caller.permissions.includes('*'))) throw notFound('API key', id);
    key.revokedAt = new Date();
    await this.em.flush();
  }

  async exchange(apiKey: string): Promise<ServiceAccessToken> {
    const key = await this.em.findOne(ServiceApiKey, { keyHash: hashToken(apiKey) }, { populate: ['role'] });
    if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) throw unauthenticated('Invalid API key');
    const principal = new Principal('service', key.id, key.role.key, key.role.permissions);
    return { accessToken: await this.deps.tokens.sign(principal, ACCESS_TOKEN_TTL_SECONDS), expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }
}
