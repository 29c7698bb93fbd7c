import { RedeemFacts, redeemRefusals } from '../../subgraphs/reward/services/redeem-rules';

const NOW = new Date('2026-11-18T10:30:00.000Z');
const facts = (quantity: number, overrides: Partial<RedeemFacts> = {}): RedeemFacts => ({
  catalog: { isActive: true, windowStart: null, windowEnd: null, pointUsage: '30.50', limitPerUser: 5, quota: { type: 'month', numberInPeriod: 1, limitPerPeriod: 10 }, tierCondition: null, tierRequirement: [] },
  reward: { isActive: true, deletedAt: null, stockType: 'LIMITED', stock: 3, windowEnd: null },
  member: { tierId: null, pointBalance: '91.50' },
  redeemedByMember: 2,
  redeemedInPeriod: 7,
  quantity,
  ...overrides,
});
const codes = (given: RedeemFacts) => redeemRefusals(given, NOW).map((reason) => reason.code);

describe('redeemRefusals with a quantity', () => {
  it('counts every unit against the stock, the limit per member, the quota and the balance', () => {
    expect(codes(facts(3))).toEqual([]);
    expect(codes(facts(4))).toEqual(['OUT_OF_STOCK', 'LIMIT_PER_USER_REACHED', 'QUOTA_REACHED', 'NOT_ENOUGH_POINTS']);
    expect(codes(facts(3, { member: { tierId: null, pointBalance: '91.49' } }))).toEqual(['NOT_ENOUGH_POINTS']);
    expect(codes(facts(3, { redeemedByMember: 3 }))).toEqual(['LIMIT_PER_USER_REACHED']);
    expect(codes(facts(3, { redeemedInPeriod: 8 }))).toEqual(['QUOTA_REACHED']);
  });

  it('is the one-unit rule without a quantity, and INFINITE stock never runs out', () => {
    const one = facts(1);
    delete one.quantity;
    expect(codes({ ...one, redeemedByMember: 5 })).toEqual(['LIMIT_PER_USER_REACHED']);
    expect(codes(facts(50, { reward: { isActive: true, deletedAt: null, stockType: 'INFINITE', stock: 0, windowEnd: null }, catalog: { ...facts(1).catalog, limitPerUser: null, quota: null, pointUsage: '0' } }))).toEqual([]);
  });
});
