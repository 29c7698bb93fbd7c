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

/** The wall clock in `timeZone` at `at`: minutes since midnight and seconds into the minute. */
function wallClock(at: Date, timeZone: string): { minutes: number; seconds: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(at).map((part) => [part.type, part.value]),
  );
  return { minutes: Number(parts.hour) * 60 + Number(parts.minute), seconds: Number(parts.second) };
}

/**
 * When quiet hours hold at `at`, the moment they end (the next `end` on the customer's wall clock,
 * `timezone` or UTC); null outside them. A window whose end is before its start runs over midnight.
 */
export function quietUntil(quiet: QuietHours, at: Date): Date | null {
  if (!quiet.enabled || quiet.start === quiet.end) return null;
  const zone = quiet.timezone ?? 'UTC';
  const { minutes, seconds } = wallClock(at, zone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const inside = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!inside) return null;
  const wait = (end - minutes + 1440) % 1440;
  return new Date(at.getTime() + wait * 60_000 - seconds * 1000 - at.getMilliseconds());
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
