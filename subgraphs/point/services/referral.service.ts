import { EntityManager } from '@mikro-orm/postgresql';
import { randomInt } from 'node:crypto';
import { validationError } from '../../../core/errors';
import { KnownMembers } from '../../../core/known-members';
import { findPage, Page } from '../../../core/pagination';
import { Referral } from '../entities/referral';
import { ReferralSettings } from '../entities/referral-settings';
import { MemberReferral, ReferralListArgs, ReferralSettingsInput } from '../types/referral.types';

/** Referral codes' letters: no 0/O, 1/I/L, so that a code read aloud or typed is not mistaken. */
const CODE_LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

const newCode = (): string => Array.from({ length: CODE_LENGTH }, () => CODE_LETTERS[randomInt(CODE_LETTERS.length)]).join('');

/** The referral program's reads and settings: members' codes, referrals, the one settings row. */
export class ReferralService {
  constructor(
    private readonly em: EntityManager,
    private readonly members: KnownMembers,
  ) {}

  /** A live member's code (made at the first read, never changed), its own sign-up with a code, and its referrals by status. */
  async ofMember(memberId: string, requestId?: string): Promise<MemberReferral> {
    await this.members.assertExists(memberId, requestId);
    const code = await this.codeOf(memberId);
    const referredBy = await this.em.findOne(Referral, { referredId: memberId });
    const counts: Array<{ status: string; count: number }> = await this.em.execute(
      'select status, count(*)::int as count from point.referral where referrer_id = ? group by status',
      [memberId],
    );
    const count = (status: string) => counts.find((row) => row.status === status)?.count ?? 0;
    return { memberId, code, referredBy, pending: count('pending'), completed: count('completed'), refused: count('refused') };
  }

  /** Referrals, newest first, by referrer, referred member or status. */
  async list(args: ReferralListArgs): Promise<Page<Referral>> {
    const where: Record<string, unknown> = {};
    if (args.referrerId) where.referrerId = args.referrerId;
    if (args.referredId) where.referredId = args.referredId;
    if (args.status) where.status = args.status;
    return findPage(this.em, Referral, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(Referral, where));
  }

  settings(): Promise<ReferralSettings> {
    return this.em.findOneOrFail(ReferralSettings, { id: 1 }, { refresh: true });
  }

  /** Changes the given settings (null clears a limit; `enabled` and the least amount cannot be null). */
  async updateSettings(input: ReferralSettingsInput): Promise<ReferralSettings> {
    const nulls = (['enabled', 'minPurchaseAmount'] as const).filter((field) => input[field] === null);
    if (nulls.length > 0) throw validationError(nulls.map((field) => ({ field, message: `${field} cannot be null` })));
    const settings = await this.settings();
    if (input.enabled !== undefined) settings.enabled = input.enabled;
    if (input.referrerLimit !== undefined) settings.referrerLimit = input.referrerLimit;
    if (input.minPurchaseAmount !== undefined) settings.minPurchaseAmount = input.minPurchaseAmount.toFixed(2);
    if (input.completionDays !== undefined) settings.completionDays = input.completionDays;
    settings.updatedAt = new Date();
    await this.em.flush();
    return settings;
  }

  /** The member's code, made now when it has none (a new code that happens to be taken is drawn again). */
  private async codeOf(memberId: string): Promise<string> {
    for (;;) {
      const rows: Array<{ code: string }> = await this.em.execute(
        `with made as (insert into point.referral_code (member_id, code) values (?, ?) on conflict do nothing returning code)
         select code from made union all select code from point.referral_code where member_id = ?`,
        [memberId, newCode(), memberId],
      );
      if (rows.length > 0) return rows[0].code;
    }
  }
}
