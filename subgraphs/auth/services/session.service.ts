import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Principal } from '../../../core/auth/principal';
import { databaseNowMs, recordRevocation, revocationSubject } from '../../../core/auth/revocations';
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

  /**
   * Opens a session for the principal, as its subject stands now: read and the access token signed
   * under the subject row's share lock, so a deletion, deactivation or role change (which updates the
   * row, then records its revocation) comes wholly before (401) or after (the token is revoked).
   */
  async issue(principal: Principal): Promise<TokenPair> {
    return this.em.transactional(async (em) => {
      const current = await this.principalOf({ subjectKind: principal.kind as SessionSubject, subjectId: principal.id }, em, true);
      if (!current) throw unauthenticated('Account is not active');
      const refreshToken = this.createRefreshToken(em, current, randomUUID());
      await em.flush();
      return { accessToken: await this.sign(em, current), refreshToken };
    });
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
      const principal = await this.principalOf(stored, em, true);
      if (!principal) {
        await revokeFamily(em, stored.familyId);
        return { refused: 'Account is not active' };
      }
      stored.usedAt = new Date();
      return { accessToken: await this.sign(em, principal), refreshToken: this.createRefreshToken(em, principal, stored.familyId) };
    });
    // Thrown after the commit, so that a revocation stands.
    if ('refused' in outcome) throw unauthenticated(outcome.refused);
    return outcome;
  }

  /**
   * Ends every session of a subject and revokes its access tokens in every process (after a password
   * change, a deletion or a deactivation). In the transaction that changed the subject, after that
   * change was flushed: its row lock orders the revocation after any token being signed.
   */
  async revokeAllOf(subjectKind: SessionSubject, subjectId: string): Promise<void> {
    await this.em.nativeUpdate(RefreshToken, { subjectKind, subjectId, revokedAt: null }, { revokedAt: new Date() });
    await recordRevocation(this.em, revocationSubject.principal(subjectId));
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

  /** The subject as it stands now; with `lock`, its row share-locked until the transaction (`em`) ends. */
  private async principalOf(token: Pick<RefreshToken, 'subjectKind' | 'subjectId'>, em = this.em, lock = false): Promise<Principal | undefined> {
    const options = { refresh: true, ...(lock ? { lockMode: LockMode.PESSIMISTIC_READ } : {}) } as const;
    if (token.subjectKind === 'staff') {
      const staff = await em.findOne(Staff, { id: token.subjectId }, options);
      if (staff?.status !== StaffStatus.ACTIVE) return undefined;
      await em.populate(staff, ['role']);
      return staffPrincipal(staff);
    }
    const member = await em.findOne(Member, { id: token.subjectId }, options);
    return member && member.status !== MemberStatus.INACTIVE ? memberPrincipal(member) : undefined;
  }

  /** An access token issued now by the database's clock (what revocations are compared with). */
  private async sign(em: EntityManager, principal: Principal): Promise<string> {
    return this.deps.tokens.sign(principal, { issuedAtMs: await databaseNowMs(em) });
  }
}

/** Revokes every token of a session family, those issued from the presented one included. */
async function revokeFamily(em: EntityManager, familyId: string): Promise<void> {
  await em.nativeUpdate(RefreshToken, { familyId, revokedAt: null }, { revokedAt: new Date() });
}
