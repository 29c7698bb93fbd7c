import { parseBookingSettings } from '../../subgraphs/booking/settings';

describe('booking settings', () => {
  it('defaults to UTC and a check-in opening 30 minutes before the start', () => {
    const problems: string[] = [];
    expect(parseBookingSettings({}, problems)).toEqual({ timeZone: 'UTC', checkInLeadMinutes: 30 });
    expect(problems).toEqual([]);
  });

  it('reads BOOKING_TIME_ZONE and BOOKING_CHECK_IN_LEAD_MINUTES', () => {
    const problems: string[] = [];
    expect(parseBookingSettings({ BOOKING_TIME_ZONE: 'Asia/Bangkok', BOOKING_CHECK_IN_LEAD_MINUTES: '60' }, problems)).toEqual({ timeZone: 'Asia/Bangkok', checkInLeadMinutes: 60 });
    expect(problems).toEqual([]);
  });

  it('names each bad value', () => {
    for (const [env, problem] of [
      [{ BOOKING_TIME_ZONE: 'Mars/Olympus' }, /BOOKING_TIME_ZONE must be an IANA time zone name/],
      [{ BOOKING_CHECK_IN_LEAD_MINUTES: '0' }, /BOOKING_CHECK_IN_LEAD_MINUTES must be a positive integer/],
      [{ BOOKING_CHECK_IN_LEAD_MINUTES: 'soon' }, /BOOKING_CHECK_IN_LEAD_MINUTES must be a positive integer/],
      [{ BOOKING_CHECK_IN_LEAD_MINUTES: '1441' }, /BOOKING_CHECK_IN_LEAD_MINUTES must be at most 1440/],
    ] as const) {
      const problems: string[] = [];
      parseBookingSettings(env, problems);
      expect(problems).toEqual([expect.stringMatching(problem)]);
    }
  });
});
