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
