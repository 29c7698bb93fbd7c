import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Principal } from '../../../core/auth/principal';
import { hashToken, randomToken } from '../../../core/auth/secrets';
import { unauthenticated } from '../../../core/errors';
import { AuthDeps } from '../auth-deps';
import { Member, MemberStatus } from '../entities/member';
import { RefreshToken, SessionSubject } from '../entities/refresh-token';
import { ServiceApiKey } from '../entities/service-api-key';
import { Staff, StaffStatus } from '../entities/staff';
import { TokenPair } from '../types/session.types';

const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

export const memberPrincipal = (member: Member) => new Principal('member', member.id, 'customer', []);
export const staffPrincipal = (staff: Staff) => new Principal('staff', staff.id, staff.role.key, staff.role.permissions);

/** Login sessions: an access token plus a single-use, rotating refresh token. */
export class SessionService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /** Opens a session (or continues `familyId`) for the principal. */
  async issue(principal: Principal, familyId: string = randomUUID()): Promise<TokenPair> {
    const refreshToken = randomToken();
    this.em.create(RefreshToken, {
      familyId,
      tokenHash: hashToken(refreshToken),
      subjectKind: principal.kind as SessionSubject,
      subjectId: principal.id,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
    });
    await this.em.flush();
    return { accessToken: await this.deps.tokens.sign(principal), refreshToken };
  }

  /**
   * Exchanges a refresh token for a new pair. The token is used up; presenting a used token again
   * means it leaked, so the whole session family is revoked.
   */
  async refresh(refreshToken: string | undefined): Promise<TokenPair> {
    if (!refreshToken) throw unauthenticated('Refresh token not found');
    const stored = await this.em.findOne(RefreshToken, { tokenHash: hashToken(refreshToken) });
    if (!stored || stored.revokedAt || stored.expiresAt <= new Date()) throw unauthenticated('Invalid refresh token');
    const claimed = await this.em.nativeUpdate(RefreshToken, { id: stored.id, usedAt: null }, { usedAt: new Date() });
    if (claimed === 0) {
      await this.revokeFamily(stored.familyId);
      throw unauthenticated('Refresh token was already used; the session has been revoked');
    }
    const principal = await this.principalOf(stored);
    if (!principal) {
      await this.revokeFamily(stored.familyId);
      throw unauthenticated('Account is not active');
    }
    return this.issue(principal, stored.familyId);
  }

  /** Ends every session of a subject (after a password change, a deletion or a deactivation). */
  async revokeAllOf(subjectKind: SessionSubject, subjectId: string): Promise<void> {
    await this.em.nativeUpdate(RefreshToken, { subjectKind, subjectId, revokedAt: null }, { revokedAt: new Date() });
  }

  /** Whether the principal of a valid token still stands: not deleted, deactivated or revoked. */
  async isActive(principal: Principal): Promise<boolean> {
    if (principal.kind === 'service') {
      const key = await this.em.findOne(ServiceApiKey, { id: principal.id, revokedAt: null });
      return Boolean(key && (!key.expiresAt || key.expiresAt > new Date()));
    }
    return Boolean(await this.principalOf({ subjectKind: principal.kind, subjectId: principal.id }));
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.em.nativeUpdate(RefreshToken, { familyId, revokedAt: null }, { revokedAt: new Date() });
  }

  private async principalOf(token: Pick<RefreshToken, 'subjectKind' | 'subjectId'>): Promise<Principal | undefined> {
    if (token.subjectKind === 'staff') {
      const staff = await this.em.findOne(Staff, { id: token.subjectId, deletedAt: null }, { populate: ['role'] });
      return staff?.status === StaffStatus.ACTIVE ? staffPrincipal(staff) : undefined;
    }
    const member = await this.em.findOne(Member, { id: token.subjectId, deletedAt: null });
    return member && member.status !== MemberStatus.INACTIVE ? memberPrincipal(member) : undefined;
  }
}
