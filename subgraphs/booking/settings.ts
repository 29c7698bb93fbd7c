import { Env } from '../../core/config';

/** The booking domain's own settings. */
export interface BookingSettings {
  /** BOOKING_TIME_ZONE (IANA name, default UTC): the zone of every venue's opening hours and of bookings' `date` and `time`. */
  timeZone: string;
}

export function parseBookingSettings(env: Env, problems: string[]): BookingSettings {
  const raw = env.BOOKING_TIME_ZONE?.trim();
  if (!raw) return { timeZone: 'UTC' };
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
    return { timeZone: raw };
  } catch {
    problems.push(`BOOKING_TIME_ZONE must be an IANA time zone name, got "${raw}"`);
    return { timeZone: 'UTC' };
  }
}
