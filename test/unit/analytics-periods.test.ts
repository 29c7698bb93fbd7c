import { dayRange, periodStarts, previousRange } from '../../subgraphs/analytics/services/periods';
import { isDayOrTimestamp } from '../../subgraphs/analytics/types/analytics.types';

describe('analytics days', () => {
  it('takes dates and timestamps of real days in the years 1900 to 9999', () => {
    for (const value of ['1900-01-01', '9999-12-31', '2028-02-29', '2026-10-06T01:00+02:00', '2026-10-06T23:59:59.999Z', '2026-10-06T00:00:00-0330']) {
      expect([value, isDayOrTimestamp(value)]).toEqual([value, true]);
    }
    for (const value of ['0000-01-01', '0001-01-01', '1899-12-31', '2026-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-10-06T24:00Z', '2026-10-06T10:60Z', '2026-10-06T10:00', '2026-10-06T10:00+24:00', 'soon', 20261006]) {
      expect([value, isDayOrTimestamp(value)]).toEqual([value, false]);
    }
  });

  it('counts a timestamp on its UTC day, and refuses what is not a day', () => {
    expect(dayRange({ dateFrom: '2026-10-06T01:00:00+02:00', dateTo: '2026-10-06T23:30:00-01:00' })).toEqual({ from: '2026-10-05', to: '2026-10-07' });
    expect(() => dayRange({ dateFrom: '2026-02-30' })).toThrow();
    expect(() => dayRange({ dateFrom: '0000-01-01', dateTo: '0000-01-02' })).toThrow();
  });

  it('lists the periods up to the last day there is, and the period before', () => {
    expect(periodStarts({ from: '9999-11-15', to: '9999-12-31' }, 'month')).toEqual(['9999-11-01', '9999-12-01']);
    expect(periodStarts({ from: '9999-12-29', to: '9999-12-31' }, 'day')).toEqual(['9999-12-29', '9999-12-30', '9999-12-31']);
    expect(periodStarts({ from: '9999-12-20', to: '9999-12-31' }, 'week')).toEqual(['9999-12-20', '9999-12-27']);
    expect(periodStarts({ from: '2026-10-01', to: '2026-10-12' }, 'week')).toEqual(['2026-09-28', '2026-10-05', '2026-10-12']);
    expect(previousRange({ from: '1900-01-01', to: '1900-01-31' })).toEqual({ from: '1899-12-01', to: '1899-12-31' });
  });
});
