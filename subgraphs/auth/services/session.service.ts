import { EntityManager, LockMode } from '@mikro-orm/postgresql';
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

  /** Opens a session for the principal. */
  async issue(principal: Principal): Promise<TokenPair> {
    const refreshToken = this.createRefreshToken(this.em, principal, randomUUID());
    await this.em.flush();
    return { accessToken: await this.deps.tokens.sign(principal), refreshToken };
  }

  /**
   * Exchanges a refresh token for a new pair. The token is used up; presenting a used token again
   * means it leaked, so the whole session family is revoked, including the tokens issued from it.
   * Claiming the token, detecting reuse, revoking and issuing the next token are one transaction
   * holding the presented token's row lock: of two concurrent refreshes with the same token, the
   * second waits for the first to commit, then sees the token used and revokes the winner's new one.
   */
  async refresh(refreshToken: string | undefined): Promise<TokenPair> {
    if (!refreshToken) throw unauthenticated('Refresh token not found');
    const outcome = await this.em.transactional(async (em) => {
      const stored = await em.findOne(RefreshToken, { tokenHash: hashToken(refreshToken) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!stored || stored.revokedAt || stored.expiresAt <= new Date()) return { refused: 'Invalid refresh token' };
      if (stored.usedAt) {
        await revokeFamily(em, stored.familyId);
        return { refused: 'Refresh token was already used; the session has been revoked' };
      }
      const principal = await this.principalOf(stored, em);
      if (!principal) {
        await revokeFamily(em, stored.familyId);
        return { refused: 'Account is not active' };
      }
      stored.usedAt = new Date();
      return { principal, refreshToken: this.createRefreshToken(em, principal, stored.familyId) };
    });
    // Thrown after the commit, so that a revocation stands.
    if ('refused' in outcome) throw unauthenticated(outcome.refused);
    return { accessToken: await this.deps.tokens.sign(outcome.principal), refreshToken: outcome.refreshToken };
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

  /** A new refresh token of the family, persisted with the next flush; returns the token itself. */
  private createRefreshToken(em: EntityManager, principal: Principal, familyId: string): string {
    const refreshToken = randomToken();
    em.create(RefreshToken, {
      familyId,
      tokenHash: hashToken(refreshToken),
      subjectKind: principal.kind as SessionSubject,
      subjectId: principal.id,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
    });
    return refreshToken;
  }

  private async principalOf(token: Pick<RefreshToken, 'subjectKind' | 'subjectId'>, em = this.em): Promise<Principal | undefined> {
    if (token.subjectKind === 'staff') {
      const staff = await em.findOne(Staff, { id: token.subjectId, deletedAt: null }, { populate: ['role'] });
      return staff?.status === StaffStatus.ACTIVE ? staffPrincipal(staff) : undefined;
    }
    const member = await em.findOne(Member, { id: token.subjectId, deletedAt: null });
    return member && member.status !== MemberStatus.INACTIVE ? memberPrincipal(member) : undefined;
  }
}

/** Revokes every token of a session family, those issued from the presented one included. */
async function revokeFamily(em: EntityManager, familyId: string): Promise<void> {
  await em.nativeUpdate(RefreshToken, { familyId, revokedAt: null }, { revokedAt: new Date() });
}
