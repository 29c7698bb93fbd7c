/**
 * Slot arithmetic, pure. Times are wall-clock minutes in the venues' time zone (BOOKING_TIME_ZONE).
 * A venue's service day D opens at `openingTime` on D and closes at `closingTime`, on D+1 when closing is
 * at or before opening (crosses midnight; equal times: open 24 hours). Its slots start at opening, every
 * `slotMinutes`, each ending by closing. A booking's `date` is its service day and `time` the wall clock:
 * a time before opening at a venue that crosses midnight is after that midnight (the evening's date).
 * A slot is named by its stamp: minutes from 1970-01-01 00:00 wall clock.
 */
export interface SlotGrid {
  openingTime: string;
  closingTime: string;
  slotMinutes: number;
}

export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY = 1440;
const MS_PER_DAY = 86_400_000;

export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
export const timeOf = (minutes: number): string => {
  const inDay = ((minutes % DAY) + DAY) % DAY;
  return `${String(Math.floor(inDay / 60)).padStart(2, '0')}:${String(inDay % 60).padStart(2, '0')}`;
};

/** Days since 1970-01-01 of a `YYYY-MM-DD` date; null when it is no calendar date. */
export function dayOf(date: string): number | null {
  if (!DATE.test(date)) return null;
  const ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return dateOf(ms / MS_PER_DAY) === date ? ms / MS_PER_DAY : null;
}
export const dateOf = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

/** A stamp as PostgreSQL `timestamp` text (`YYYY-MM-DD HH:MM`). */
export const stampText = (stamp: number): string => `${dateOf(Math.floor(stamp / DAY))} ${timeOf(stamp)}`;
/** The stamp of `YYYY-MM-DD HH:MM` text (as `to_char(.., 'YYYY-MM-DD HH24:MI')` writes it). */
export const stampOf = (text: string): number => dayOf(text.slice(0, 10))! * DAY + minutesOf(text.slice(11, 16));

/**
 * Whether a booking from `start` to `end` may be checked in at `now` (stamps): from `leadMinutes`
 * before it starts until it ends.
 */
export const inCheckInWindow = (now: number, start: number, end: number, leadMinutes: number): boolean => now >= start - leadMinutes && now < end;

/** Opening and closing as minutes from the service day's midnight (closing may be past 1440). */
export function openWindow(grid: SlotGrid): { open: number; close: number } {
  const open = minutesOf(grid.openingTime);
  let close = minutesOf(grid.closingTime);
  if (close <= open) close += DAY;
  return { open, close };
}

/** The start minutes (from the service day's midnight) of a day's slots. */
export function slotOffsets(grid: SlotGrid): number[] {
  const { open, close } = openWindow(grid);
  const offsets: number[] = [];
  for (let start = open; start + grid.slotMinutes <= close; start += grid.slotMinutes) offsets.push(start);
  return offsets;
}

/** The stamps of service day `day`'s slots. */
export const daySlots = (grid: SlotGrid, day: number): number[] => slotOffsets(grid).map((offset) => day * DAY + offset);

/**
 * The slots a booking of `duration` minutes at `time` on service day `date` covers (every slot it
 * overlaps), or why it fits none: it must start on a slot's start and end by closing.
 */
export function coveredSlots(grid: SlotGrid, date: string, time: string, duration: number): { stamps: number[]; start: number; end: number } | { refusal: string } {
  const day = dayOf(date);
  if (day === null) return { refusal: 'not a date' };
  const { open, close } = openWindow(grid);
  let offset = minutesOf(time);
  if (offset < open) offset += DAY;
  if (offset >= close) return { refusal: `the venue is closed at ${time} (open ${grid.openingTime} to ${grid.closingTime})` };
  if ((offset - open) % grid.slotMinutes !== 0) return { refusal: `no slot starts at ${time}: slots start every ${grid.slotMinutes} minutes from ${grid.openingTime}` };
  const count = Math.ceil(duration / grid.slotMinutes);
  if (offset + count * grid.slotMinutes > close) return { refusal: `a booking of ${duration} minutes at ${time} ends after closing (${grid.closingTime})` };
  const start = day * DAY + offset;
  return { stamps: Array.from({ length: count }, (_, index) => start + index * grid.slotMinutes), start, end: start + duration };
}

/** The wall clock in `timeZone` now, as a stamp. */
export function nowStamp(timeZone: string, now = new Date()): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return dayOf(`${parts.year}-${parts.month}-${parts.day}`)! * DAY + Number(parts.hour) * 60 + Number(parts.minute);
}

export const MINUTES_PER_DAY = DAY;

/** A PostgreSQL array literal of plain values (the driver would expand a JS array into a list). */
export const pgArray = (values: readonly string[]): string => `{${values.map((value) => `"${value}"`).join(',')}}`;
