import { EntityManager } from '@mikro-orm/postgresql';
import { randomInt, randomUUID } from 'node:crypto';
import { arrayLiteral } from '../../../core/db/array-literal';
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
  /** The redemption the codes are for. */
  redemptionId: string | null;
  expiredAt: Date;
}

/**
 * Issues `count` reward codes in the caller's transaction, in one statement: random characters, those
 * not unique among unused codes (`on conflict do nothing` keeps the transaction usable after a
 * collision) drawn again for the ones missing. The codes as the rows were written, in the order a
 * redemption's codes are read (`createdAt`, then `id`).
 */
export async function issueRewardCodes(em: EntityManager, issue: CodeToIssue, count: number): Promise<RewardCode[]> {
  const codes: RewardCode[] = [];
  while (codes.length < count) {
    const missing = count - codes.length;
    const now = new Date();
    const rows: Array<Record<string, unknown>> = await em.execute(
      `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, redemption_id, expired_at, created_at, updated_at)
       select id, code, ?, ?, ?, ?, ?, ?, ? from unnest(?::uuid[], ?::text[]) as drawn(id, code)
       on conflict (code) where used_at is null do nothing returning *`,
      [
        issue.rewardId,
        issue.rewardCatalogId,
        issue.memberId,
        issue.redemptionId,
        issue.expiredAt,
        now,
        now,
        arrayLiteral(Array.from({ length: missing }, () => randomUUID())),
        arrayLiteral(Array.from({ length: missing }, randomCode)),
      ],
    );
    codes.push(...rows.map((row) => em.map(RewardCode, row)));
  }
  return inIssueOrder(codes);
}

/** Codes in the order a redemption's codes are read back (by creation, then id): a repeat answers the same list. */
export const inIssueOrder = (codes: RewardCode[]): RewardCode[] =>
  codes.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
