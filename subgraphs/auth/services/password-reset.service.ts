import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { hashToken, numericCode } from '../../../core/auth/secrets';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { badRequest, notFound, RateLimitedError } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { AuthDeps } from '../auth-deps';
import { PasswordResetSession, ResetChannel } from '../entities/password-reset-session';
import { Staff, StaffStatus } from '../entities/staff';
import { AUTH_MAIL_EVENTS } from './mail-templates-supergraph';
import { SessionService } from './session.service';

const RESET_TTL_MS = 15 * 60 * 1000;
const INVITATION_TTL_MS = 72 * 3600 * 1000;
const MAX_FAILED_ATTEMPTS = 5;
/** Anonymous requests send a staff member at most one code a minute and five an hour. */
const THROTTLE = { minGapMs: 60 * 1000, perWindow: 5, windowMs: 3600 * 1000 };

type ResetText = (code: string, sessionId: string, validFor: number) => { subject: string; text: string };

/** `validFor` is in minutes; mails name it in hours from an hour on. */
const duration = (minutes: number, units: [string, string]) =>
  minutes >= 60 ? `${Math.round(minutes / 60)} ${units[1]}` : `${minutes} ${units[0]}`;

const VALIDITY_UNITS: Record<Locale, [string, string]> = { en: ['minutes', 'hours'], th: ['นาที', 'ชั่วโมง'], cn: ['分钟', '小时'] };

const RESET_TEXT: Record<Locale, ResetText> = {
  en: (code, sessionId, validFor) => ({
    subject: 'Your password reset code',
    text: `Your password reset code is ${code}. It expires in ${duration(validFor, ['minutes', 'hours'])}.\nReset session: ${sessionId}`,
  }),
  th: (code, sessionId, validFor) => ({
    subject: 'รหัสสำหรับตั้งรหัสผ่านใหม่',
    text: `รหัสสำหรับตั้งรหัสผ่านใหม่ของคุณคือ ${code} หมดอายุใน ${duration(validFor, ['นาที', 'ชั่วโมง'])}\nReset session: ${sessionId}`,
  }),
  cn: (code, sessionId, validFor) => ({
    subject: '您的密码重置验证码',
    text: `您的密码重置验证码是 ${code}，${duration(validFor, ['分钟', '小时'])}内有效。\nReset session: ${sessionId}`,
  }),
};

