import { catalogStats, catalogStatus } from '../../subgraphs/reward/services/catalog-status';
import { Reward } from '../../subgraphs/reward/entities/reward';

const now = new Date('2027-06-01T00:00:00.000Z');
const reward = (fields: Partial<Reward>) => Object.assign(new Reward(), { stock: 0, stockType: 'LIMITED', deletedAt: null, ...fields });
const window = (start: string | null, end: string | null) => ({ windowStart: start ? new Date(start) : null, windowEnd: end ? new Date(end) : null });

describe('catalogStatus', () => {
  it('is EXPIRED past the window and UPCOMING before it, whatever the stock', () => {
    expect(catalogStatus(window('2027-01-01T00:00:00Z', '2027-05-31T23:59:59Z'), reward({ stock: 5 }), now)).toBe('EXPIRED');
    expect(catalogStatus(window('2027-06-01T00:00:01Z', '2027-07-01T00:00:00Z'), reward({ stock: 0 }), now)).toBe('UPCOMING');
  });

  it('within the window or without one: ACTIVE with stock or INFINITE, OUT_OF_STOCK at zero or once the reward is deleted', () => {
    const open = window('2027-06-01T00:00:00Z', '2027-06-01T00:00:00Z');
    expect(catalogStatus(open, reward({ stock: 1 }), now)).toBe('ACTIVE');
    expect(catalogStatus(window(null, null), reward({ stockType: 'INFINITE' }), now)).toBe('ACTIVE');
    expect(catalogStatus(window(null, null), reward({ stock: 0 }), now)).toBe('OUT_OF_STOCK');
    expect(catalogStatus(open, reward({ stock: 3, deletedAt: now }), now)).toBe('OUT_OF_STOCK');
    expect(catalogStatus(open, null, now)).toBe('OUT_OF_STOCK');
  });
});

describe('catalogStats', () => {
  it("counts the catalog's codes and shows the reward's stock as remaining", () => {
    const counts = { redeemedCount: 4, usedCount: 1 };
    expect(catalogStats(counts, reward({ stock: 6 }))).toEqual({ redeemed: 4, used: 1, remaining: 6, total: 10 });
    expect(catalogStats(counts, reward({ stockType: 'INFINITE' }))).toEqual({ redeemed: 4, used: 1, remaining: null, total: null });
    expect(catalogStats(counts, reward({ stock: 6, deletedAt: now }))).toEqual({ redeemed: 4, used: 1, remaining: 0, total: 4 });
  });
});
