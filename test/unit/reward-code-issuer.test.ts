import { CODE_ALPHABET, CODE_LENGTH, codeExpiry, randomCode } from '../../subgraphs/reward/services/reward-code-issuer';
import { parseRewardSettings } from '../../subgraphs/reward/settings';

const DAY_MS = 24 * 3600 * 1000;

describe('randomCode', () => {
  it('draws 6 characters from the alphabet without look-alikes', () => {
    expect(CODE_LENGTH).toBe(6);
    expect(CODE_ALPHABET).toHaveLength(30);
    for (const lookAlike of ['0', 'O', '1', 'I', 'L', 'U']) expect(CODE_ALPHABET).not.toContain(lookAlike);
    const codes = Array.from({ length: 2000 }, () => randomCode());
    for (const code of codes) expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}$/);
    const seen = new Set(codes.join(''));
    expect([...CODE_ALPHABET].filter((character) => !seen.has(character))).toEqual([]);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });
});

describe('codeExpiry', () => {
  const claimedAt = new Date('2026-03-10T08:00:00.000Z');

  it('is timeUseWithIn days after the claim', () => {
    expect(codeExpiry({ timeUseWithIn: 7, windowEnd: null }, claimedAt).toISOString()).toBe('2026-03-17T08:00:00.000Z');
    expect(codeExpiry({ timeUseWithIn: 7, windowEnd: new Date('2026-04-01T00:00:00.000Z') }, claimedAt).toISOString()).toBe('2026-03-17T08:00:00.000Z');
  });

  it("never passes the end of the reward's window", () => {
    const windowEnd = new Date('2026-03-12T23:59:59.000Z');
    expect(codeExpiry({ timeUseWithIn: 7, windowEnd }, claimedAt)).toEqual(windowEnd);
    expect(codeExpiry({ timeUseWithIn: null, windowEnd }, claimedAt)).toEqual(windowEnd);
  });

  it('is a year after the claim for a reward without timeUseWithIn or window', () => {
    expect(codeExpiry({ timeUseWithIn: null, windowEnd: null }, claimedAt).getTime()).toBe(claimedAt.getTime() + 365 * DAY_MS);
  });
});

describe('REWARD_CODE_EXPIRY_NOTICE_DAYS', () => {
  const parse = (value?: string) => {
    const problems: string[] = [];
    return { days: parseRewardSettings({ REWARD_CODE_EXPIRY_NOTICE_DAYS: value }, problems).codeExpiryNoticeDays, problems };
  };

  it('defaults to 3 days and takes a whole number of days up to a year', () => {
    expect(parse()).toEqual({ days: 3, problems: [] });
    expect(parse('7')).toEqual({ days: 7, problems: [] });
    expect(parse('365')).toEqual({ days: 365, problems: [] });
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['0', '-1', '2.5', 'soon', '366']) {
      const { problems } = parse(value);
      expect({ value, problems: problems.map((problem) => problem.startsWith('REWARD_CODE_EXPIRY_NOTICE_DAYS must be')) }).toEqual({ value, problems: [true] });
    }
  });
});
