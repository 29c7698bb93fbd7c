import { CategoryPreferences, ChannelPreferences, QuietHours } from '../entities/notification-preference';
import { V1Channel } from '../entities/v1-notification';
import { DEFAULT_CATEGORIES, DEFAULT_CHANNELS, DEFAULT_QUIET_HOURS } from './notification-preference.service';

/** The preference key of each channel; in_app has none (always on). */
const CHANNEL_KEY: Record<V1Channel, keyof ChannelPreferences | null> = { in_app: null, chatapp_mini_program: 'chatapp', sms: 'sms', email: 'email' };

export interface StoredPreferences {
  channels: Partial<ChannelPreferences> | null;
  categories: Partial<CategoryPreferences> | null;
  quietHours: Partial<QuietHours> | null;
}

export type DeliveryDecision = { kind: 'send' } | { kind: 'skip'; reason: string } | { kind: 'defer'; until: Date; timeZone: string };

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** One formatter per zone (making one costs far more than using it; there are a few hundred zones). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall clock in `timeZone` at `at`: its date and time read as if UTC (milliseconds), and minutes since midnight. */
function wallClock(at: Date, timeZone: string): { local: number; minutes: number } {
  const parts = Object.fromEntries(formatIn(timeZone).formatToParts(at).map((part) => [part.type, Number(part.value)]));
  const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) + at.getUTCMilliseconds();
  return { local, minutes: parts.hour * 60 + parts.minute };
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/**
 * The first instant at or after `after` whose wall clock in `timeZone` reads `target` (a date and time
 * read as if UTC), or, when that time does not exist there (skipped by a daylight-saving change), the
 * first instant after the skip. Offsets are taken a day either side, which covers every zone's change.
 */
function instantOf(target: number, timeZone: string, after: number): number {
  const offsets = [target - DAY, target + DAY].map((guess) => wallClock(new Date(guess), timeZone).local - guess);
  const candidates = [...new Set(offsets.map((offset) => target - offset))].sort((a, b) => a - b);
  const exact = candidates.find((candidate) => candidate >= after && wallClock(new Date(candidate), timeZone).local === target);
  if (exact !== undefined) return exact;
  // In the gap: the clock jumps over `target` between the two candidates; find the minute it lands.
  let [low, high] = [candidates[0], candidates[candidates.length - 1]];
  while (high - low > MINUTE) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
    if (wallClock(new Date(middle), timeZone).local >= target) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * When quiet hours hold at `at`, the moment they end: the next `end` on the customer's wall clock
 * (`timezone`, else UTC), as an instant, so a daylight-saving change in the night moves it with the
 * clock (an `end` the change skips is the first instant after the skip); null outside them. A window
 * whose end is before its start runs over midnight.
 */
export function quietUntil(quiet: QuietHours, at: Date): Date | null {
  if (!quiet.enabled || quiet.start === quiet.end) return null;
  const zone = quiet.timezone ?? 'UTC';
  const { local, minutes } = wallClock(at, zone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const inside = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!inside) return null;
  const midnight = local - (local % DAY);
  const endToday = midnight + end * MINUTE;
  return new Date(instantOf(minutes < end ? endToday : endToday + DAY, zone, at.getTime()));
}

/**
 * What to do with one delivery now: skip it when the customer turned its channel or its category off,
 * hold it until their quiet hours end, else send it.
 */
export function decideDelivery(channel: V1Channel, category: string | null, stored: StoredPreferences | null, at: Date): DeliveryDecision {
  const channels = { ...DEFAULT_CHANNELS, ...stored?.channels };
  const categories = { ...DEFAULT_CATEGORIES, ...stored?.categories };
  const quiet = { ...DEFAULT_QUIET_HOURS, ...stored?.quietHours };
  const key = CHANNEL_KEY[channel];
  if (key && channels[key] === false) return { kind: 'skip', reason: `channel ${key} turned off` };
  if (category && categories[category as keyof CategoryPreferences] === false) return { kind: 'skip', reason: `category ${category} turned off` };
  const until = quietUntil(quiet, at);
  return until ? { kind: 'defer', until, timeZone: quiet.timezone ?? 'UTC' } : { kind: 'send' };
}
