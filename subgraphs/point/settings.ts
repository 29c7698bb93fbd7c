import { Env, parseNonNegativeInt, parsePositiveInt, parseUrl } from '../../core/config';

/** When earned points expire: never, N days after they were earned, or at the end of that month. */
export type PointExpiryPolicy = { kind: 'never' } | { kind: 'days'; days: number } | { kind: 'end-of-month' };

/** The point domain's own settings. */
export interface PointSettings {
  /** POINT_EXPIRY: `never` (default), `days:N`, `end-of-month`. */
  expiry: PointExpiryPolicy;
  /** RECEIPT_EXTRACTOR_URL: the receipt extraction service for automatic verification; without it receipts need manual review. */
  receiptExtractorUrl?: string;
  /** POINT_EXPIRY_NOTICE_DAYS: how many days before they expire points are announced as expiring (default 7). */
  expiryNoticeDays: number;
  /** POINT_PENDING_DAYS: how many days a purchase's points (and its rules', unless a rule sets its own) are held before they can be spent (0..365, default 0: at once). */
  pendingDays: number;
}

function parsePointExpiry(env: Env, problems: string[]): PointExpiryPolicy {
  const raw = env.POINT_EXPIRY || 'never';
  if (raw === 'never' || raw === 'end-of-month') return { kind: raw };
  const days = /^days:(\d+)$/.exec(raw);
  if (days && Number(days[1]) >= 1) return { kind: 'days', days: Number(days[1]) };
  problems.push(`POINT_EXPIRY must be never, end-of-month or days:N (N >= 1), got "${raw}"`);
  return { kind: 'never' };
}

function parsePendingDays(env: Env, problems: string[]): number {
  const days = parseNonNegativeInt(env, 'POINT_PENDING_DAYS', 0, problems);
  if (days > 365) problems.push(`POINT_PENDING_DAYS must be at most 365, got ${days}`);
  return Math.min(days, 365);
}

export function parsePointSettings(env: Env, problems: string[]): PointSettings {
  return {
    expiry: parsePointExpiry(env, problems),
    receiptExtractorUrl: parseUrl(env, 'RECEIPT_EXTRACTOR_URL', problems, ['http:', 'https:']),
    expiryNoticeDays: parsePositiveInt(env, 'POINT_EXPIRY_NOTICE_DAYS', 7, problems),
    pendingDays: parsePendingDays(env, problems),
  };
}
