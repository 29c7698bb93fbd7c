import { fromUnits, toUnits } from '../../core/decimal';
import { checkRuleDefinition, RuleDefinition } from '../../subgraphs/point/services/earning-rules/rule-definition';
import { effectPoints, evaluate, Facts, holds, periodEnd, periodStart, RuleVersion } from '../../subgraphs/point/services/earning-rules/rule-evaluation';

const CONTEXT = { eventTypes: new Map([['survey', { score: { type: 'number' as const }, channel: { type: 'string' as const, required: true } }]]) };
const definition = (draft: Record<string, unknown>): RuleDefinition => {
  const checked = checkRuleDefinition({ name: 'rule', trigger: 'purchase', ...draft }, CONTEXT);
  if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
  return checked.definition;
};
const errorsOf = (draft: Record<string, unknown>) => {
  const checked = checkRuleDefinition({ name: 'rule', trigger: 'purchase', ...draft }, CONTEXT);
  return 'errors' in checked ? checked.errors.map((error) => error.field) : [];
};
let created = 0;
const rule = (id: string, draft: Record<string, unknown>, budgetLeft?: bigint): RuleVersion => ({
  ruleId: id,
  version: 1,
  createdAt: new Date(Date.UTC(2026, 0, 1) + created++),
  definition: definition(draft),
  ...(budgetLeft === undefined ? {} : { budgetLeft }),
});
const purchase = (extra: Partial<Facts> = {}): Facts => ({ trigger: 'purchase', occurredAt: new Date('2026-11-28T10:00:00Z'), amount: '100.00', storeId: 's1', category: 'shoes', basePoints: '100.00', ...extra });
const FIXED = { type: 'fixed', points: 10 };

describe('core/decimal', () => {
  it('reads plain decimals exactly and refuses what is not one or has too many decimals', () => {
    expect(toUnits('123.45', 2)).toBe(12345n);
    expect(toUnits(0.1, 4)).toBe(1000n);
    expect(toUnits('-0.5', 2)).toBe(-50n);
    expect(toUnits('7', 0)).toBe(7n);
    expect(toUnits('1.230', 2)).toBe(123n);
    for (const bad of ['1.234', 1e-7, 1e21, 'NaN', '', ' 1', '0x10', null, undefined, {}]) expect(toUnits(bad, 2)).toBeNull();
    expect(fromUnits(12345n, 2)).toBe('123.45');
    expect(fromUnits(5n, 2)).toBe('0.05');
    expect(fromUnits(-150n, 2)).toBe('-1.50');
    expect(fromUnits(42n, 0)).toBe('42');
  });
});

describe('the rule format', () => {
  it('names every bad path of a definition', () => {
    expect(errorsOf({ effect: { type: 'fixed', points: 0 }, conditions: { any: [{ fact: 'amount', op: 'between', value: [10] }] } })).toEqual(['conditions.any.0.value', 'effect.points']);
    expect(errorsOf({ effect: FIXED, conditions: { fact: 'tier', op: 'gt', value: 'gold' } })).toEqual(['conditions.op']);
    expect(errorsOf({ effect: FIXED, conditions: { fact: 'amount', op: 'gt', value: 1, extra: true } })).toEqual(['conditions.extra']);
    expect(errorsOf({ effect: FIXED, conditions: [] })).toEqual(['conditions']);
    expect(errorsOf({ effect: FIXED, conditions: { fact: 'constructor', op: 'eq', value: 1 } })).toEqual(['conditions.fact']);
    expect(errorsOf({ effect: FIXED, conditions: { fact: 'amount', op: 'between', value: [20, 10] } })).toEqual(['conditions.value']);
    expect(errorsOf({ effect: { type: 'multiplier', factor: 1 } })).toEqual(['effect.factor']);
    expect(errorsOf({ effect: { type: 'per_amount', rate: 0.1 + 0.2 } })).toEqual(['effect.rate']);
    expect(errorsOf({ effect: FIXED, limits: { member: [{ period: 'day', count: 1 }, { period: 'day', points: 5 }] } })).toEqual(['limits.member.1.period']);
    expect(errorsOf({ effect: FIXED, conditions: { all: Array.from({ length: 21 }, () => ({ fact: 'amount', op: 'gt', value: 1 })) } })).toEqual(['conditions.all']);
    const wide = { any: Array.from({ length: 20 }, () => ({ all: Array.from({ length: 20 }, () => ({ fact: 'amount', op: 'gt', value: 1 })) })) };
    expect(errorsOf({ effect: FIXED, conditions: wide })).toEqual(['conditions']);
  });

  it('defaults priority to 0, stacking to true and the pending period to the program\'s, and keeps a null condition as always holding', () => {
    expect(definition({ effect: FIXED })).toEqual({ name: 'rule', description: null, trigger: 'purchase', conditions: null, effect: FIXED, limits: {}, priority: 0, stacks: true, pendingDays: null });
    expect(holds(null, purchase())).toBe(true);
  });
});

