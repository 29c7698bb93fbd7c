import { decideDelivery, quietUntil } from '../../subgraphs/notification/services/delivery-rules';

const quiet = (start: string, end: string, timezone: string | null = null) => ({ enabled: true, start, end, timezone });

describe('quietUntil', () => {
  it('is null outside the window and when disabled', () => {
    expect(quietUntil(quiet('22:00', '08:00'), new Date('2026-11-23T12:00:00Z'))).toBeNull();
    expect(quietUntil({ ...quiet('00:00', '23:59'), enabled: false }, new Date('2026-11-23T12:00:00Z'))).toBeNull();
  });

  it('a window over midnight holds until its end the next morning (UTC without a zone)', () => {
    expect(quietUntil(quiet('22:00', '08:00'), new Date('2026-11-23T23:30:15Z'))?.toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(quietUntil(quiet('22:00', '08:00'), new Date('2026-11-24T07:59:59Z'))?.toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(quietUntil(quiet('22:00', '08:00'), new Date('2026-11-24T08:00:00Z'))).toBeNull();
  });

  it("reads the customer's wall clock in their time zone", () => {
    // 16:30 UTC is 23:30 in Bangkok (UTC+7): quiet until 08:00 there, 01:00 UTC; 05:30 UTC is 12:30 there.
    expect(quietUntil(quiet('22:00', '08:00', 'Asia/Bangkok'), new Date('2026-11-23T16:30:00Z'))?.toISOString()).toBe('2026-11-24T01:00:00.000Z');
    expect(quietUntil(quiet('22:00', '08:00', 'Asia/Bangkok'), new Date('2026-11-23T05:30:00Z'))).toBeNull();
  });
});

describe('quietUntil across a daylight-saving change (America/New_York, quiet 22:00-08:00)', () => {
  const newYork = quiet('22:00', '08:00', 'America/New_York');
  const wall = (at: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

  it('spring forward (8 March 2026): 22:00 EST the evening before is held until 08:00 EDT, not 09:00', () => {
    const until = quietUntil(newYork, new Date('2026-03-08T03:00:00Z'))!;
    expect(until.toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(wall(until)).toBe('08:00');
  });

  it('fall back (1 November 2026): 23:00 EDT the evening before is held until 08:00 EST, not 07:00', () => {
    const until = quietUntil(newYork, new Date('2026-11-01T03:00:00Z'))!;
    expect(until.toISOString()).toBe('2026-11-01T13:00:00.000Z');
    expect(wall(until)).toBe('08:00');
  });

  it('inside the night of the change, after it: still the next 08:00', () => {
    expect(quietUntil(newYork, new Date('2026-03-08T08:30:00Z'))?.toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(quietUntil(newYork, new Date('2026-11-01T07:30:00Z'))?.toISOString()).toBe('2026-11-01T13:00:00.000Z');
  });

  it('an end the change skips (02:30 on 8 March does not exist) is the first instant after the skip: 03:00 EDT', () => {
    expect(quietUntil(quiet('22:00', '02:30', 'America/New_York'), new Date('2026-03-08T04:00:00Z'))?.toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });

  it('an end the change repeats (01:30 on 1 November happens twice) is the next one to come', () => {
    const window = quiet('22:00', '01:30', 'America/New_York');
    // 00:30 EDT: the first 01:30 (EDT, 05:30Z) comes first.
    expect(quietUntil(window, new Date('2026-11-01T04:30:00Z'))?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    // 01:10 EST, after the clock went back: the second 01:30 (EST, 06:30Z).
    expect(quietUntil(window, new Date('2026-11-01T06:10:00Z'))?.toISOString()).toBe('2026-11-01T06:30:00.000Z');
  });
});

describe('decideDelivery', () => {
  const at = new Date('2026-11-23T12:00:00Z');
  it('skips a channel or category turned off, in_app has no switch', () => {
    expect(decideDelivery('sms', null, { channels: { sms: false }, categories: null, quietHours: null }, at)).toEqual({ kind: 'skip', reason: 'channel sms turned off' });
    expect(decideDelivery('in_app', 'loyalty', { channels: { chatapp: false, sms: false, email: false }, categories: { loyalty: false }, quietHours: null }, at)).toEqual({
      kind: 'skip',
      reason: 'category loyalty turned off',
    });
    expect(decideDelivery('chatapp_mini_program', 'loyalty', null, at)).toEqual({ kind: 'send' });
  });

  it('defers inside quiet hours with the zone it used', () => {
    expect(decideDelivery('email', null, { channels: null, categories: null, quietHours: quiet('11:00', '13:00') }, at)).toEqual({ kind: 'defer', until: new Date('2026-11-23T13:00:00Z'), timeZone: 'UTC' });
  });
});
