export const DAY_MS = 24 * 3600 * 1000;

/** The UTC midnight `days` days after (before, when negative) `from`. */
export function utcDayAfter(from: Date, days: number): Date {
  return new Date(Math.floor(from.getTime() / DAY_MS) * DAY_MS + days * DAY_MS);
}
