import { randomInt, randomUUID } from 'node:crypto';
import { callRest, PlatformProcess, platformProcessEnv } from './support/platform-process';
import { useTempDirs } from './support/temp-dirs';
import { PLATFORM_START_TIMEOUT_MS, TestMember, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// Earning rules (issue 29): written through v1 REST and GraphQL, evaluated on the purchase write path
// in the transaction of the purchase, one ledger entry and one application per applied rule.
const RULES = '/api/v1/loyalty/rules';
const SNAKE_KEY = /^[a-z0-9]+(_[a-z0-9]+)*$/;

const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'] });

const api = (method: string, path: string, body?: unknown, token: string = admin.token) => platform.api(method, path, { token, body });
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();
const graphql = async <T>(query: string, variables: Record<string, unknown>, token = admin.token): Promise<T> => {
  const response = await platform.graphql(query, variables, token);
  expect(response.body.errors).toBeUndefined();
  return response.body.data as T;
};
const balanceOf = async (customerId: string) => (await api('GET', `/api/v1/customers/${customerId}/points/balance`)).body.data.balance as number;

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
  return [];
}

/** An active rule; the store condition keeps each test's rules to its own purchases. */
async function activeRule(body: Record<string, unknown>): Promise<{ id: string; version: number }> {
  const created = await api('POST', RULES, { name: unique('Rule '), trigger: 'purchase', ...body });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const activated = await api('POST', `${RULES}/${created.body.data.id}/activate`);
  expect(activated.status).toBe(200);
  return activated.body.data;
}
const atStore = (storeId: string, ...more: unknown[]) => ({ all: [{ fact: 'store_id', op: 'eq', value: storeId }, ...more] });

