import { EntityManager } from '@mikro-orm/postgresql';
import { randomInt, randomUUID } from 'node:crypto';
import { Reward } from '../entities/reward';
import { RewardCode } from '../entities/reward-code';

/** Digits and capitals without look-alikes: no 0/O, 1/I/L, U (read as V). 30 characters, 6 per code. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 6;

const DAY_MS = 24 * 3600 * 1000;
/** A reward without `condition.timeUseWithIn` or a window (a POINT reward): its code is usable this long. */
const DEFAULT_VALIDITY_DAYS = 365;

export function randomCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** `timeUseWithIn` days after `claimedAt`, never past the reward's window end. */
export function codeExpiry(reward: Pick<Reward, 'timeUseWithIn' | 'windowEnd'>, claimedAt: Date): Date {
  const days = reward.timeUseWithIn ?? DEFAULT_VALIDITY_DAYS;
  const expiry = new Date(claimedAt.getTime() + days * DAY_MS);
  return reward.windowEnd && reward.windowEnd < expiry ? reward.windowEnd : expiry;
}

export interface CodeToIssue {
  rewardId: string;
  rewardCatalogId: string;
  memberId: string;
  /** The redemption the code is for: a second issue for it returns the first code (unless `another`). */
  redemptionId: string | null;
  expiredAt: Date;
  /** One more code for a redemption of several units, beside those it has. */
  another?: boolean;
}

/**
 * Issues a reward code in the caller's transaction: random characters until they are unique among
 * unused codes (`on conflict do nothing` keeps the transaction usable after a collision). For a
 * redemption that already has its code, returns that code.
 */
export async function issueRewardCode(em: EntityManager, issue: CodeToIssue): Promise<RewardCode> {
  if (issue.redemptionId && !issue.another) {
    const existing = await em.findOne(RewardCode, { redemptionId: issue.redemptionId });
    if (existing) return existing;
  }
  for (;;) {
    const now = new Date();
    const inserted: Array<{ id: string }> = await em.execute(
      `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, redemption_id, expired_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (code) where used_at is null do nothing returning id`,
      [randomUUID(), randomCode(), issue.rewardId, issue.rewardCatalogId, issue.memberId, issue.redemptionId, issue.expiredAt, now, now],
    );
    if (inserted.length > 0) return em.findOneOrFail(RewardCode, { id: inserted[0].id });
  }
}
