import { BadgeRule, BadgeRuleType, BadgeTierConditionType } from '../../subgraphs/cluster/entities/badge';
import { eventCounts } from '../../subgraphs/cluster/services/badge-progress';
import { countsPurchases, goalOf } from '../../subgraphs/cluster/services/badge.service';
import type { PointLedgerEntry } from '../../subgraphs/point/contract';

const AT = new Date('2026-03-15T12:00:00.000Z');
const MS = 1;

const rule = (fields: Partial<BadgeRule> = {}): BadgeRule => ({ type: BadgeRuleType.totalPurchaseAmount, purchaseAmount: 1000, ...fields });

interface Purchase {
  amount?: number;
  at?: Date;
  shopId?: string | null;
  categoryId?: string | null;
  tierId?: string | null;
}
/** Whether one purchase (100 at AT, no shop, category or tier unless told) counts for the rule. */
function counts(badgeRule: BadgeRule, { amount = 100, at = AT, shopId = null, categoryId = null, tierId = null }: Purchase = {}): boolean {
  const entry: PointLedgerEntry = {
    transactionId: 'transaction',
    memberId: 'member',
    actionType: 'EARN',
    amount: '10.00',
    purchaseAmount: amount.toFixed(2),
    shopId,
    categoryId,
    sourceBy: 'Purchase',
    balanceAfter: '10.00',
    createdAt: at.toISOString(),
  };
  return eventCounts(badgeRule, amount, at, entry, tierId);
}

describe('which purchase counts for a badge', () => {
  it('counts only purchases: an event without a purchase amount never counts', () => {
    expect(counts(rule(), { amount: 100 })).toBe(true);
    expect(counts(rule(), { amount: 0 })).toBe(false);
    expect(counts(rule(), { amount: -5 })).toBe(false);
    expect(counts(rule(), { amount: Number.NaN })).toBe(false);
  });

  it('compares the minimum spend exactly, to the cent', () => {
    const minSpend = rule({ minSpend: 0.3 });
    expect(counts(minSpend, { amount: 0.1 + 0.2 })).toBe(true);
    expect(counts(minSpend, { amount: 0.29 })).toBe(false);
    expect(counts(rule({ minSpend: 50 }), { amount: 49.99 })).toBe(false);
    expect(counts(rule({ minSpend: 50 }), { amount: 50 })).toBe(true);
  });

  it('takes both ends of the window, and nothing outside it', () => {
    const window = rule({ window: { start: '2026-03-01T00:00:00.000Z', end: '2026-03-31T23:59:59.999Z' } });
    expect(counts(window, { at: new Date('2026-03-01T00:00:00.000Z') })).toBe(true);
    expect(counts(window, { at: new Date('2026-03-31T23:59:59.999Z') })).toBe(true);
    expect(counts(window, { at: new Date(Date.parse('2026-03-01T00:00:00.000Z') - MS) })).toBe(false);
    expect(counts(window, { at: new Date(Date.parse('2026-03-31T23:59:59.999Z') + MS) })).toBe(false);
  });

  it('leaves a window open at the end it does not give', () => {
    expect(counts(rule({ window: { start: '2026-03-15T12:00:00.000Z' } }), { at: new Date('2099-01-01T00:00:00.000Z') })).toBe(true);
    expect(counts(rule({ window: { start: '2026-03-15T12:00:00.001Z' } }))).toBe(false);
    expect(counts(rule({ window: { end: '2026-03-15T12:00:00.000Z' } }), { at: new Date('2000-01-01T00:00:00.000Z') })).toBe(true);
    expect(counts(rule({ window: { end: '2026-03-15T11:59:59.999Z' } }))).toBe(false);
    expect(counts(rule({ window: { start: null, end: null } }))).toBe(true);
  });

  it('with an include tier condition, counts only members in a listed tier', () => {
    const include = rule({ tierCondition: { type: BadgeTierConditionType.include, tierIds: ['gold', 'silver'] } });
    expect(counts(include, { tierId: 'gold' })).toBe(true);
    expect(counts(include, { tierId: 'bronze' })).toBe(false);
    expect(counts(include, { tierId: null })).toBe(false);
  });

  it('with an exclude tier condition, counts every member outside the listed tiers, also one without a tier', () => {
    const exclude = rule({ tierCondition: { type: BadgeTierConditionType.exclude, tierIds: ['gold'] } });
    expect(counts(exclude, { tierId: 'gold' })).toBe(false);
    expect(counts(exclude, { tierId: 'bronze' })).toBe(true);
    expect(counts(exclude, { tierId: null })).toBe(true);
  });

  it('for a category rule, takes only included categories and never an excluded one', () => {
    const included = rule({ type: BadgeRuleType.categoryPurchase, purchaseCount: 3, categoryIdsIncluded: ['shoes', 'bags'] });
    expect(counts(included, { categoryId: 'shoes' })).toBe(true);
    expect(counts(included, { categoryId: 'food' })).toBe(false);
    expect(counts(included, { categoryId: null })).toBe(false);
    const excluded = rule({ type: BadgeRuleType.categoryPurchase, purchaseCount: 3, categoryIdsExcluded: ['food'] });
    expect(counts(excluded, { categoryId: 'food' })).toBe(false);
    expect(counts(excluded, { categoryId: 'shoes' })).toBe(true);
    expect(counts(excluded, { categoryId: null })).toBe(true);
    const both = rule({ type: BadgeRuleType.categoryPurchase, purchaseCount: 3, categoryIdsIncluded: ['shoes'], categoryIdsExcluded: ['shoes'] });
    expect(counts(both, { categoryId: 'shoes' })).toBe(false);
  });

  it('treats an empty include list as any id, also none', () => {
    const empty = rule({ type: BadgeRuleType.shopPurchaseAmount, purchaseAmount: 500, shopIdsIncluded: [] });
    expect(counts(empty, { shopId: 'any-shop' })).toBe(true);
    expect(counts(empty, { shopId: null })).toBe(true);
  });

  it('for a shop rule, applies the shop lists the same way', () => {
    const shops = rule({ type: BadgeRuleType.shopPurchaseAmount, purchaseAmount: 500, shopIdsIncluded: ['s1'], shopIdsExcluded: ['s2'] });
    expect(counts(shops, { shopId: 's1' })).toBe(true);
    expect(counts(shops, { shopId: 's2' })).toBe(false);
    expect(counts(shops, { shopId: 's3' })).toBe(false);
    expect(counts(shops, { shopId: null })).toBe(false);
  });

  it('applies each list only to its own rule type', () => {
    const shopListsOnCategoryRule = rule({ type: BadgeRuleType.categoryPurchase, purchaseCount: 1, shopIdsIncluded: ['s1'] });
    expect(counts(shopListsOnCategoryRule, { shopId: 'elsewhere' })).toBe(true);
    const categoryListsOnTotal = rule({ categoryIdsIncluded: ['shoes'] });
    expect(counts(categoryListsOnTotal, { categoryId: 'food' })).toBe(true);
  });
});

