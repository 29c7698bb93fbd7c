import { expiresAtFor } from '../../subgraphs/point/services/expiry-policy';
import { parsePointSettings } from '../../subgraphs/point/settings';

const at = (iso: string) => new Date(iso);

describe('when earned points expire', () => {
  it('never, under the default policy', () => {
    expect(expiresAtFor({ kind: 'never' }, at('2026-05-10T08:30:00.000Z'))).toBeNull();
  });

  it('exactly N days after they were earned', () => {
    expect(expiresAtFor({ kind: 'days', days: 30 }, at('2026-01-15T10:20:30.400Z'))).toEqual(at('2026-02-14T10:20:30.400Z'));
    expect(expiresAtFor({ kind: 'days', days: 1 }, at('2028-02-28T23:00:00.000Z'))).toEqual(at('2028-02-29T23:00:00.000Z'));
  });

  it('at the first instant of the next month (UTC), whatever the day they were earned', () => {
    expect(expiresAtFor({ kind: 'end-of-month' }, at('2026-01-31T23:59:59.999Z'))).toEqual(at('2026-02-01T00:00:00.000Z'));
    expect(expiresAtFor({ kind: 'end-of-month' }, at('2026-03-01T00:00:00.000Z'))).toEqual(at('2026-04-01T00:00:00.000Z'));
    expect(expiresAtFor({ kind: 'end-of-month' }, at('2026-12-15T12:00:00.000Z'))).toEqual(at('2027-01-01T00:00:00.000Z'));
  });
});

describe('POINT_EXPIRY', () => {
  const parse = (value?: string) => {
    const problems: string[] = [];
    return { expiry: parsePointSettings({ POINT_EXPIRY: value }, problems).expiry, problems };
  };

  it('reads never (also when unset or empty), end-of-month and days:N', () => {
    expect(parse()).toEqual({ expiry: { kind: 'never' }, problems: [] });
    expect(parse('')).toEqual({ expiry: { kind: 'never' }, problems: [] });
    expect(parse('end-of-month')).toEqual({ expiry: { kind: 'end-of-month' }, problems: [] });
    expect(parse('days:365')).toEqual({ expiry: { kind: 'days', days: 365 }, problems: [] });
  });

  it('reports anything else by name, and keeps points meanwhile', () => {
    for (const value of ['days:0', 'days:-1', 'days:1.5', 'weeks:2', 'Never']) {
      expect(parse(value)).toEqual({ expiry: { kind: 'never' }, problems: [`POINT_EXPIRY must be never, end-of-month or days:N (N >= 1), got "${value}"`] });
    }
  });
});
