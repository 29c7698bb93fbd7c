import { AppError } from '../../core/errors';
import { claimFailure } from '../../subgraphs/reward/surface/v1-claims';
import { v1ErrorOf } from '../../rest-adapter/v1/errors';
import { idempotencyKeyOf } from '../../rest-adapter/v1/idempotency';
import { rewardOf } from '../../subgraphs/reward/surface/v1-rewards';
import { batchAwardFailure, batchAwardVariables } from '../../subgraphs/point/surface/v1-awards';
import { MAX_BATCH_AWARDS } from '../../subgraphs/point/types/award.types';

const fieldsOf = (attempt: () => unknown) => {
  try {
    attempt();
  } catch (error) {
    return (error as AppError).fieldErrors.map((error) => error.field);
  }
  return [];
};

describe('Idempotency-Key', () => {
  it('takes 1 to 255 visible ASCII characters, or none', () => {
    expect(idempotencyKeyOf({ 'idempotency-key': 'order-1:retry' })).toBe('order-1:retry');
    expect(idempotencyKeyOf({})).toBeUndefined();
    for (const bad of ['', 'a b', 'x'.repeat(256), 'clé']) expect(fieldsOf(() => idempotencyKeyOf({ 'idempotency-key': bad }))).toEqual(['Idempotency-Key']);
  });

  it('answers a conflict on the key as IDEMPOTENCY_KEY_REUSED, other conflicts as INVALID_STATE', () => {
    expect(v1ErrorOf(409, 'reused', [{ field: 'Idempotency-Key', message: 'reused' }]).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(v1ErrorOf(409, 'state', undefined).error.code).toBe('INVALID_STATE');
  });
});

describe('batch award variables', () => {
  it('maps rows to the point domain and refuses what is not a list of 1 to the maximum', () => {
    expect(batchAwardVariables({ awards: [{ customerId: 'c', points: 1, reason: 'r' }, 7] })).toEqual({ input: { awards: [{ memberId: 'c', points: 1, reason: 'r' }, 7] } });
    for (const awards of [undefined, {}, [], Array.from({ length: MAX_BATCH_AWARDS + 1 }, () => ({}))]) expect(fieldsOf(() => batchAwardVariables({ awards }))).toEqual(['awards']);
    // The surface's limit is the point domain's: the most rows it takes pass.
    expect(fieldsOf(() => batchAwardVariables({ awards: Array.from({ length: MAX_BATCH_AWARDS }, () => ({})) }))).toEqual([]);
  });

  it("names a row's customer as the caller spelled it", () => {
    const failure = batchAwardFailure({ status: 400, message: 'Validation failed', fieldErrors: [{ field: 'awards.3.memberId', message: 'awards.3.memberId is required' }] });
    expect(failure?.fieldErrors).toEqual([{ field: 'awards.3.customerId', message: 'awards.3.customer_id is required' }]);
  });
});

describe('claim failures', () => {
  const refused = (...codes: string[]) => claimFailure({ status: 400, message: 'x', data: { reasons: codes.map((code) => ({ code, message: code })) } });
  it('answers refusals as 422, eligibility before stock before points', () => {
    expect(refused('NOT_ENOUGH_POINTS')).toEqual({ status: 422, code: 'INSUFFICIENT_POINTS', message: 'NOT_ENOUGH_POINTS' });
    expect(refused('NOT_ENOUGH_POINTS', 'OUT_OF_STOCK')?.code).toBe('OUT_OF_STOCK');
    expect(refused('OUT_OF_STOCK', 'TIER_NOT_INCLUDED', 'NOT_ENOUGH_POINTS')?.code).toBe('NOT_ELIGIBLE');
    for (const code of ['INACTIVE', 'OUTSIDE_WINDOW', 'LIMIT_PER_USER_REACHED', 'QUOTA_REACHED', 'TIER_EXCLUDED']) expect(refused(code)?.code).toBe('NOT_ELIGIBLE');
  });

  it('tells a missing customer from a missing reward, and leaves other failures alone', () => {
    expect(claimFailure({ status: 404, message: 'Member not found', entity: 'Member' })?.code).toBe('CUSTOMER_NOT_FOUND');
    expect(claimFailure({ status: 404, message: 'Reward catalog not found', entity: 'Reward catalog' })?.code).toBe('REWARD_NOT_FOUND');
    expect(claimFailure({ status: 400, message: 'bad', fieldErrors: [{ field: 'id', message: 'id' }] })).toBeUndefined();
    expect(claimFailure({ status: 409, message: 'reused' })).toBeUndefined();
  });
});

describe('v1 reward', () => {
  const catalog = {
    id: 'c1', name_en: null, name_th: 'ชื่อ', name_cn: null, description_en: 'd', description_th: null, description_cn: null, imageUrl: null, isActive: true, status: 'ACTIVE',
    tierCondition: 'INCLUDE' as const, tierRequirement: ['t3', 't2'], redeemRule: { pointUsage: 99.99 },
    reward: { type: 'VOUCHER', imageUrl: 'https://img', stock: 4, stockType: 'LIMITED', deletedAt: null },
  };
  const tiers = [
    { id: 't2', level: 2, name_en: 'Silver', name_th: null, name_cn: null },
    { id: 't3', level: 3, name_en: 'Gold', name_th: null, name_cn: null },
  ];
  it('names the lowest INCLUDE tier, rounds the price down and falls back to the reward image', () => {
    expect(rewardOf(catalog, tiers)).toEqual({ id: 'c1', name: 'ชื่อ', description: 'd', category: 'voucher', pointsRequired: 99, tierRequired: 'Silver', image: 'https://img', available: true, stock: 4 });
    expect(rewardOf({ ...catalog, tierCondition: 'EXCLUDE' }, tiers).tierRequired).toBeNull();
    expect(rewardOf({ ...catalog, isActive: false, reward: { ...catalog.reward, stockType: 'INFINITE' } }, tiers)).toMatchObject({ available: false, stock: null });
  });
});
