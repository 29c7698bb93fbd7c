import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant, member } = usePlatform({ staff: ['marketing', 'tenant'], members: 1 });

const REWARD_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type discountType benefitValue imageUrl
  stock stockType stockInfinite rewardCatalogId storeIds isActive createdAt updatedAt deletedAt
  condition { minimumSpend timeUseWithIn window { start end } } stats { redeemed used total remaining }`;
const CREATE = `mutation ($input: CreateRewardInput!) { createReward(input: $input) { ${REWARD_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateRewardInput!) { updateReward(id: $id, input: $input) { ${REWARD_FIELDS} } }`;
const READ = `query ($id: ID!, $locale: Locale) { reward(id: $id, locale: $locale) { ${REWARD_FIELDS} } }`;
const WINDOW = { start: '2027-01-01T00:00:00.000Z', end: '2027-12-31T23:59:59.000Z' };
const voucher = (overrides: Record<string, unknown> = {}) => ({
  name_en: unique('Voucher '),
  description_en: '10% off',
  type: 'VOUCHER',
  discountType: 'PERCENTAGE',
  benefitValue: 10,
  stock: 5,
  condition: { minimumSpend: 250.5, timeUseWithIn: 30, window: WINDOW },
  ...overrides,
});
const fieldsOf = (body: any) => [...new Set<string>((body.errors?.[0]?.extensions?.errors ?? []).map((error: { field: string }) => error.field))].sort();

describe('rewards through GraphQL', () => {
  it('creates a voucher with reward:manage, exact amounts, and reads it back without a token', async () => {
    const input = voucher({ name_th: 'บัตรกำนัล', storeIds: ['shop-1', 'shop-2'], benefitValue: 12.5 });
    const created = await platform.graphql(CREATE, { input }, marketing.token);
    expect(created.body.errors).toBeUndefined();
    const reward = created.body.data.createReward;
    expect(reward).toEqual({
      id: expect.any(String),
      name_en: input.name_en,
      name_th: 'บัตรกำนัล',
      name_cn: null,
      description_en: '10% off',
      description_th: null,
      description_cn: null,
      type: 'VOUCHER',
      discountType: 'PERCENTAGE',
      benefitValue: 12.5,
      imageUrl: null,
      stock: 5,
      stockType: 'LIMITED',
      stockInfinite: false,
      rewardCatalogId: null,
      storeIds: ['shop-1', 'shop-2'],
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deletedAt: null,
      condition: { minimumSpend: 250.5, timeUseWithIn: 30, window: WINDOW },
      stats: { redeemed: 0, used: 0, total: 5, remaining: 5 },
    });
    const row = (await platform.sql.query('select benefit_value::text, minimum_spend::text, store_ids from reward.reward where id = $1', [reward.id])).rows[0];
    expect(row).toEqual({ benefit_value: '12.50', minimum_spend: '250.50', store_ids: ['shop-1', 'shop-2'] });
    const read = await platform.graphql(READ, { id: reward.id, locale: 'th' });
    expect(read.body.data.reward).toMatchObject({ id: reward.id, name_en: null, name_th: 'บัตรกำนัล', description_th: '10% off' });
  });

  it('refuses callers without reward:manage: 401 without a token, 403 for tenant staff and members', async () => {
    const anonymous = await platform.graphql(CREATE, { input: voucher() });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    for (const token of [tenant.token, member.token]) {
      const refused = await platform.graphql(CREATE, { input: voucher() }, token);
      expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });

  it('applies the rules between fields to creates and to the result of updates', async () => {
    const bare = await platform.graphql(CREATE, { input: { name_en: 'x', description_en: 'y', type: 'VOUCHER' } }, marketing.token);
    expect(bare.body.errors[0].extensions.code).toBe('VALIDATION');
    expect(fieldsOf(bare.body)).toEqual(['benefitValue', 'condition.minimumSpend', 'condition.timeUseWithIn', 'condition.window', 'discountType']);
    const product = await platform.graphql(CREATE, { input: { name_en: 'x', description_en: 'y', type: 'PRODUCT', condition: { timeUseWithIn: 7 } } }, marketing.token);
    expect(fieldsOf(product.body)).toEqual(['condition.window']);
    const points = await platform.graphql(CREATE, { input: { name_en: unique('Points '), description_en: 'y', type: 'POINT', benefitValue: 100 } }, marketing.token);
    expect(points.body.errors).toBeUndefined();
    const percent = await platform.graphql(CREATE, { input: voucher({ benefitValue: 100.01 }) }, marketing.token);
    expect(fieldsOf(percent.body)).toEqual(['benefitValue']);
    const backwards = await platform.graphql(CREATE, { input: voucher({ condition: { minimumSpend: 1, timeUseWithIn: 1, window: { start: WINDOW.end, end: WINDOW.start } } }) }, marketing.token);
    expect(fieldsOf(backwards.body)).toEqual(['condition.window.end']);
    const unknownCatalog = await platform.graphql(CREATE, { input: voucher({ rewardCatalogId: randomUUID() }) }, marketing.token);
    expect(fieldsOf(unknownCatalog.body)).toEqual(['rewardCatalogId']);

    // The POINT reward becomes a voucher: it now needs the voucher's fields; the update is refused whole.
    const { id } = points.body.data.createReward;
    const toVoucher = await platform.graphql(UPDATE, { id, input: { type: 'VOUCHER', name_en: 'Renamed' } }, marketing.token);
    expect(fieldsOf(toVoucher.body)).toEqual(['condition.minimumSpend', 'condition.timeUseWithIn', 'condition.window', 'discountType']);
    expect((await platform.graphql(READ, { id })).body.data.reward).toMatchObject({ type: 'POINT', name_en: points.body.data.createReward.name_en });
    const complete = await platform.graphql(UPDATE, { id, input: { type: 'VOUCHER', discountType: 'AMOUNT', condition: { minimumSpend: 0, timeUseWithIn: 3, window: WINDOW } } }, marketing.token);
    expect(complete.body.data.updateReward).toMatchObject({ type: 'VOUCHER', discountType: 'AMOUNT', benefitValue: 100, condition: { minimumSpend: 0, timeUseWithIn: 3, window: WINDOW } });
    const requiredNull = await platform.graphql(UPDATE, { id, input: { name_en: null, type: null } }, marketing.token);
    expect(fieldsOf(requiredNull.body)).toEqual(['name_en', 'type']);
  });
});
