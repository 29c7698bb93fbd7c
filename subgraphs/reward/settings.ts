import { Env, parsePositiveInt } from '../../core/config';

/** A notice further ahead than a year announces nothing useful (and would overflow the timestamp arithmetic). */
const MAX_NOTICE_DAYS = 365;

/** The reward domain's own settings. */
export interface RewardSettings {
  /** REWARD_CODE_EXPIRY_NOTICE_DAYS: how many days before its expiry an unused code is announced as expiring (default 3). */
  codeExpiryNoticeDays: number;
}

export function parseRewardSettings(env: Env, problems: string[]): RewardSettings {
  const days = parsePositiveInt(env, 'REWARD_CODE_EXPIRY_NOTICE_DAYS', 3, problems);
  if (days > MAX_NOTICE_DAYS) problems.push(`REWARD_CODE_EXPIRY_NOTICE_DAYS must be at most ${MAX_NOTICE_DAYS}, got "${days}"`);
  return { codeExpiryNoticeDays: Math.min(days, MAX_NOTICE_DAYS) };
}