describe('what a badge counts towards', () => {
  it('sums purchase amounts for amount rules and counts purchases (one each) for the others', () => {
    const cases: Array<[BadgeRule, number, boolean]> = [
      [rule({ type: BadgeRuleType.totalPurchaseAmount, purchaseAmount: 1000 }), 1000, false],
      [rule({ type: BadgeRuleType.shopPurchaseAmount, purchaseAmount: 250.5 }), 250.5, false],
      [rule({ type: BadgeRuleType.purchaseCount, purchaseAmount: null, purchaseCount: 5 }), 5, true],
      [rule({ type: BadgeRuleType.categoryPurchase, purchaseAmount: null, purchaseCount: 3 }), 3, true],
      [rule({ type: BadgeRuleType.categoryPurchase, purchaseAmount: 400, purchaseCount: null }), 400, false],
      [rule({ type: BadgeRuleType.firstTime, purchaseAmount: null }), 1, true],
      [rule({ type: BadgeRuleType.specialDay, purchaseAmount: null }), 1, true],
    ];
    for (const [badgeRule, goal, byCount] of cases) {
      expect({ type: badgeRule.type, goal: goalOf(badgeRule), byCount: countsPurchases(badgeRule) }).toEqual({ type: badgeRule.type, goal, byCount });
    }
  });

  it('prefers the purchase count of a category rule that has both', () => {
    const both = rule({ type: BadgeRuleType.categoryPurchase, purchaseAmount: 400, purchaseCount: 2 });
    expect(goalOf(both)).toBe(2);
    expect(countsPurchases(both)).toBe(true);
  });
});