/** Reset codes: sent by e-mail or SMS, single-use, expiring, locked after repeated wrong codes. */
export class PasswordResetService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /**
   * Admin-initiated reset of a given staff member, by e-mail or SMS. It needs no token (spec Part 1),
   * so it is throttled per staff member (429 with Retry-After) and adds a session without closing
   * the open ones: a caller who knows a staff id can neither end an invitation or a reset in
   * progress nor flood the staff member with codes.
   */
  async requestForStaff(staffId: string, channel: ResetChannel): Promise<void> {
    const staff = await this.em.findOne(Staff, { id: staffId });
    if (!staff) throw notFound('Staff', staffId);
    if (channel === ResetChannel.SMS && !staff.phoneNumber) throw badRequest('The staff member has no phone number', 'type');
    const retryAfterMs = await this.openThrottled(staff, channel, staff.locale);
    if (retryAfterMs !== undefined) {
      throw new RateLimitedError('Too many reset codes requested for this staff member; try again later', Math.ceil(retryAfterMs / 1000));
    }
  }

  /**
   * Self-service reset by e-mail, under the same throttle. Answers the same whether or not the address
   * is known, so a throttled request is dropped silently: a 429 would tell which addresses exist.
   */
  async requestByEmail(email: string, locale?: Locale | null): Promise<void> {
    const staff = await this.em.findOne(Staff, { email: email.toLowerCase() });
    // GraphQL passes an explicit null, which a default parameter would not replace.
    if (staff) await this.openThrottled(staff, ResetChannel.EMAIL, locale ?? Locale.en);
  }

  /** A new staff member sets a first password through the same mechanism (an admin created them: no throttle). */
  async sendInvitation(staff: Staff): Promise<void> {
    const session = this.createSession(this.em, staff, ResetChannel.EMAIL, INVITATION_TTL_MS);
    await this.em.flush();
    await this.send(staff, session, staff.locale, AUTH_MAIL_EVENTS.invitation);
  }

  async isValid(sessionId: string): Promise<boolean> {
    const session = await this.em.findOne(PasswordResetSession, { id: sessionId });
    return Boolean(session && usable(session));
  }

  async reset(sessionId: string, code: string, newPassword: string): Promise<void> {
    const outcome = await this.em.transactional(async (em) => {
      const session = await em.findOne(PasswordResetSession, { id: sessionId }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['staff'] });
      if (!session || !usable(session)) return 'invalid-session' as const;
      if (hashToken(code) !== session.codeHash) {
        session.failedAttempts += 1;
        return 'wrong-code' as const;
      }
      session.usedAt = new Date();
      session.staff.passwordHash = await this.deps.passwords.hash(newPassword);
      if (session.staff.status === StaffStatus.WAIT_FOR_FIRST_ACTIVE) session.staff.status = StaffStatus.ACTIVE;
      return session.staff.id;
    });
    if (outcome === 'invalid-session') throw badRequest('Invalid or expired reset session', 'sessionId');
    if (outcome === 'wrong-code') throw badRequest('Invalid reset code', 'code');
    await this.closeOpenSessions(outcome);
    await new SessionService(this.em, this.deps).revokeAllOf('staff', outcome);
  }

  private async closeOpenSessions(staffId: string): Promise<void> {
    await this.em.nativeUpdate(PasswordResetSession, { staff: staffId, usedAt: null }, { usedAt: new Date() });
  }

  /**
   * Opens a reset session and sends its code, unless the staff member had a code less than a minute
   * ago or five within the hour (invitations included): then nothing is sent and the answer is how
   * long to wait, in milliseconds. Earlier open sessions stay open. The staff row's lock makes
   * concurrent requests for one staff member count one after the other.
   */
  private async openThrottled(staff: Staff, channel: ResetChannel, locale: Locale): Promise<number | undefined> {
    const opened = await this.em.transactional(async (em) => {
      await em.findOneOrFail(Staff, { id: staff.id }, { ...INCLUDING_DELETED, lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = Date.now();
      const recent = await em.find(
        PasswordResetSession,
        { staff: staff.id, createdAt: { $gt: new Date(now - THROTTLE.windowMs) } },
        { orderBy: { createdAt: 'desc' }, limit: THROTTLE.perWindow },
      );
      const sinceLast = recent.length > 0 ? now - recent[0].createdAt.getTime() : Infinity;
      if (sinceLast < THROTTLE.minGapMs) return { retryAfterMs: THROTTLE.minGapMs - sinceLast };
      if (recent.length >= THROTTLE.perWindow) {
        const oldestCounted = recent[THROTTLE.perWindow - 1].createdAt.getTime();
        return { retryAfterMs: oldestCounted + THROTTLE.windowMs - now };
      }
      return { session: this.createSession(em, staff, channel, RESET_TTL_MS) };
    });
    if ('retryAfterMs' in opened) return opened.retryAfterMs;
    await this.send(staff, opened.session, locale);
    return undefined;
  }

  /** A new session with its code, persisted with the next flush. The code itself is kept only until it is sent. */
  private createSession(em: EntityManager, staff: Staff, channel: ResetChannel, ttlMs: number): OpenedSession {
    const code = numericCode();
    const session = em.create(PasswordResetSession, { staff, channel, codeHash: hashToken(code), expiresAt: new Date(Date.now() + ttlMs) });
    return { id: session.id, channel, code, ttlMs };
  }

  /**
   * Sends the code: an SMS with the built-in text; a mail from the notification domain's template of
   * `event` when there is one (variables: code, sessionId, validForMinutes, validFor, firstname,
   * lastname, email), else the built-in text.
   */
  private async send(staff: Staff, session: OpenedSession, locale: Locale, event: string = AUTH_MAIL_EVENTS.passwordReset): Promise<void> {
    const validForMinutes = session.ttlMs / 60_000;
    const message = RESET_TEXT[locale](session.code, session.id, validForMinutes);
    if (session.channel === ResetChannel.SMS) return this.deps.sms.send(staff.phoneNumber!, message.text);
    const variables = {
      code: session.code,
      sessionId: session.id,
      validForMinutes,
      validFor: duration(validForMinutes, VALIDITY_UNITS[locale]),
      firstname: staff.firstname,
      lastname: staff.lastname,
      email: staff.email,
    };
    const templated = await this.deps.mailTemplates?.render(event, locale, variables);
    await this.deps.mailer.send({ to: staff.email, ...(templated ?? message) });
  }
}

interface OpenedSession {
  id: string;
  channel: ResetChannel;
  code: string;
  ttlMs: number;
}

/** Whether the session can still reset a password (a deleted staff member's sessions are not found: the `live` filter joins `staff`). */
function usable(session: PasswordResetSession): boolean {
  return !session.usedAt && session.expiresAt > new Date() && session.failedAttempts < MAX_FAILED_ATTEMPTS;
}
