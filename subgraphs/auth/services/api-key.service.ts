import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../core/auth/jwt';
import { grantsAll, Principal } from '../../../core/auth/principal';
import { databaseNowMs, recordRevocation, revocationSubject } from '../../../core/auth/revocations';
import { DEFAULT_KEY_SCOPES, narrowPermissions, narrowToRole } from '../../../core/auth/scopes';
import { hashToken, randomToken } from '../../../core/auth/secrets';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { forbidden, notFound, unauthenticated } from '../../../core/errors';
import { offsetOf, Page, PageArgs, pageOf } from '../../../core/pagination';
import { AuthDeps } from '../auth-deps';
import { ServiceApiKey } from '../entities/service-api-key';
import { Staff } from '../entities/staff';
import { ApiKeyListArgs, CreatedApiKey, GenerateApiKeyInput } from '../types/api-key.inputs';
import { ServiceAccessToken } from '../types/session.types';
import { RoleService } from './role.service';

const KEY_PREFIX = 'lpk_';
/** `lastUsedAt` is written at most once a minute per key, so that busy services do not write on every exchange. */
const LAST_USE_PRECISION_MS = 60 * 1000;

/** API keys for service callers: shown once, stored as a hash, exchanged for short-lived tokens. */
export class ApiKeyService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /**
   * Only staff members create keys, and a key's role can be no stronger than its creator's current
   * role (read from the database, not from the possibly older token): 403 otherwise.
   */
  async generate(input: GenerateApiKeyInput, creator: Principal): Promise<CreatedApiKey> {
    const staff = creator.kind === 'staff' ? await this.em.findOne(Staff, { id: creator.id }, { populate: ['role'] }) : null;
    if (!staff) throw forbidden('Only staff members can create API keys');
    const role = await new RoleService(this.em).require(input.roleId);
    if (!grantsAll(staff.role.permissions, role.permissions)) throw forbidden('The key role grants permissions your own role does not have');
    const apiKey = `${KEY_PREFIX}${randomToken(32)}`;
    const key = this.em.create(ServiceApiKey, {
      name: input.name,
      role,
      prefix: apiKey.slice(0, KEY_PREFIX.length + 6),
      keyHash: hashToken(apiKey),
      createdById: staff.id,
      expiresAt: input.expiredIn ? new Date(Date.now() + input.expiredIn) : null,
      scopes: input.scopes ? [...new Set(input.scopes)] : DEFAULT_KEY_SCOPES,
      rateLimitPerHour: input.rateLimitPerHour ?? null,
    });
    await this.em.flush();
    return { id: key.id, name: key.name, apiKey, roleId: role.id, scopes: key.scopes, rateLimitPerHour: key.rateLimitPerHour, expiresAt: key.expiresAt, createdAt: key.createdAt };
  }

  listCreatedBy(creator: Principal, args: PageArgs): Promise<Page<ServiceApiKey>> {
    return this.list({ createdById: creator.id }, args);
  }

  /** Every key (for admins), revoked ones included, newest first; `createdById` narrows to one creator. */
  listAll(args: ApiKeyListArgs): Promise<Page<ServiceApiKey>> {
    return this.list(args.createdById ? { createdById: args.createdById } : {}, args);
  }

  /** Revokes a key its caller created (an admin may revoke any key); its tokens stop working in every process. */
  async revoke(id: string, caller: Principal): Promise<void> {
    await this.em.transactional(async (em) => {
      const key = await em.findOne(ServiceApiKey, { id, revokedAt: null });
      if (!key || (key.createdById !== caller.id && !caller.permissions.includes('*'))) throw notFound('API key', id);
      key.revokedAt = new Date();
      await em.flush();
      await recordRevocation(em, revocationSubject.principal(key.id));
    });
  }

  /**
   * The access token a live key stands for: its role's permissions narrowed to the key's scopes (those
   * its role allows), so that a `read` key's token reads only, wherever it is presented. Signed while
   * the key's row is share-locked: a revocation (which updates the row) comes wholly before or after.
   */
  async exchange(apiKey: string): Promise<ServiceAccessToken> {
    return this.em.transactional(async (em) => {
      const key = await em.findOne(ServiceApiKey, { keyHash: hashToken(apiKey) }, { lockMode: LockMode.PESSIMISTIC_READ });
      if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) throw unauthenticated('Invalid API key');
      await em.populate(key, ['role']);
      const now = new Date();
      await em.nativeUpdate(
        ServiceApiKey,
        { id: key.id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(now.getTime() - LAST_USE_PRECISION_MS) } }] },
        { lastUsedAt: now },
      );
      const permissions = narrowPermissions(key.role.permissions, narrowToRole(key.role.key, key.scopes), this.deps.permissionScopes);
      const principal = new Principal('service', key.id, key.role.key, permissions, key.scopes, key.rateLimitPerHour ?? undefined);
      const accessToken = await this.deps.tokens.sign(principal, { ttlSeconds: ACCESS_TOKEN_TTL_SECONDS, issuedAtMs: await databaseNowMs(em) });
      return { accessToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
    });
  }

  private async list(where: { createdById?: string }, args: PageArgs): Promise<Page<ServiceApiKey>> {
    const [items, total] = await this.em.findAndCount(ServiceApiKey, where, {
      populate: ['role'],
      orderBy: { createdAt: 'desc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    const creators = await this.em.find(Staff, { id: { $in: [...new Set(items.map((key) => key.createdById))] } }, INCLUDING_DELETED);
    const byId = new Map(creators.map((staff) => [staff.id, staff]));
    for (const key of items) key.createdBy = byId.get(key.createdById) ?? null;
    return pageOf(items, total, args);
  }
}

/**
 * Revokes, within the caller's transaction, the live keys a staff member created: all of them on
 * deletion, or, given the creator's new permissions, those whose role is now stronger.
 */
export async function revokeKeysOf(em: EntityManager, staffId: string, newRolePermissions?: string[]): Promise<void> {
  const live = await em.find(ServiceApiKey, { createdById: staffId, revokedAt: null }, { populate: ['role'] });
  const revoked = live.filter((key) => !newRolePermissions || !grantsAll(newRolePermissions, key.role.permissions));
  const now = new Date();
  for (const key of revoked) key.revokedAt = now;
  await em.flush();
  for (const key of revoked) await recordRevocation(em, revocationSubject.principal(key.id));
}
