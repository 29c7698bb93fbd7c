import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { hashToken, numericCode } from '../../../core/auth/secrets';
import { badRequest, notFound } from '../../../core/errors';
import { Locale } from '../../../core/i18n';
import { AuthDeps } from '../auth-deps';
import { PasswordResetSession, ResetChannel } from '../entities/password-reset-session';
import { Staff, StaffStatus } from '../entities/staff';
import { SessionService } from './session.service';

const RESET_TTL_MS = 15 * 60 * 1000;
const INVITATION_TTL_MS = 72 * 3600 * 1000;
const MAX_FAILED_ATTEMPTS = 5;

type ResetText = (code: string, sessionId: string, validFor: number) => { subject: string; text: string };

/** `validFor` is in minutes; mails name it in hours from an hour on. */
const duration = (minutes: number, units: [string, string]) =>
  minutes >= 60 ? `${Math.round(minutes / 60)} ${units[1]}` : `${minutes} ${units[0]}`;

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

  /** Admin-initiated reset of a given staff member, by e-mail or SMS. */
  async requestForStaff(staffId: string, channel: ResetChannel): Promise<void> {
    const staff = await this.em.findOne(Staff, { id: staffId, deletedAt: null });
    if (!staff) throw notFound('Staff', staffId);
    if (channel === ResetChannel.SMS && !staff.phoneNumber) throw badRequest('The staff member has no phone number', 'type');
    await this.open(staff, channel, RESET_TTL_MS, staff.locale);
  }

  /** Self-service reset by e-mail. Answers the same whether or not the address is known. */
  async requestByEmail(email: string, locale: Locale = Locale.en): Promise<void> {
    const staff = await this.em.findOne(Staff, { email: email.toLowerCase(), deletedAt: null });
    if (staff) await this.open(staff, ResetChannel.EMAIL, RESET_TTL_MS, locale);
  }

  /** A new staff member sets a first password through the same mechanism. */
  async sendInvitation(staff: Staff): Promise<void> {
    await this.open(staff, ResetChannel.EMAIL, INVITATION_TTL_MS, staff.locale);
  }

  async isValid(sessionId: string): Promise<boolean> {
    const session = await this.em.findOne(PasswordResetSession, { id: sessionId }, { populate: ['staff'] });
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

  /** Opens a new session for the staff member; any earlier open one stops working. */
  private async open(staff: Staff, channel: ResetChannel, ttlMs: number, locale: Locale): Promise<void> {
    await this.closeOpenSessions(staff.id);
    const code = numericCode();
    const session = this.em.create(PasswordResetSession, {
      staff,
      channel,
      codeHash: hashToken(code),
      expiresAt: new Date(Date.now() + ttlMs),
    });
    await this.em.flush();
    const message = RESET_TEXT[locale](code, session.id, ttlMs / 60_000);
    if (channel === ResetChannel.SMS) await this.deps.sms.send(staff.phoneNumber!, message.text);
    else await this.deps.mailer.send({ to: staff.email, ...message });
  }
}

/** Whether the session can still reset a password; its staff must be loaded. */
function usable(session: PasswordResetSession): boolean {
  return (
    !session.usedAt && session.expiresAt > new Date() && session.failedAttempts < MAX_FAILED_ATTEMPTS && !session.staff.deletedAt
  );
}
