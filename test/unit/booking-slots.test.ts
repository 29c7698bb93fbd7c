import { coveredSlots, dayOf, daySlots, inCheckInWindow, nowStamp, slotOffsets, stampOf, stampText, timeOf } from '../../subgraphs/booking/services/slots';

const grid = (openingTime: string, closingTime: string, slotMinutes = 60) => ({ openingTime, closingTime, slotMinutes });
const texts = (result: ReturnType<typeof coveredSlots>) => ('refusal' in result ? result.refusal : result.stamps.map(stampText));

describe('slot arithmetic', () => {
  it('lays slots from opening, each ending by closing', () => {
    expect(slotOffsets(grid('10:00', '12:30')).map(timeOf)).toEqual(['10:00', '11:00']);
    expect(slotOffsets(grid('10:00', '11:00', 20)).map(timeOf)).toEqual(['10:00', '10:20', '10:40']);
  });

  it('runs past midnight when closing is at or before opening (equal: 24 hours)', () => {
    expect(slotOffsets(grid('22:00', '01:00')).map(timeOf)).toEqual(['22:00', '23:00', '00:00']);
    expect(slotOffsets(grid('06:00', '06:00', 360)).map(timeOf)).toEqual(['06:00', '12:00', '18:00', '00:00']);
    expect(daySlots(grid('23:00', '01:00'), dayOf('2026-12-31')!).map(stampText)).toEqual(['2026-12-31 23:00', '2027-01-01 00:00']);
  });

  it('covers every slot a booking overlaps, on its service day', () => {
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-12-01', '19:00', 90))).toEqual(['2026-12-01 19:00', '2026-12-01 20:00']);
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-12-01', '21:00', 60))).toEqual(['2026-12-01 21:00']);
    // After midnight at a venue that crosses it: the evening's date names the service day.
    expect(texts(coveredSlots(grid('20:00', '02:00'), '2026-12-31', '00:00', 120))).toEqual(['2027-01-01 00:00', '2027-01-01 01:00']);
  });

  it('refuses closed hours, times between slot starts, bookings past closing and impossible dates', () => {
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-12-01', '09:00', 60))).toMatch(/closed/);
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-12-01', '22:00', 60))).toMatch(/closed/);
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-12-01', '10:30', 60))).toMatch(/no slot starts/);
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-12-01', '21:00', 61))).toMatch(/after closing/);
    expect(texts(coveredSlots(grid('20:00', '02:00'), '2026-12-01', '03:00', 60))).toMatch(/closed/);
    expect(texts(coveredSlots(grid('10:00', '22:00'), '2026-02-30', '12:00', 60))).toBe('not a date');
  });

  it('reads the wall clock of a time zone', () => {
    const at = new Date('2026-12-31T20:30:00Z');
    expect(stampText(nowStamp('UTC', at))).toBe('2026-12-31 20:30');
    expect(stampText(nowStamp('Asia/Bangkok', at))).toBe('2027-01-01 03:30');
  });

  it('reads stamps back from their text', () => {
    for (const text of ['2026-12-31 23:55', '2027-01-01 00:00', '1970-01-01 00:05']) expect(stampText(stampOf(text))).toBe(text);
  });

  it('opens a check-in `lead` minutes before the start, until the end (excluded)', () => {
    const start = stampOf('2026-12-31 23:30');
    const end = stampOf('2027-01-01 00:30');
    expect([stampOf('2026-12-31 22:59'), stampOf('2026-12-31 23:00'), stampOf('2027-01-01 00:29'), end].map((now) => inCheckInWindow(now, start, end, 30))).toEqual([false, true, true, false]);
    expect(inCheckInWindow(stampOf('2026-12-28 23:30'), start, end, 1440)).toBe(false);
  });
});
