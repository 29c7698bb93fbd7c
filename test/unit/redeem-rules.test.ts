import { quotaPeriod, RedeemFacts, redeemRefusals } from '../../subgraphs/reward/services/redeem-rules';

const NOW = new Date('2026-11-18T10:30:00.000Z'); // a Wednesday
const iso = (period: { start: Date; end: Date }) => [period.start.toISOString(), period.end.toISOString()];

describe('quotaPeriod (UTC, counted from 1970)', () => {
  it('cuts days, weeks from Monday, months and years into whole periods of numberInPeriod', () => {
    expect(iso(quotaPeriod('day', 1, NOW))).toEqual(['2026-11-18T00:00:00.000Z', '2026-11-19T00:00:00.000Z']);
    expect(iso(quotaPeriod('week', 1, NOW))).toEqual(['2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z']);
    expect(iso(quotaPeriod('month', 1, NOW))).toEqual(['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z']);
    expect(iso(quotaPeriod('month', 3, NOW))).toEqual(['2026-10-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(iso(quotaPeriod('month', 12, NOW))).toEqual(['2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(iso(quotaPeriod('year', 1, NOW))).toEqual(['2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(iso(quotaPeriod('year', 5, NOW))).toEqual(['2025-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z']);
  });

  it('puts a boundary instant in the period it opens, and the period before a boundary ends there', () => {
    expect(iso(quotaPeriod('month', 1, new Date('2026-12-01T00:00:00.000Z')))).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(iso(quotaPeriod('month', 1, new Date('2026-11-30T23:59:59.999Z')))).toEqual(['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z']);
    expect(iso(quotaPeriod('week', 1, new Date('2026-11-16T00:00:00.000Z')))[0]).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(quotaPeriod('week', 2, NOW))).toEqual(['2026-11-09T00:00:00.000Z', '2026-11-23T00:00:00.000Z']);
    expect(iso(quotaPeriod('day', 7, NOW))).toEqual(['2026-11-12T00:00:00.000Z', '2026-11-19T00:00:00.000Z']);
  });
});

describe('redeemRefusals', () => {
  interface Overrides extends Partial<Omit<RedeemFacts, 'catalog' | 'reward'>> {
    catalog?: Partial<RedeemFacts['catalog']>;
    reward?: Partial<NonNullable<RedeemFacts['reward']>> | null;
  }
  const facts = (overrides: Overrides = {}): RedeemFacts => ({
    redeemedByMember: 0,
    redeemedInPeriod: 0,
    member: { tierId: null, pointBalance: '100' },
    ...overrides,
    catalog: {
      isActive: true,
      windowStart: null,
      windowEnd: null,
      pointUsage: '100.00',
      limitPerUser: null,
      quota: null,
      tierCondition: null,
      tierRequirement: [],
      ...overrides.catalog,
    },
    reward: overrides.reward === null ? null : { isActive: true, deletedAt: null, stockType: 'LIMITED', stock: 1, windowEnd: null, ...overrides.reward },
  });
  const codes = (given: RedeemFacts) => redeemRefusals(given, NOW).map((reason) => reason.code);

  it('lets a member through when every rule holds', () => {
    expect(redeemRefusals(facts(), NOW)).toEqual([]);
  });

  it('refuses an inactive catalog or reward', () => {
    expect(codes(facts({ catalog: { isActive: false } }))).toEqual(['INACTIVE']);
    expect(codes(facts({ reward: { isActive: false } }))).toEqual(['INACTIVE']);
  });

  it('refuses outside the window (its ends included) and once the reward can no longer be used', () => {
    expect(codes(facts({ catalog: { windowStart: new Date(NOW.getTime() + 1), windowEnd: new Date('2027-01-01') } }))).toEqual(['OUTSIDE_WINDOW']);
    expect(codes(facts({ catalog: { windowStart: new Date('2026-01-01'), windowEnd: new Date(NOW.getTime() - 1) } }))).toEqual(['OUTSIDE_WINDOW']);
    expect(codes(facts({ catalog: { windowStart: NOW, windowEnd: NOW } }))).toEqual([]);
    expect(codes(facts({ reward: { windowEnd: NOW } }))).toEqual(['OUTSIDE_WINDOW']);
  });

  it('refuses a LIMITED stock of 0 and a deleted reward; INFINITE never runs out', () => {
    expect(codes(facts({ reward: { stock: 0 } }))).toEqual(['OUT_OF_STOCK']);
    expect(codes(facts({ reward: { deletedAt: new Date() } }))).toEqual(['OUT_OF_STOCK']);
    expect(codes(facts({ reward: null }))).toEqual(['OUT_OF_STOCK']);
    expect(codes(facts({ reward: { stockType: 'INFINITE', stock: 0 } }))).toEqual([]);
  });

  it('refuses at the limit per member and at the quota of the period', () => {
    expect(codes(facts({ catalog: { limitPerUser: 2 }, redeemedByMember: 1 }))).toEqual([]);
    expect(codes(facts({ catalog: { limitPerUser: 2 }, redeemedByMember: 2 }))).toEqual(['LIMIT_PER_USER_REACHED']);
    const quota = { type: 'month', numberInPeriod: 1, limitPerPeriod: 5 };
    expect(codes(facts({ catalog: { quota }, redeemedInPeriod: 4 }))).toEqual([]);
    const [reached] = redeemRefusals(facts({ catalog: { quota }, redeemedInPeriod: 5 }), NOW);
    expect(reached).toEqual({ code: 'QUOTA_REACHED', message: 'The quota of 5 redemptions is used up until 2026-12-01T00:00:00.000Z' });
  });

  it('applies INCLUDE (a member without a tier is not included) and EXCLUDE', () => {
    const include = { tierCondition: 'INCLUDE' as const, tierRequirement: ['gold', 'platinum'] };
    const exclude = { tierCondition: 'EXCLUDE' as const, tierRequirement: ['bronze'] };
    expect(codes(facts({ catalog: include, member: { tierId: 'gold', pointBalance: 100 } }))).toEqual([]);
    expect(codes(facts({ catalog: include, member: { tierId: 'silver', pointBalance: 100 } }))).toEqual(['TIER_NOT_INCLUDED']);
    expect(codes(facts({ catalog: include }))).toEqual(['TIER_NOT_INCLUDED']);
    expect(codes(facts({ catalog: exclude, member: { tierId: 'bronze', pointBalance: 100 } }))).toEqual(['TIER_EXCLUDED']);
    expect(codes(facts({ catalog: exclude }))).toEqual([]);
  });

  it('compares the balance with pointUsage exactly, to the hundredth', () => {
    expect(codes(facts({ catalog: { pointUsage: '0.30' }, member: { tierId: null, pointBalance: 0.3 } }))).toEqual([]);
    expect(codes(facts({ catalog: { pointUsage: '0.30' }, member: { tierId: null, pointBalance: 0.29 } }))).toEqual(['NOT_ENOUGH_POINTS']);
    expect(codes(facts({ catalog: { pointUsage: '123456789012.35' }, member: { tierId: null, pointBalance: '123456789012.34' } }))).toEqual(['NOT_ENOUGH_POINTS']);
    expect(codes(facts({ catalog: { pointUsage: '0.00' }, member: { tierId: null, pointBalance: 0 } }))).toEqual([]);
  });
});
