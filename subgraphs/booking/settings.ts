import { Env, parsePositiveInt } from '../../core/config';

/** A check-in opens at most a day before its slot (longer would be no window at all). */
const MAX_CHECK_IN_LEAD_MINUTES = 1440;

/** The booking domain's own settings. */
export interface BookingSettings {
  /** BOOKING_TIME_ZONE (IANA name, default UTC): the zone of every venue's opening hours and of bookings' `date` and `time`. */
  timeZone: string;
  /** BOOKING_CHECK_IN_LEAD_MINUTES (1..1440, default 30): how long before its start a booking may be checked in (until its end). */
  checkInLeadMinutes: number;
}

export function parseBookingSettings(env: Env, problems: string[]): BookingSettings {
  const lead = parsePositiveInt(env, 'BOOKING_CHECK_IN_LEAD_MINUTES', 30, problems);
  if (lead > MAX_CHECK_IN_LEAD_MINUTES) problems.push(`BOOKING_CHECK_IN_LEAD_MINUTES must be at most ${MAX_CHECK_IN_LEAD_MINUTES}, got "${lead}"`);
  return { timeZone: parseTimeZone(env, problems), checkInLeadMinutes: Math.min(lead, MAX_CHECK_IN_LEAD_MINUTES) };
}

function parseTimeZone(env: Env, problems: string[]): string {
  const raw = env.BOOKING_TIME_ZONE?.trim();
  if (!raw) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
    return raw;
  } catch {
    problems.push(`BOOKING_TIME_ZONE must be an IANA time zone name, got "${raw}"`);
    return 'UTC';
  }
}
