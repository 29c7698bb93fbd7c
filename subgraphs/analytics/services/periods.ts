import { FieldError, validationError } from '../../../core/errors';
import { GroupBy, isDayOrTimestamp, TimeRange } from '../types/analytics.types';

const DAY_MS = 24 * 3600 * 1000;
/** The longest period a figure covers (a series of days stays a few thousand entries). */
const MAX_DAYS = 3 * 366;

/** UTC days, both included, `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
const addDays = (day: string, days: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
export const daysIn = (range: DayRange): number => Math.round((Date.parse(range.to) - Date.parse(range.from)) / DAY_MS) + 1;

function parseDay(value: string | undefined, field: string, errors: FieldError[]): string | undefined {
  if (value === undefined) return undefined;
  if (!isDayOrTimestamp(value)) {
    errors.push({ field, message: `${field === 'dateFrom' ? 'date_from' : 'date_to'} is not a valid date` });
    return undefined;
  }
  return dayOf(new Date(Date.parse(value)));
}

/** The UTC days of `date_from` and `date_to` (default: the 30 days up to today); 400 when reversed or longer than 3 years. */
export function dayRange(args: { dateFrom?: string; dateTo?: string }, now = new Date()): DayRange {
  const errors: FieldError[] = [];
  const to = parseDay(args.dateTo, 'dateTo', errors) ?? dayOf(now);
  const from = parseDay(args.dateFrom, 'dateFrom', errors) ?? addDays(to, -29);
  if (errors.length === 0 && from > to) errors.push({ field: 'dateTo', message: 'date_to is not before date_from' });
  if (errors.length === 0 && daysIn({ from, to }) > MAX_DAYS) errors.push({ field: 'dateFrom', message: `the period is at most ${MAX_DAYS} days` });
  if (errors.length > 0) throw validationError(errors);
  return { from, to };
}

/** The period of equal length just before. */
export const previousRange = (range: DayRange): DayRange => ({ from: addDays(range.from, -daysIn(range)), to: addDays(range.from, -1) });

/** `today`, `7d`, `30d`: that many UTC days up to today. */
export function timeRangeDays(timeRange: TimeRange, now = new Date()): DayRange {
  const today = dayOf(now);
  const length = timeRange === 'today' ? 1 : timeRange === '7d' ? 7 : 30;
  return { from: addDays(today, 1 - length), to: today };
}

/** The first day of the period (UTC) holding `day`: itself, its week's Monday, its month's first. */
export function periodStart(day: string, unit: GroupBy): string {
  if (unit === 'day') return day;
  if (unit === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The first day of every period the range touches, in order (compared as times: the day after 9999-12-31 is no longer `YYYY-MM-DD`). */
export function periodStarts(range: DayRange, unit: GroupBy): string[] {
  const starts: string[] = [];
  const last = Date.parse(`${range.to}T00:00:00Z`);
  for (let start = new Date(`${periodStart(range.from, unit)}T00:00:00Z`); start.getTime() <= last; ) {
    starts.push(dayOf(start));
    if (unit === 'month') start = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    else start = new Date(start.getTime() + (unit === 'week' ? 7 : 1) * DAY_MS);
  }
  return starts;
}