/** A purchase through v1 (the default shop rule: 1 point per currency unit). */
async function purchase(customerId: string, body: Record<string, unknown>) {
  const response = await api('POST', '/api/v1/transactions', { customer_id: customerId, ...body });
  if (response.status !== 201) throw new Error(`purchase: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; points_earned: number };
}

interface ApplicationRow {
  rule_id: string;
  rule_version: number;
  points: string;
  source_id: string;
  note: string;
  metadata: Record<string, unknown>;
  amount: string;
}
const applicationsOf = async (sourceId: string): Promise<ApplicationRow[]> =>
  (
    await platform.sql.query(
      `select a.rule_id::text, a.rule_version, a.points::text, a.source_id, t.note, t.metadata, t.amount::text
         from point.rule_application a join point.point_transaction t on t.id = a.ledger_entry_id
        where a.source_id = $1 order by t.created_at`,
      [sourceId],
    )
  ).rows;

const simulate = async (body: Record<string, unknown>) => {
  const response = await api('POST', `${RULES}/simulate`, { trigger: 'purchase', ...body });
  expect(response.status).toBe(200);
  return response.body.data as { base_points: number; points: number; applied: Array<{ rule_id: string; points: number }>; skipped: Array<{ rule_id: string; reason: string }> };
};

let customer: TestMember;
beforeAll(async () => {
  customer = await platform.loginMember();
});

describe('/api/v1/loyalty/rules', () => {
  it('creates a rule inactive at version 1 (201, snake_case), reads, lists by status, and versions a changed definition', async () => {
    const created = await api('POST', RULES, {
      name: 'Double points at the flagship',
      trigger: 'purchase',
      conditions: { fact: 'store_id', op: 'eq', value: 'flagship' },
      effect: { type: 'multiplier', factor: 2, max_points: 500 },
      limits: { member: [{ period: 'day', count: 1 }], budget: 10_000 },
      priority: 5,
    });
    expect(created.status).toBe(201);
    const rule = created.body.data;
    expect(rule).toEqual({
      id: expect.any(String),
      name: 'Double points at the flagship',
      description: null,
      trigger: 'purchase',
      conditions: { fact: 'store_id', op: 'eq', value: 'flagship' },
      effect: { type: 'multiplier', factor: 2, max_points: 500 },
      limits: { member: [{ period: 'day', count: 1 }], budget: 10_000 },
      priority: 5,
      stacks: true,
      pending_days: null,
      status: 'inactive',
      version: 1,
      budget_used: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    for (const key of keysOf(created.body)) expect(key).toMatch(SNAKE_KEY);
    expect((await api('GET', `${RULES}/${rule.id}`, undefined, tenant.token)).body.data).toEqual(rule);

    const unchanged = await api('PATCH', `${RULES}/${rule.id}`, { priority: 5, name: 'Double points at the flagship' });
    expect(unchanged.body.data.version).toBe(1);
    const changed = await api('PATCH', `${RULES}/${rule.id}`, { effect: { type: 'multiplier', factor: 3 }, description: 'Weekend push' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ version: 2, effect: { type: 'multiplier', factor: 3 }, description: 'Weekend push', priority: 5 });
    const cleared = await api('PATCH', `${RULES}/${rule.id}`, { limits: null, description: null });
    expect(cleared.body.data).toMatchObject({ version: 3, limits: {}, description: null });

    const { earningRule } = await graphql<{ earningRule: { versions: Array<{ version: number; definition: { effect: unknown }; createdBy: string }> } }>(
      `query ($id: ID!) { earningRule(id: $id) { versions { version definition createdBy } } }`,
      { id: rule.id },
    );
    expect(earningRule.versions.map((version) => version.version)).toEqual([3, 2, 1]);
    expect(earningRule.versions[2].definition.effect).toEqual({ type: 'multiplier', factor: 2, maxPoints: 500 });
    expect(earningRule.versions[0].createdBy).toBe(`staff:${admin.id}`);

    const inactive = await api('GET', `${RULES}?status=inactive&limit=100`);
    expect(inactive.body.data.map((item: { id: string }) => item.id)).toContain(rule.id);
    await api('POST', `${RULES}/${rule.id}/activate`);
    const active = await api('GET', `${RULES}?status=active&limit=100`);
    expect(active.body.data.map((item: { id: string }) => item.id)).toContain(rule.id);
    expect((await api('GET', `${RULES}?status=inactive&limit=100`)).body.data.map((item: { id: string }) => item.id)).not.toContain(rule.id);
    expect((await api('POST', `${RULES}/${rule.id}/deactivate`)).body.data.status).toBe('inactive');

    expect((await api('DELETE', `${RULES}/${rule.id}`)).status).toBe(204);
    for (const path of [`${RULES}/${rule.id}`, `${RULES}/not-an-id`, `${RULES}/${randomUUID()}`]) {
      const gone = await api('GET', path);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('RULE_NOT_FOUND');
    }
    expect((await api('PATCH', `${RULES}/${rule.id}`, { priority: 1 })).status).toBe(404);
    expect((await api('POST', `${RULES}/${rule.id}/activate`)).status).toBe(404);
  });

  it('refuses a bad definition with 400 naming every bad path, and creates nothing', async () => {
    const before = (await platform.sql.query('select count(*)::int as n from point.earning_rule')).rows[0].n;
    const refused = await api('POST', RULES, {
      name: '',
      trigger: 'purchase',
      conditions: {
        all: [
          { fact: 'store_id', op: 'eq', value: 'a' },
          { fact: 'amount', op: 'gte', value: 'ten' },
          { fact: 'weekday', op: 'in', value: [6, 8] },
          { fact: 'shoe_size', op: 'eq', value: 1 },
          { any: [] },
          { not: { fact: 'occurred_at', op: 'between', value: ['2026-12-31T00:00:00Z', '2026-12-01T00:00:00Z'] } },
          { fact: 'category', op: 'contains', value: 'x' },
        ],
      },
      effect: { type: 'per_amount', rate: 0.12345, bonus: 1 },
      limits: { member: [{ period: 'fortnight' }], budget: -1 },
      priority: 1001,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(refused.body)).toEqual([
      'conditions.all[1].value',
      'conditions.all[2].value[1]',
      'conditions.all[3].fact',
      'conditions.all[4].any',
      'conditions.all[5].not.value',
      'conditions.all[6].op',
      'effect.bonus',
      'effect.rate',
      'limits.budget',
      'limits.member[0]',
      'limits.member[0].period',
      'name',
      'priority',
    ]);
    const unknownTrigger = await api('POST', RULES, { name: 'x', trigger: 'custom_event:survey', effect: { type: 'fixed', points: 1 } });
    expect(detailFields(unknownTrigger.body)).toEqual(['trigger']);
    const deep = { fact: 'amount', op: 'gt', value: 1 } as Record<string, unknown>;
    let nested: Record<string, unknown> = deep;
    for (let level = 0; level < 10; level++) nested = { not: nested };
    const tooDeep = await api('POST', RULES, { name: 'x', trigger: 'purchase', conditions: nested, effect: { type: 'fixed', points: 1 } });
    expect(tooDeep.status).toBe(400);
    expect(detailFields(tooDeep.body)[0]).toMatch(/^conditions(\.not)+$/);
    const strange = await api('POST', RULES, {
      name: 'x\u0000',
      trigger: 'purchase',
      conditions: JSON.parse('{"__proto__": {"fact": "amount"}, "fact": "store_id", "op": "eq", "value": "\\ud800"}'),
      effect: { type: 'fixed', points: 1.5 },
    });
    expect(strange.status).toBe(400);
    expect(detailFields(strange.body)).toEqual(expect.arrayContaining(['name']));
    const nullEffect = await api('POST', RULES, { name: 'x', trigger: 'purchase', effect: null });
    expect(nullEffect.status).toBe(400);
    expect(detailFields(nullEffect.body)).toEqual(['effect']);
    const nullValue = await api('POST', RULES, { name: 'x', trigger: 'purchase', effect: { type: 'fixed', points: 1 }, conditions: { fact: 'amount', op: 'gt', value: null } });
    expect(detailFields(nullValue.body)).toEqual(['conditions.value']);
    expect((await platform.sql.query('select count(*)::int as n from point.earning_rule')).rows[0].n).toBe(before);
  });

  it('lets only admin write rules (marketing and tenant 403), any staff with point:read read them, customers neither', async () => {
    const body = { name: 'x', trigger: 'purchase', effect: { type: 'fixed', points: 1 } };
    for (const token of [marketing.token, tenant.token, customer.token]) {
      const refused = await api('POST', RULES, body, token);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('insufficient_scope');
    }
    expect((await api('GET', RULES, undefined, marketing.token)).status).toBe(200);
    expect((await api('GET', RULES, undefined, customer.token)).status).toBe(403);
    const graphqlRefused = await platform.graphql(`mutation ($input: EarningRuleInput!) { createEarningRule(input: $input) { id } }`, { input: body }, marketing.token);
    expect(graphqlRefused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('earning on a purchase', () => {
  it('applies fixed, per-amount and multiplier effects in one transaction: one ledger entry and one application each, naming the rule version', async () => {
    const storeId = unique('store');
    const fixed = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 50 }, priority: 3 });
    const perAmount = await activeRule({ conditions: atStore(storeId, { fact: 'amount', op: 'between', value: [100, 200] }), effect: { type: 'per_amount', rate: 0.5 }, priority: 2 });
    const multiplier = await activeRule({ conditions: atStore(storeId), effect: { type: 'multiplier', factor: 2.5, max_points: 1000 }, priority: 1 });
    const member = await platform.loginMember();
    const bought = await purchase(member.id, { amount: 150.99, store_id: storeId });
    // base 150, fixed 50, per amount trunc(150.99 × 0.5) = 75, multiplier trunc(150 × 1.5) = 225
    expect(bought.points_earned).toBe(150 + 50 + 75 + 225);
    expect(await balanceOf(member.id)).toBe(500);
    const applied = await applicationsOf(bought.id);
    expect(applied.map((row) => [row.rule_id, row.rule_version, row.points, row.amount])).toEqual([
      [fixed.id, 1, '50.00', '50.00'],
      [perAmount.id, 1, '75.00', '75.00'],
      [multiplier.id, 1, '225.00', '225.00'],
    ]);
    expect(applied[0].metadata).toEqual({ earningRuleId: fixed.id, earningRuleVersion: 1 });
    expect(applied[0].note).toMatch(/^Earning rule ".+" \(version 1\)$/);

    // Outside the amount range the per-amount rule does not hold; a new version is what later purchases record.
    await api('PATCH', `${RULES}/${fixed.id}`, { effect: { type: 'fixed', points: 60 } });
    const small = await purchase(member.id, { amount: 10, store_id: storeId });
    expect(small.points_earned).toBe(10 + 60 + 15);
    expect((await applicationsOf(small.id)).map((row) => [row.rule_id, row.rule_version])).toEqual([
      [fixed.id, 2],
      [multiplier.id, 1],
    ]);
    const { earningRuleApplications } = await graphql<{ earningRuleApplications: { meta: { total: number }; data: Array<{ ruleId: string; ruleVersion: number; points: number }> } }>(
      `query ($sourceId: String) { earningRuleApplications(sourceId: $sourceId) { meta { total } data { ruleId ruleVersion points } } }`,
      { sourceId: small.id },
    );
    expect(earningRuleApplications.meta.total).toBe(2);
    expect(earningRuleApplications.data).toEqual(expect.arrayContaining([{ ruleId: fixed.id, ruleVersion: 2, points: 60 }]));
    // A purchase at another store earns by none of them.
    expect((await purchase(member.id, { amount: 150.99, store_id: unique('other') })).points_earned).toBe(150);
  });

  it('tests category, first purchase in a category, weekdays, date windows, any and not', async () => {
    const storeId = unique('store');
    const shoes = unique('shoes');
    const firstShoes = await activeRule({ conditions: atStore(storeId, { fact: 'first_in_category', op: 'eq', value: true }, { fact: 'category', op: 'in', value: [shoes] }), effect: { type: 'fixed', points: 50 } });
    const weekend = await activeRule({ conditions: atStore(storeId, { fact: 'weekday', op: 'in', value: [6, 7] }), effect: { type: 'fixed', points: 7 } });
    const december = await activeRule({
      conditions: atStore(storeId, { fact: 'occurred_at', op: 'between', value: ['2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'] }),
      effect: { type: 'fixed', points: 12 },
    });
    const notShoesOrBig = await activeRule({ conditions: atStore(storeId, { any: [{ not: { fact: 'category', op: 'eq', value: shoes } }, { fact: 'amount', op: 'gt', value: 1000 }] }), effect: { type: 'fixed', points: 3 } });
    const member = await platform.loginMember();
    // 2026-11-28 is a Saturday in November.
    const first = await purchase(member.id, { amount: 1, store_id: storeId, category: shoes, occurred_at: '2026-11-28T10:00:00Z' });
    expect((await applicationsOf(first.id)).map((row) => row.rule_id)).toEqual([firstShoes.id, weekend.id]);
    // 2026-11-26 is a Thursday; not the first in shoes any more.
    const second = await purchase(member.id, { amount: 1, store_id: storeId, category: shoes, occurred_at: '2026-11-26T10:00:00Z' });
    expect(await applicationsOf(second.id)).toEqual([]);
    const other = await purchase(member.id, { amount: 1, store_id: storeId, category: unique('hats'), occurred_at: '2026-11-26T10:00:00Z' });
    expect((await applicationsOf(other.id)).map((row) => row.rule_id)).toEqual([notShoesOrBig.id]);
    expect(december.id).toBeDefined();
    const simulated = await simulate({ customer_id: member.id, amount: 1, store_id: storeId, category: shoes, occurred_at: '2026-12-05T10:00:00Z' });
    // 2026-12-05 is a Saturday in December; shoes again, so not the first.
    expect(simulated.applied.map((outcome) => outcome.rule_id).sort()).toEqual([weekend.id, december.id].sort());
  });

  it("tests the member's tier, birth month and segments", async () => {
    const storeId = unique('store');
    const member = await platform.loginMember();
    const tierId = (
      await graphql<{ createTier: { id: string } }>(`mutation ($input: CreateTierInput!) { createTier(input: $input) { id } }`, {
        input: { name_en: unique('Gold '), description_en: 'd', level: randomInt(1_000, 999_000), requirement: { purchaseAmountHit: 999_999_999 } },
      })
    ).createTier.id;
    const segmentId = (await graphql<{ createSegment: { id: string } }>(`mutation ($input: CreateSegmentInput!) { createSegment(input: $input) { id } }`, { input: { name_en: unique('VIP '), type: 'manual' } }))
      .createSegment.id;
    const gold = await activeRule({ conditions: atStore(storeId, { fact: 'tier', op: 'eq', value: tierId }), effect: { type: 'multiplier', factor: 3 } });
    const birthday = await activeRule({ conditions: atStore(storeId, { fact: 'birthday_month', op: 'eq', value: true }), effect: { type: 'fixed', points: 100 } });
    const vip = await activeRule({ conditions: atStore(storeId, { fact: 'segments', op: 'contains', value: segmentId }), effect: { type: 'fixed', points: 5 } });
    const before = await purchase(member.id, { amount: 10, store_id: storeId, occurred_at: '2026-05-10T10:00:00Z' });
    expect(before.points_earned).toBe(10);

    await graphql(`mutation ($input: AssignTierInput!) { assignTier(input: $input) { id } }`, { input: { memberId: member.id, tierId } });
    expect((await api('PUT', '/auth/api/members/me', { birthDate: '1990-05-17' }, member.token)).status).toBe(200);
    await graphql(`mutation ($id: ID!, $memberIds: [ID!]!) { addSegmentMembers(id: $id, memberIds: $memberIds) { changed } }`, { id: segmentId, memberIds: [member.id] });
    await waitFor(async () => {
      const { rows } = await platform.sql.query('select tier_id, birth_month from point.member_profile where member_id = $1', [member.id]);
      return rows[0]?.tier_id === tierId && rows[0]?.birth_month === 5;
    }, "the member's tier and birth month in point's projection");
    const after = await purchase(member.id, { amount: 10, store_id: storeId, occurred_at: '2026-05-10T10:00:00Z' });
    expect((await applicationsOf(after.id)).map((row) => [row.rule_id, row.points])).toEqual([
      [gold.id, '20.00'],
      [birthday.id, '100.00'],
      [vip.id, '5.00'],
    ]);
    const june = await purchase(member.id, { amount: 10, store_id: storeId, occurred_at: '2026-06-10T10:00:00Z' });
    expect((await applicationsOf(june.id)).map((row) => row.rule_id)).toEqual([gold.id, vip.id]);
  });
});

describe('limits, budgets and stacking', () => {
  it('applies a rule at most as often and as much as its member limits allow, per period of when the purchase happened', async () => {
    const storeId = unique('store');
    const daily = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 10 }, limits: { member: [{ period: 'day', count: 1 }] } });
    const weekly = await activeRule({ conditions: atStore(storeId), effect: { type: 'per_amount', rate: 1 }, limits: { member: [{ period: 'week', points: 30 }, { period: 'lifetime', count: 3 }] } });
    const member = await platform.loginMember();
    const on = (day: string, amount = 20) => purchase(member.id, { amount, store_id: storeId, occurred_at: `${day}T10:00:00Z` });
    const applied = async (day: string, amount?: number) => (await applicationsOf((await on(day, amount)).id)).map((row) => [row.rule_id, row.points]);
    // Monday 2026-11-16 .. Sunday 2026-11-22 is one ISO week.
    expect(await applied('2026-11-16')).toEqual([
      [daily.id, '10.00'],
      [weekly.id, '20.00'],
    ]);
    expect(await applied('2026-11-16')).toEqual([[weekly.id, '10.00']]);
    expect(await applied('2026-11-22')).toEqual([[daily.id, '10.00']]);
    expect(await applied('2026-11-23')).toEqual([
      [daily.id, '10.00'],
      [weekly.id, '20.00'],
    ]);
    expect(await applied('2026-11-24')).toEqual([[daily.id, '10.00']]);
    const skipped = await simulate({ customer_id: member.id, amount: 20, store_id: storeId, occurred_at: '2026-11-24T11:00:00Z' });
    expect(skipped.applied).toEqual([]);
    expect(skipped.skipped).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule_id: daily.id, reason: 'limit' }), expect.objectContaining({ rule_id: weekly.id, reason: 'limit' })]),
    );
  });

  it('never gives past a budget, the last application reduced to what is left', async () => {
    const storeId = unique('store');
    const budgeted = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 40 }, limits: { budget: 100 } });
    const [one, two, three] = [await platform.loginMember(), await platform.loginMember(), await platform.loginMember()];
    const points = async (member: TestMember) => (await applicationsOf((await purchase(member.id, { amount: 1, store_id: storeId })).id)).map((row) => row.points);
    expect(await points(one)).toEqual(['40.00']);
    expect(await points(two)).toEqual(['40.00']);
    expect(await points(three)).toEqual(['20.00']);
    expect(await points(one)).toEqual([]);
    expect((await api('GET', `${RULES}/${budgeted.id}`)).body.data.budget_used).toBe(100);
  });

  it('evaluates by priority, higher first; after a rule that does not stack applies, no later rule does', async () => {
    const storeId = unique('store');
    const low = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 1 }, priority: 1 });
    const exclusive = await activeRule({ conditions: atStore(storeId, { fact: 'amount', op: 'gte', value: 100 }), effect: { type: 'fixed', points: 100 }, priority: 50, stacks: false });
    const high = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 10 }, priority: 100 });
    const member = await platform.loginMember();
    const big = await purchase(member.id, { amount: 100, store_id: storeId });
    expect((await applicationsOf(big.id)).map((row) => row.rule_id)).toEqual([high.id, exclusive.id]);
    const small = await purchase(member.id, { amount: 99, store_id: storeId });
    expect((await applicationsOf(small.id)).map((row) => row.rule_id)).toEqual([high.id, low.id]);
    const simulated = await simulate({ customer_id: member.id, amount: 100, store_id: storeId });
    expect(simulated.skipped).toEqual([expect.objectContaining({ rule_id: low.id, reason: 'not_stacking' })]);
  });

  it('counts concurrent purchases of one member against its limits one after another, and concurrent members against a budget', async () => {
    const storeId = unique('store');
    const daily = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 10 }, limits: { member: [{ period: 'day', count: 1 }] } });
    const budgeted = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 7 }, limits: { budget: 50 } });
    const member = await platform.loginMember();
    const others = await Promise.all(Array.from({ length: 6 }, () => platform.loginMember()));
    await Promise.all([
      ...Array.from({ length: 8 }, () => purchase(member.id, { amount: 1, store_id: storeId, occurred_at: '2026-11-20T10:00:00Z' })),
      ...others.map((other) => purchase(other.id, { amount: 1, store_id: storeId, occurred_at: '2026-11-20T10:00:00Z' })),
    ]);
    const { rows } = await platform.sql.query(
      `select rule_id::text, count(*) filter (where member_id = $1)::int as mine, coalesce(sum(points), 0)::text as points from point.rule_application where rule_id in ($2, $3) group by rule_id`,
      [member.id, daily.id, budgeted.id],
    );
    const byRule = Object.fromEntries(rows.map((row) => [row.rule_id, row]));
    expect(byRule[daily.id].mine).toBe(1);
    expect(byRule[budgeted.id].points).toBe('50.00');
    expect((await api('GET', `${RULES}/${budgeted.id}`)).body.data.budget_used).toBe(50);
  });
});

describe('exactly once, dry runs and refunds', () => {
  it('earns once for concurrent duplicates of one purchase (one external id)', async () => {
    const storeId = unique('store');
    const rule = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 25 } });
    const member = await platform.loginMember();
    const externalId = unique('till');
    const answers = await Promise.all(Array.from({ length: 6 }, () => purchase(member.id, { amount: 10, store_id: storeId, external_id: externalId })));
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1);
    expect(answers.every((answer) => answer.points_earned === 35)).toBe(true);
    expect((await applicationsOf(answers[0].id)).map((row) => row.rule_id)).toEqual([rule.id]);
    expect(await balanceOf(member.id)).toBe(35);
  });

  it('simulates exactly what the purchase then writes, and writes nothing itself', async () => {
    const storeId = unique('store');
    await activeRule({ conditions: atStore(storeId), effect: { type: 'multiplier', factor: 1.5 }, limits: { member: [{ period: 'lifetime', points: 100 }] } });
    await activeRule({ conditions: atStore(storeId, { fact: 'amount', op: 'lt', value: 50 }), effect: { type: 'fixed', points: 9 } });
    const member = await platform.loginMember();
    for (const amount of [37.5, 120, 300, 12]) {
      const predicted = await simulate({ customer_id: member.id, amount, store_id: storeId });
      const bought = await purchase(member.id, { amount, store_id: storeId });
      expect(bought.points_earned).toBe(predicted.points);
      expect((await applicationsOf(bought.id)).map((row) => [row.rule_id, Number(row.points)])).toEqual(predicted.applied.map((outcome) => [outcome.rule_id, outcome.points]));
    }
    const unknown = await api('POST', `${RULES}/simulate`, { trigger: 'purchase', customer_id: randomUUID(), amount: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    const bad = await api('POST', `${RULES}/simulate`, { trigger: 'purchase', customer_id: member.id, amount: -1 });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['amount']);
  });

  it('takes rule points back with the purchase on a refund, in proportion', async () => {
    const storeId = unique('store');
    await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 100 } });
    const member = await platform.loginMember();
    const bought = await purchase(member.id, { amount: 100, store_id: storeId });
    expect(bought.points_earned).toBe(200);
    const refunded = await api('POST', `/api/v1/transactions/${bought.id}/refund`, { amount: 50 });
    expect(refunded.body.data).toMatchObject({ points_reversed: 100, status: 'partially_refunded' });
    expect(await balanceOf(member.id)).toBe(100);
  });

  it('applies the rules to an approved receipt as to a purchase', async () => {
    const storeId = unique('store');
    const rule = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 33 } });
    const member = await platform.loginMember();
    const submitted = await platform.sql.query(
      `insert into point.receipt_verification (id, member_id, receipt_image_url, status, created_at, updated_at) values ($1, $2, 'https://example.test/r.png', 'PENDING', now(), now()) returning id`,
      [randomUUID(), member.id],
    );
    const id = submitted.rows[0].id;
    const approved = await api('POST', `/point/api/receipt/verify/${id}/manual`, { approved: true, money: 10, shopId: storeId, reviewReason: 'Clear photo' }, marketing.token);
    expect(approved.status).toBe(200);
    expect((await applicationsOf(id)).map((row) => [row.rule_id, row.points])).toEqual([[rule.id, '33.00']]);
    expect(await balanceOf(member.id)).toBe(43);
  });
});

describe('two platform processes on one database', () => {
  // Each process keeps the active rules and checks them against the rule book's version in every
  // evaluating transaction: a rule changed through one process applies at once to purchases through the other.
  const tempDir = useTempDirs('loyalty-rules');
  const other = new PlatformProcess(() =>
    platformProcessEnv(
      { databaseUrl: process.env.TEST_DATABASE_URL!, dataDir: tempDir(), admin: { email: 'unused@example.com', password: 'unused-password' }, chatappUrl: platform.chatapp.url },
      { JWT_SECRET: platform.config.jwtSecret, RATE_LIMIT_STANDARD_PER_HOUR: '1000000', RATE_LIMIT_PREMIUM_PER_HOUR: '1000000' },
    ),
  );
  type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  const onA: Call = (method, path, body) => api(method, path, body);
  let onB: Call;
  beforeAll(async () => {
    const rest = await other.start();
    onB = (method, path, body) => callRest(rest, method, path, body, admin.token);
  }, PLATFORM_START_TIMEOUT_MS);
  afterAll(() => other.kill('SIGTERM'));

  it('applies a rule activated through one process to the next purchase through the other, and stops once it is deactivated through the other', async () => {
    const storeId = unique('store');
    const member = await platform.loginMember();
    const earned = async (call: Call) => {
      const response = await call('POST', '/api/v1/transactions', { customer_id: member.id, amount: 10, store_id: storeId });
      expect(response.status).toBe(201);
      return response.body.data.points_earned as number;
    };
    // A purchase through each process first, so that both keep the book as it was before the rule.
    expect(await earned(onA)).toBe(10);
    expect(await earned(onB)).toBe(10);
    const rule = await activeRule({ conditions: atStore(storeId), effect: { type: 'fixed', points: 25 } });
    expect(await earned(onB)).toBe(35);
    expect(await earned(onA)).toBe(35);
    expect((await onB('POST', `${RULES}/${rule.id}/deactivate`)).body.data.status).toBe('inactive');
    expect(await earned(onA)).toBe(10);
    expect(await earned(onB)).toBe(10);
  });
});