describe('evaluation', () => {
  it('compares facts exactly: amounts in cents, half-open time windows, ISO weekdays in UTC, sets, unknown values', () => {
    const facts = purchase({ amount: '100.01' });
    expect(holds({ fact: 'amount', op: 'gt', value: 100 }, facts)).toBe(true);
    expect(holds({ fact: 'amount', op: 'lte', value: 100.01 }, facts)).toBe(true);
    expect(holds({ fact: 'amount', op: 'in', value: [100.01, 5] }, facts)).toBe(true);
    expect(holds({ fact: 'occurred_at', op: 'between', value: ['2026-11-28T10:00:00Z', '2026-11-29T00:00:00Z'] }, facts)).toBe(true);
    expect(holds({ fact: 'occurred_at', op: 'between', value: ['2026-11-27T00:00:00Z', '2026-11-28T10:00:00Z'] }, facts)).toBe(false);
    expect(holds({ fact: 'weekday', op: 'eq', value: 6 }, facts)).toBe(true);
    expect(holds({ fact: 'segments', op: 'contains', value: 'vip' }, purchase({ segmentIds: ['vip'] }))).toBe(true);
    expect(holds({ fact: 'segments', op: 'not_contains', value: 'vip' }, facts)).toBe(true);
    const noStore = purchase({ storeId: null });
    expect(holds({ fact: 'store_id', op: 'eq', value: 's1' }, noStore)).toBe(false);
    expect(holds({ fact: 'store_id', op: 'ne', value: 's1' }, noStore)).toBe(true);
    expect(holds({ fact: 'store_id', op: 'not_in', value: ['s1'] }, noStore)).toBe(true);
    expect(holds({ fact: 'birthday_month', op: 'eq', value: true }, purchase({ birthMonth: 11 }))).toBe(true);
    expect(holds({ fact: 'birthday_month', op: 'eq', value: true }, purchase({ birthMonth: null }))).toBe(false);
  });

  it('computes effects in whole points, rounded down, never through floats', () => {
    const facts = purchase({ amount: '10.01', basePoints: '29.00' });
    expect(effectPoints(definition({ effect: { type: 'per_amount', rate: 0.3333 } }), facts)).toBe(3n);
    expect(effectPoints(definition({ effect: { type: 'per_amount', rate: 100 } }), purchase({ amount: '0.29' }))).toBe(29n);
    expect(effectPoints(definition({ effect: { type: 'multiplier', factor: 1.1 } }), facts)).toBe(2n);
    expect(effectPoints(definition({ effect: { type: 'multiplier', factor: 3, maxPoints: 50 } }), facts)).toBe(50n);
  });

  it('orders by priority then age, stops after a rule that does not stack, and reduces to limits and budgets', () => {
    const rules = [
      rule('low', { effect: FIXED, priority: 1 }),
      rule('exclusive', { effect: { type: 'fixed', points: 5 }, priority: 5, stacks: false }),
      rule('high', { effect: { type: 'fixed', points: 30 }, priority: 9, limits: { member: [{ period: 'week', points: 40 }] } }),
      rule('budget', { effect: { type: 'fixed', points: 30 }, priority: 9 }, 12n),
    ];
    const usage = new Map([['high', { week: { count: 1, points: 25n } }]]);
    const { applied, skipped } = evaluate(rules, purchase(), usage);
    expect(applied.map((outcome) => [outcome.ruleId, outcome.points])).toEqual([
      ['high', '15.00'],
      ['budget', '12.00'],
      ['exclusive', '5.00'],
    ]);
    expect(skipped).toEqual([{ ruleId: 'low', version: 1, name: 'rule', points: '0.00', reason: 'not_stacking' }]);
    const spent = evaluate([rule('daily', { effect: FIXED, limits: { member: [{ period: 'day', count: 1 }] } })], purchase(), new Map([['daily', { day: { count: 1, points: 10n } }]]));
    expect(spent).toEqual({ applied: [], skipped: [expect.objectContaining({ ruleId: 'daily', reason: 'limit' })] });
    expect(evaluate([rule('empty', { effect: FIXED }, 0n)], purchase(), new Map()).skipped[0].reason).toBe('budget');
  });

  it('bounds periods in UTC: days, ISO weeks from Monday, calendar months', () => {
    const sunday = new Date('2026-11-29T23:59:59Z');
    expect(periodStart('day', sunday)).toEqual(new Date('2026-11-29T00:00:00Z'));
    expect(periodStart('week', sunday)).toEqual(new Date('2026-11-23T00:00:00Z'));
    expect(periodEnd('week', sunday)).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(periodStart('month', sunday)).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(periodEnd('month', new Date('2026-12-31T12:00:00Z'))).toEqual(new Date('2027-01-01T00:00:00Z'));
    expect(periodStart('lifetime', sunday)).toBeNull();
  });
});
