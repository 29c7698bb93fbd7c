import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { randomInt, randomUUID } from 'node:crypto';
import { DomainCalls } from '../core/domain-calls';
import { OperationExecutor } from '../core/graphql-http';
import { openModuleOrm } from '../core/module';
import { rewardModule } from '../subgraphs/reward/module';
import { rewardDeps } from '../subgraphs/reward/reward-deps';
import { RECOVER_REDEMPTIONS_QUEUE, recoverRedemptions } from '../subgraphs/reward/services/redemption-recovery';
import { redemptionTestHooks } from '../subgraphs/reward/services/redemption-test-hooks';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant, member } = usePlatform({ staff: ['marketing', 'tenant'], members: 1 });

const CATALOGS = '/reward/api/reward-catalogs';
const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const CONCURRENT = 120;

/** The reward schema opened by the test itself, to run the recovery job directly (as the platform's job does). */
let orm: MikroORM<PostgreSqlDriver>;
beforeAll(async () => {
  orm = await openModuleOrm(rewardModule, process.env.TEST_DATABASE_URL!);
});
afterAll(() => orm?.close());
afterEach(() => redemptionTestHooks.clear());

const rows = async (sql: string, params: unknown[] = []) => (await platform.sql.query(sql, params)).rows;

/** A POINT reward (no condition needed) with its stock. */
async function createReward(stock: number, stockType = 'LIMITED'): Promise<string> {
  const input = { name_en: unique('Redeemable '), description_en: 'd', type: 'POINT', benefitValue: 10, stock, stockType };
  const created = await platform.graphql(`mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`, { input }, marketing.token);
  expect(created.body.errors).toBeUndefined();
  return created.body.data.createReward.id;
}

/** A catalog of a fresh reward with `stock` units, 100 points a redemption unless overridden. */
async function createCatalog(overrides: Record<string, unknown> = {}, stock = 10, stockType = 'LIMITED'): Promise<{ id: string; rewardId: string }> {
  const rewardId = await createReward(stock, stockType);
  const response = await platform.api('POST', CATALOGS, {
    token: marketing.token,
    body: { name_en: unique('Catalog '), description_en: 'd', rewardId, redeemRule: { pointUsage: 100 }, ...overrides },
  });
  expect(response.status).toBe(201);
  return { id: response.body.data.id, rewardId };
}

async function earn(memberId: string, amount: number): Promise<void> {
  const earned = await platform.api('POST', '/point/api/earn', { token: marketing.token, body: { memberId, amount } });
  expect(earned.status).toBe(200);
}

/** A member straight in the auth schema (staff redeem for it by id), holding `points`. */
async function newMember(points = 0): Promise<string> {
  const id = randomUUID();
  await platform.sql.query(`insert into auth.member (id, name, status, created_at, updated_at) values ($1, 'Redeemer', 'ACTIVE', now(), now())`, [id]);
  if (points > 0) await earn(id, points);
  return id;
}

/** A member logged in through the chat-app flow, holding `points`. */
async function loggedInMember(points = 0) {
  const logged = await platform.loginMember();
  if (points > 0) await earn(logged.id, points);
  return logged;
}

const balance = async (memberId: string) => Number((await rows('select point_amount::text as p from point.point_balance where member_id = $1', [memberId]))[0]?.p ?? 0);

interface RedeemOptions {
  token?: string;
  /** The Idempotency-Key; a fresh one unless given, none when null. */
  key?: string | null;
  memberId?: string;
}
const redeem = (catalogId: string, { token = marketing.token, key, memberId }: RedeemOptions = {}) =>
  platform.api('POST', `${CATALOGS}/${catalogId}/redeem`, {
    token,
    body: memberId === undefined ? {} : { memberId },
    headers: key === null ? {} : { 'idempotency-key': key ?? randomUUID() },
  });
const canRedeem = (catalogId: string, token: string, memberId?: string) =>
  platform.api('GET', `${CATALOGS}/${catalogId}/can-redeem${memberId ? `?memberId=${memberId}` : ''}`, { token });
const reasonCodes = (response: { body: any }) => (response.body.data.reasons ?? response.body.data.data?.reasons).map((reason: { code: string }) => reason.code);

/** What the three stores hold for a catalog: the reward's stock and counts, the codes and redemptions here, the points spent in the point domain. */
async function stores(catalogId: string) {
  const [counts] = await rows(
    `select r.stock, r.redeemed_count as "rewardRedeemed", c.redeemed_count as "catalogRedeemed"
       from reward.reward_catalog c join reward.reward r on r.id = c.reward_id where c.id = $1`,
    [catalogId],
  );
  const [codes] = await rows('select count(*)::int as n from reward.reward_code where reward_catalog_id = $1', [catalogId]);
  const states = await rows('select state, count(*)::int as n from reward.redemption where reward_catalog_id = $1 group by state', [catalogId]);
  const [spent] = await rows(
    `select count(*)::int as n, coalesce(sum(amount), 0)::text as total from point.point_transaction
      where action_type = 'SPEND' and source_by = 'Reward' and note like $1`,
    [`% of reward catalog ${catalogId}`],
  );
  const byState = Object.fromEntries(states.map((row) => [row.state, row.n]));
  return {
    stock: counts.stock as number,
    rewardRedeemed: counts.rewardRedeemed as number,
    catalogRedeemed: counts.catalogRedeemed as number,
    codes: codes.n as number,
    completed: (byState.COMPLETED ?? 0) as number,
    pending: (byState.PENDING ?? 0) as number,
    failed: (byState.FAILED ?? 0) as number,
    spends: spent.n as number,
    spent: Number(spent.total),
  };
}

/** The three stores agree: every completed redemption has its code, its unit of stock and its points, and nothing else was taken. */
async function expectAgreement(catalogId: string, initialStock: number, pointUsage: number, completed: number) {
  expect(await stores(catalogId)).toEqual(
    expect.objectContaining({
      stock: initialStock - completed,
      rewardRedeemed: completed,
      catalogRedeemed: completed,
      codes: completed,
      completed,
      pending: 0,
      spends: completed,
      spent: completed * pointUsage,
    }),
  );
}

const redemptionOf = async (memberId: string, catalogId: string) =>
  (await rows('select * from reward.redemption where member_id = $1 and reward_catalog_id = $2 order by created_at', [memberId, catalogId]));
/** The recovery job as the platform runs it (the point domain's own code in this process), or, given a gateway, as when the point domain runs elsewhere. */
const recover = (gateway?: OperationExecutor) =>
  recoverRedemptions(orm, rewardDeps(platform.config, gateway ?? platform.executors.gateway, gateway ? new DomainCalls() : platform.calls).calls, { olderThanMs: 0 });
const crash = (step: 'reserved' | 'spent') =>
  redemptionTestHooks.once(step, async () => {
    throw new Error(`simulated crash after step ${step}`);
  });

/** A tier no member reaches by points (its requirement is out of reach), for tier conditions. */
async function createTier(): Promise<string> {
  const input = { name_en: unique('Redeem tier '), description_en: 'd', level: randomInt(1_000, 999_000), requirement: { purchaseAmountHit: 999_999_999 } };
  const created = await platform.graphql(`mutation ($input: CreateTierInput!) { createTier(input: $input) { id } }`, { input }, marketing.token);
  expect(created.body.errors).toBeUndefined();
  return created.body.data.createTier.id;
}
async function assignTier(memberId: string, tierId: string): Promise<void> {
  const assigned = await platform.graphql(`mutation ($input: AssignTierInput!) { assignTier(input: $input) { id } }`, { input: { memberId, tierId } }, marketing.token);
  expect(assigned.body.errors).toBeUndefined();
}

describe('can-redeem (GET /reward-catalogs/:id/can-redeem, canRedeemRewardCatalog)', () => {
  it('answers {canRedeem: true, reasons: []} for a member who may redeem, through REST and GraphQL', async () => {
    const redeemer = await loggedInMember(100);
    const catalog = await createCatalog();
    const response = await canRedeem(catalog.id, redeemer.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { canRedeem: true, reasons: [] } });
    const query = `query ($id: ID!) { canRedeemRewardCatalog(id: $id) { canRedeem reasons { code message } } }`;
    expect((await platform.graphql(query, { id: catalog.id }, redeemer.token)).body).toEqual({ data: { canRedeemRewardCatalog: { canRedeem: true, reasons: [] } } });
  });

  it('names each failing rule with its stable code and a message', async () => {
    const poor = await loggedInMember(99.99);
    const rich = await loggedInMember(10_000);
    const cases: Array<[string, Record<string, unknown>, number, string[]]> = [
      ['inactive catalog', { isActive: false }, 10, ['INACTIVE']],
      ['window not open yet', { window: { start: at(1), end: at(5) } }, 10, ['OUTSIDE_WINDOW']],
      ['window closed', { window: { start: at(-5), end: at(-1) } }, 10, ['OUTSIDE_WINDOW']],
      ['out of stock', {}, 0, ['OUT_OF_STOCK']],
      ['tier not included (the member has none)', { tierCondition: 'INCLUDE', tierRequirement: [randomUUID()] }, 10, ['TIER_NOT_INCLUDED']],
    ];
    for (const [what, overrides, stock, expected] of cases) {
      const catalog = await createCatalog(overrides, stock);
      const response = await canRedeem(catalog.id, rich.token);
      expect({ what, status: response.status, canRedeem: response.body.data.canRedeem, codes: reasonCodes(response) }).toEqual({ what, status: 200, canRedeem: false, codes: expected });
      expect(response.body.data.reasons.every((reason: { message: string }) => reason.message.length > 0)).toBe(true);
    }
    const pricey = await createCatalog({ redeemRule: { pointUsage: 100 } });
    const short = await canRedeem(pricey.id, poor.token);
    expect(short.body.data).toEqual({ canRedeem: false, reasons: [{ code: 'NOT_ENOUGH_POINTS', message: 'Redeeming needs 100 points; the balance is 99.99' }] });
    // Every failing rule at once, in a fixed order.
    const everything = await createCatalog({ isActive: false, window: { start: at(-5), end: at(-1) }, tierCondition: 'INCLUDE', tierRequirement: ['gold'] }, 0);
    expect(reasonCodes(await canRedeem(everything.id, poor.token))).toEqual(['INACTIVE', 'OUTSIDE_WINDOW', 'OUT_OF_STOCK', 'TIER_NOT_INCLUDED', 'NOT_ENOUGH_POINTS']);
  });

  it('reads the tier from the cluster domain: INCLUDE lets the listed tiers in, EXCLUDE keeps them out', async () => {
    const [gold, silver] = [await createTier(), await createTier()];
    const goldMember = await loggedInMember(500);
    await assignTier(goldMember.id, gold);
    const tierless = await loggedInMember(500);
    const goldOnly = await createCatalog({ tierCondition: 'INCLUDE', tierRequirement: [gold] });
    const notGold = await createCatalog({ tierCondition: 'EXCLUDE', tierRequirement: [gold] });
    const notSilver = await createCatalog({ tierCondition: 'EXCLUDE', tierRequirement: [silver] });
    expect(reasonCodes(await canRedeem(goldOnly.id, goldMember.token))).toEqual([]);
    expect(reasonCodes(await canRedeem(goldOnly.id, tierless.token))).toEqual(['TIER_NOT_INCLUDED']);
    expect(reasonCodes(await canRedeem(notGold.id, goldMember.token))).toEqual(['TIER_EXCLUDED']);
    expect(reasonCodes(await canRedeem(notGold.id, tierless.token))).toEqual([]);
    expect(reasonCodes(await canRedeem(notSilver.id, goldMember.token))).toEqual([]);
    // Redemption applies the same rule.
    const refused = await redeem(notGold.id, { token: goldMember.token });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toEqual({ message: "The member's tier is excluded from this catalog", data: { reasons: [{ code: 'TIER_EXCLUDED', message: "The member's tier is excluded from this catalog" }] } });
    expect((await redeem(goldOnly.id, { token: goldMember.token })).status).toBe(201);
  });

  it('counts the limit per member and the quota of the period over completed redemptions', async () => {
    const first = await loggedInMember(1000);
    const second = await loggedInMember(1000);
    const limited = await createCatalog({ redeemRule: { pointUsage: 100, limitPerUser: 1 } });
    expect((await redeem(limited.id, { token: first.token })).status).toBe(201);
    expect(reasonCodes(await canRedeem(limited.id, first.token))).toEqual(['LIMIT_PER_USER_REACHED']);
    expect(reasonCodes(await canRedeem(limited.id, second.token))).toEqual([]);

    const quota = await createCatalog({ quota: { type: 'month', numberInPeriod: 1, limitPerPeriod: 1 } });
    expect((await redeem(quota.id, { token: first.token })).status).toBe(201);
    const reached = await canRedeem(quota.id, second.token);
    expect(reasonCodes(reached)).toEqual(['QUOTA_REACHED']);
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1)).toISOString();
    expect(reached.body.data.reasons[0].message).toBe(`The quota of 1 redemptions is used up until ${nextMonth}`);
    expect((await redeem(quota.id, { token: second.token })).body.data.data.reasons.map((reason: { code: string }) => reason.code)).toEqual(['QUOTA_REACHED']);
  });

  it('lets reward:manage ask for a member it names; refuses other callers', async () => {
    const memberId = await newMember(100);
    const catalog = await createCatalog();
    expect((await canRedeem(catalog.id, marketing.token, memberId)).body.data).toEqual({ canRedeem: true, reasons: [] });
    const withoutMember = await canRedeem(catalog.id, marketing.token);
    expect(withoutMember.status).toBe(400);
    expect(withoutMember.body.data.errors).toEqual([{ field: 'memberId', message: 'memberId is required' }]);
    expect((await canRedeem(catalog.id, marketing.token, 'not-a-uuid')).status).toBe(400);
    expect((await canRedeem(catalog.id, marketing.token, randomUUID())).status).toBe(404);
    expect((await canRedeem(catalog.id, tenant.token, memberId)).status).toBe(403);
    expect((await canRedeem(catalog.id, member.token, memberId)).status).toBe(403);
    expect((await canRedeem(catalog.id, member.token, member.id)).status).toBe(200);
    expect((await canRedeem(catalog.id, '')).status).toBe(401);
    expect((await canRedeem(randomUUID(), member.token)).status).toBe(404);
    expect((await canRedeem('not-an-id', member.token)).status).toBe(404);
  });
});

describe('redemption (POST /reward-catalogs/:id/redeem, redeemRewardCatalog)', () => {
  it('spends the points, takes a unit and answers 201 with the new code; reward.claimed goes out with it', async () => {
    const redeemer = await loggedInMember(250.5);
    const catalog = await createCatalog({ redeemRule: { pointUsage: 100.25 } }, 3);
    const response = await redeem(catalog.id, { token: redeemer.token });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      statusCode: 201,
      message: 'Reward redeemed',
      data: {
        id: expect.any(String),
        code: expect.stringMatching(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}$/),
        rewardId: catalog.rewardId,
        rewardCatalogId: catalog.id,
        memberId: redeemer.id,
        staffId: null,
        usedAt: null,
        expiredAt: expect.any(String),
        expirationNotifiedAt: null,
        status: 'AVAILABLE',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        reward: { id: catalog.rewardId, name_en: expect.any(String), name_th: null, name_cn: null, type: 'POINT', discountType: null, benefitValue: 10, imageUrl: null },
      },
    });
    const code = response.body.data;
    // A POINT reward without timeUseWithIn: usable for 365 days.
    expect(Math.abs(new Date(code.expiredAt).getTime() - (Date.now() + 365 * DAY))).toBeLessThan(60_000);
    expect(await balance(redeemer.id)).toBe(150.25);
    await expectAgreement(catalog.id, 3, 100.25, 1);
    const [redemption] = await redemptionOf(redeemer.id, catalog.id);
    expect(redemption).toMatchObject({ state: 'COMPLETED', point_usage: '100.25', stock_taken: true, failure_code: null });
    const [spend] = await rows('select id, amount::text, member_id from point.point_transaction where id = $1', [redemption.point_transaction_id]);
    expect(spend).toEqual({ id: redemption.point_transaction_id, amount: '100.25', member_id: redeemer.id });
    const [event] = await rows(`select payload, aggregate_id from reward.outbox_event where type = 'reward.claimed' and payload->>'rewardCodeId' = $1`, [code.id]);
    expect(event).toEqual({
      aggregate_id: redeemer.id,
      payload: {
        memberId: redeemer.id,
        rewardId: catalog.rewardId,
        rewardCatalogId: catalog.id,
        rewardCodeId: code.id,
        pointUsage: '100.25',
        expiredAt: code.expiredAt,
        claimedAt: expect.any(String),
      },
    });
    const stats = await platform.api('GET', `${CATALOGS}/${catalog.id}?includeStats=true`);
    expect(stats.body.data.stats).toEqual({ redeemed: 1, used: 0, total: 3, remaining: 2 });
  });

  it('through GraphQL: a member for itself, staff with reward:manage for a member; errors carry their codes', async () => {
    const redeemer = await loggedInMember(250);
    const catalog = await createCatalog();
    const mutation = `mutation ($id: ID!, $memberId: ID, $key: String!) { redeemRewardCatalog(id: $id, memberId: $memberId, idempotencyKey: $key) { id code memberId status } }`;
    const own = await platform.graphql(mutation, { id: catalog.id, key: 'k1' }, redeemer.token);
    expect(own.body.data.redeemRewardCatalog).toMatchObject({ memberId: redeemer.id, status: 'AVAILABLE' });
    const byStaff = await platform.graphql(mutation, { id: catalog.id, memberId: redeemer.id, key: 'k2' }, marketing.token);
    expect(byStaff.body.data.redeemRewardCatalog).toMatchObject({ memberId: redeemer.id });
    expect(await balance(redeemer.id)).toBe(50);
    const cases: Array<[Record<string, unknown>, string | undefined, string]> = [
      [{ id: catalog.id, key: 'k3' }, undefined, 'UNAUTHENTICATED'],
      [{ id: catalog.id, memberId: redeemer.id, key: 'k3' }, tenant.token, 'FORBIDDEN'],
      [{ id: catalog.id, memberId: redeemer.id, key: 'k3' }, member.token, 'FORBIDDEN'],
      [{ id: randomUUID(), key: 'k3' }, redeemer.token, 'NOT_FOUND'],
      [{ id: catalog.id, key: '' }, redeemer.token, 'VALIDATION'],
    ];
    for (const [variables, token, code] of cases) {
      const refused = await platform.graphql(mutation, variables, token);
      expect({ variables, code: refused.body.errors?.[0]?.extensions?.code }).toEqual({ variables, code });
    }
    const short = await platform.graphql(mutation, { id: catalog.id, key: 'k4' }, redeemer.token);
    expect(short.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', data: { reasons: [{ code: 'NOT_ENOUGH_POINTS', message: 'Redeeming needs 100 points; the balance is 50' }] } });
    await expectAgreement(catalog.id, 10, 100, 2);
  });

  it('answers 400 with the reasons and takes nothing when a rule fails; 400/401/403/404 for bad calls', async () => {
    const redeemer = await loggedInMember(50);
    const catalog = await createCatalog({}, 2);
    const short = await redeem(catalog.id, { token: redeemer.token });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      statusCode: 400,
      data: {
        message: 'Redeeming needs 100 points; the balance is 50',
        data: { reasons: [{ code: 'NOT_ENOUGH_POINTS', message: 'Redeeming needs 100 points; the balance is 50' }] },
      },
    });
    expect(await redemptionOf(redeemer.id, catalog.id)).toEqual([]);
    await expectAgreement(catalog.id, 2, 100, 0);

    const missingKey = await redeem(catalog.id, { token: redeemer.token, key: null });
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.data.errors).toEqual([{ field: 'idempotencyKey', message: 'idempotencyKey is required' }]);
    expect((await redeem(catalog.id, { token: redeemer.token, key: 'x'.repeat(256) })).body.data.errors[0].field).toBe('idempotencyKey');
    const staffWithoutMember = await redeem(catalog.id, { token: marketing.token });
    expect(staffWithoutMember.body.data.errors).toEqual([{ field: 'memberId', message: 'memberId is required' }]);
    expect((await redeem(catalog.id, { token: marketing.token, memberId: 'nope' })).status).toBe(400);
    expect((await redeem(catalog.id, { token: '' })).status).toBe(401);
    expect((await redeem(catalog.id, { token: tenant.token, memberId: redeemer.id })).status).toBe(403);
    expect((await redeem(catalog.id, { token: member.token, memberId: redeemer.id })).status).toBe(403);
    expect((await redeem(randomUUID(), { token: redeemer.token })).status).toBe(404);
    expect((await redeem(catalog.id, { token: marketing.token, memberId: randomUUID() })).status).toBe(404);
    const deleted = await createCatalog();
    await platform.api('DELETE', `${CATALOGS}/${deleted.id}`, { token: marketing.token });
    expect((await redeem(deleted.id, { token: redeemer.token })).status).toBe(404);
    await expectAgreement(catalog.id, 2, 100, 0);
  });

  it('redeems a free catalog without spending, and INFINITE stock without taking a unit', async () => {
    const redeemer = await loggedInMember(0);
    const free = await createCatalog({ redeemRule: { pointUsage: 0 } }, 0, 'INFINITE');
    const response = await redeem(free.id, { token: redeemer.token });
    expect(response.status).toBe(201);
    expect(await stores(free.id)).toMatchObject({ stock: 0, codes: 1, completed: 1, spends: 0, catalogRedeemed: 1 });
    expect((await redemptionOf(redeemer.id, free.id))[0]).toMatchObject({ stock_taken: false, point_transaction_id: null });
  });

  it('answers a repeat of the Idempotency-Key with the same code, spending nothing again; the key on another catalog is 409', async () => {
    const redeemer = await loggedInMember(1000);
    const catalog = await createCatalog();
    const key = unique('key');
    const first = await redeem(catalog.id, { token: redeemer.token, key });
    const again = await redeem(catalog.id, { token: redeemer.token, key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    // The same key from staff for the member is the same redemption.
    expect((await redeem(catalog.id, { token: marketing.token, memberId: redeemer.id, key })).body.data.id).toBe(first.body.data.id);
    const other = await createCatalog();
    const reused = await redeem(other.id, { token: redeemer.token, key });
    expect(reused.status).toBe(409);
    expect(reused.body.data.errors).toEqual([{ field: 'Idempotency-Key', message: 'This Idempotency-Key was used to redeem another reward catalog' }]);
    // Another member's key is its own.
    const neighbour = await loggedInMember(100);
    expect((await redeem(catalog.id, { token: neighbour.token, key })).status).toBe(201);
    expect(await balance(redeemer.id)).toBe(900);
    await expectAgreement(catalog.id, 10, 100, 2);
    await expectAgreement(other.id, 10, 100, 0);

    // A refused redemption answers its refusal again (a new attempt takes a new key).
    const stranded = await createCatalog({ redeemRule: { pointUsage: 100 } });
    const poor = await loggedInMember(100);
    redemptionTestHooks.once('reserved', async () => void (await platform.api('POST', '/point/api/spend', { token: marketing.token, body: { memberId: poor.id, amount: 50 } })));
    const refused = await redeem(stranded.id, { token: poor.token, key: 'once' });
    expect(refused.status).toBe(400);
    await earn(poor.id, 1000);
    const repeated = await redeem(stranded.id, { token: poor.token, key: 'once' });
    expect(repeated.status).toBe(400);
    expect(repeated.body).toEqual(refused.body);
  });

  it(`${CONCURRENT} distinct members at once on a stock of 10: exactly 10 codes, 10 spends, stock 0`, async () => {
    const catalog = await createCatalog({ redeemRule: { pointUsage: 40 } }, 10);
    const memberIds = await Promise.all(Array.from({ length: CONCURRENT }, () => newMember(100)));
    const responses = await Promise.all(memberIds.map((memberId) => redeem(catalog.id, { memberId })));
    const statuses = responses.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    expect(statuses).toEqual({ 201: 10, 400: CONCURRENT - 10 });
    for (const refused of responses.filter((response) => response.status === 400)) expect(reasonCodes(refused)).toEqual(['OUT_OF_STOCK']);
    await expectAgreement(catalog.id, 10, 40, 10);
    const winners = responses.filter((response) => response.status === 201).map((response) => response.body.data.memberId);
    expect(new Set(winners).size).toBe(10);
    const balances = await rows('select point_amount::text as p, count(*)::int as n from point.point_balance where member_id = any($1::uuid[]) group by point_amount order by point_amount', [memberIds]);
    expect(balances).toEqual([{ p: '60.00', n: 10 }, { p: '100.00', n: CONCURRENT - 10 }]);
  }, 120_000);

  it('one member at once: the limit per member holds, and concurrent repeats of one key redeem once', async () => {
    const redeemer = await loggedInMember(10_000);
    const catalog = await createCatalog({ redeemRule: { pointUsage: 10, limitPerUser: 2 } }, 100);
    const responses = await Promise.all(Array.from({ length: 10 }, () => redeem(catalog.id, { token: redeemer.token })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 201, 400, 400, 400, 400, 400, 400, 400, 400]);
    for (const refused of responses.filter((response) => response.status === 400)) expect(refused.body.data.data.reasons[0].code).toBe('LIMIT_PER_USER_REACHED');
    await expectAgreement(catalog.id, 100, 10, 2);

    const repeated = await createCatalog({ redeemRule: { pointUsage: 10 } }, 100);
    const key = unique('same');
    const repeats = await Promise.all(Array.from({ length: 10 }, () => redeem(repeated.id, { token: redeemer.token, key })));
    expect(repeats.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect(new Set(repeats.map((response) => response.body.data.code)).size).toBe(1);
    await expectAgreement(repeated.id, 100, 10, 1);
    expect(await balance(redeemer.id)).toBe(9970);

    // The last unit: the repeats the stock refuses answer the code of the one that took it.
    const last = await createCatalog({ redeemRule: { pointUsage: 10 } }, 1);
    const lastKey = unique('last');
    const onLast = await Promise.all(Array.from({ length: 10 }, () => redeem(last.id, { token: redeemer.token, key: lastKey })));
    expect(onLast.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect(new Set(onLast.map((response) => response.body.data.code)).size).toBe(1);
    await expectAgreement(last.id, 1, 10, 1);
    expect(await balance(redeemer.id)).toBe(9960);
  }, 60_000);
});

describe('redemption saga: a process killed or failing between steps', () => {
  it('the recovery job is scheduled every minute', async () => {
    expect(await rows('select cron from pgboss.schedule where name = $1', [RECOVER_REDEMPTIONS_QUEUE])).toEqual([{ cron: '* * * * *' }]);
  });

  it.each(['reserved', 'spent'] as const)('killed after step "%s": the recovery job completes the redemption, spending once', async (step) => {
    const redeemer = await loggedInMember(500);
    const catalog = await createCatalog({ redeemRule: { pointUsage: 100 } }, 5);
    crash(step);
    const key = unique('crash');
    const crashed = await redeem(catalog.id, { token: redeemer.token, key });
    expect(crashed.status).toBe(500);
    // What the dead process left: the unit taken and counted and the PENDING row (step 1), the points spent after step 2, no code.
    const spentAlready = step !== 'reserved';
    expect(await stores(catalog.id)).toMatchObject({ stock: 4, codes: 0, pending: 1, completed: 0, rewardRedeemed: 1, catalogRedeemed: 1, spends: spentAlready ? 1 : 0 });
    expect(await balance(redeemer.id)).toBe(spentAlready ? 400 : 500);
    expect(await rows(`select 1 from reward.outbox_event where type = 'reward.claimed' and payload->>'rewardCatalogId' = $1`, [catalog.id])).toEqual([]);

    const tally = await recover();
    expect(tally.completed).toBeGreaterThanOrEqual(1);
    await expectAgreement(catalog.id, 5, 100, 1);
    expect(await balance(redeemer.id)).toBe(400);
    expect(await rows(`select 1 from reward.outbox_event where type = 'reward.claimed' and payload->>'rewardCatalogId' = $1`, [catalog.id])).toHaveLength(1);
    // The member's repeat now answers the code the job issued.
    const repeat = await redeem(catalog.id, { token: redeemer.token, key });
    expect(repeat.status).toBe(201);
    expect(repeat.body.data.code).toBe((await rows('select code from reward.reward_code where reward_catalog_id = $1', [catalog.id]))[0].code);
    await expectAgreement(catalog.id, 5, 100, 1);
  });

  it('a repeat of the request settles a redemption its first process left PENDING', async () => {
    const redeemer = await loggedInMember(100);
    const catalog = await createCatalog({}, 1);
    crash('spent');
    expect((await redeem(catalog.id, { token: redeemer.token, key: 'resume' })).status).toBe(500);
    const resumed = await redeem(catalog.id, { token: redeemer.token, key: 'resume' });
    expect(resumed.status).toBe(201);
    await expectAgreement(catalog.id, 1, 100, 1);
    expect(await balance(redeemer.id)).toBe(0);
  });

  it('the point domain refuses the spend (the balance went meanwhile): the unit goes back and the redemption fails', async () => {
    const redeemer = await loggedInMember(100);
    const catalog = await createCatalog({}, 3);
    redemptionTestHooks.once('reserved', async () => {
      const spent = await platform.api('POST', '/point/api/spend', { token: marketing.token, body: { memberId: redeemer.id, amount: 30 } });
      expect(spent.status).toBe(200);
    });
    const refused = await redeem(catalog.id, { token: redeemer.token });
    expect(refused.status).toBe(400);
    expect(refused.body.data.data.reasons).toEqual([{ code: 'NOT_ENOUGH_POINTS', message: 'Insufficient points: the balance is 70.00' }]);
    expect(await stores(catalog.id)).toMatchObject({ stock: 3, rewardRedeemed: 0, catalogRedeemed: 0, codes: 0, failed: 1, pending: 0, completed: 0, spends: 0 });
    expect(await balance(redeemer.id)).toBe(70);
    // A failed redemption counts towards nothing: the member may try again once it has the points.
    await earn(redeemer.id, 30);
    expect((await redeem(catalog.id, { token: redeemer.token })).status).toBe(201);
    await expectAgreement(catalog.id, 3, 100, 1);
  });

  it('killed after step 1, and the points gone before the job runs: the job compensates', async () => {
    const redeemer = await loggedInMember(100);
    const catalog = await createCatalog({}, 2);
    crash('reserved');
    expect((await redeem(catalog.id, { token: redeemer.token })).status).toBe(500);
    expect(await stores(catalog.id)).toMatchObject({ stock: 1, rewardRedeemed: 1, catalogRedeemed: 1, pending: 1 });
    expect((await platform.api('POST', '/point/api/spend', { token: marketing.token, body: { memberId: redeemer.id, amount: 1 } })).status).toBe(200);
    await recover();
    expect(await stores(catalog.id)).toMatchObject({ stock: 2, rewardRedeemed: 0, catalogRedeemed: 0, codes: 0, failed: 1, pending: 0, spends: 0 });
    expect((await redemptionOf(redeemer.id, catalog.id))[0]).toMatchObject({ state: 'FAILED', failure_code: 'NOT_ENOUGH_POINTS' });
    expect(await balance(redeemer.id)).toBe(99);
  });

  it('the answer of the spend is lost, or the gateway unreachable: the redemption stays PENDING until a try that gets through', async () => {
    const redeemer = await loggedInMember(300);
    const catalog = await createCatalog({}, 2);
    crash('reserved');
    expect((await redeem(catalog.id, { token: redeemer.token })).status).toBe(500);
    const unreachable: OperationExecutor = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    expect(await recover(unreachable)).toMatchObject({ completed: 0, failed: 0 });
    expect(await stores(catalog.id)).toMatchObject({ pending: 1, spends: 0, codes: 0 });
    // The spend happens, its answer never arrives.
    const answerLost: OperationExecutor = async (operation, caller) => {
      await platform.executors.gateway(operation, caller);
      throw new Error('socket hang up');
    };
    await recover(answerLost);
    expect(await stores(catalog.id)).toMatchObject({ pending: 1, spends: 1, codes: 0 });
    // The next try is answered the earlier spend (same key), and completes without spending again.
    await recover();
    await expectAgreement(catalog.id, 2, 100, 1);
    expect(await balance(redeemer.id)).toBe(200);
  });

  it('two actors at once, the job settling while a repeat is about to spend: one spend, one completion, the same code', async () => {
    const redeemer = await loggedInMember(300);
    const catalog = await createCatalog({}, 2);
    crash('reserved');
    const key = unique('race');
    expect((await redeem(catalog.id, { token: redeemer.token, key })).status).toBe(500);
    // The repeat found the redemption PENDING; before it spends, the job settles it whole.
    let tally: Awaited<ReturnType<typeof recover>> | undefined;
    redemptionTestHooks.once('spending', async () => void (tally = await recover()));
    const repeat = await redeem(catalog.id, { token: redeemer.token, key });
    expect(tally).toMatchObject({ completed: 1 });
    // The repeat's spend is answered the job's (same key), and it answers the code the job issued.
    expect(repeat.status).toBe(201);
    expect(repeat.body.data.code).toBe((await rows('select code from reward.reward_code where reward_catalog_id = $1', [catalog.id]))[0].code);
    await expectAgreement(catalog.id, 2, 100, 1);
    expect(await balance(redeemer.id)).toBe(200);
  });

  it('two actors at once: a spend refused to the one that compensated stays refused to the other, even once the member has the points', async () => {
    const redeemer = await loggedInMember(100);
    const catalog = await createCatalog({}, 2);
    crash('reserved');
    const key = unique('race');
    expect((await redeem(catalog.id, { token: redeemer.token, key })).status).toBe(500);
    expect((await platform.api('POST', '/point/api/spend', { token: marketing.token, body: { memberId: redeemer.id, amount: 1 } })).status).toBe(200);
    // The repeat found the redemption PENDING; before it spends, the job is refused the spend and
    // compensates (the unit back, FAILED), and then the member earns what was missing.
    redemptionTestHooks.once('spending', async () => {
      expect(await recover()).toMatchObject({ failed: 1 });
      await earn(redeemer.id, 1);
    });
    const repeat = await redeem(catalog.id, { token: redeemer.token, key });
    // The repeat's spend is refused as the job's was (the refusal is the key's answer): nothing spent for a failed redemption.
    expect(repeat.status).toBe(400);
    expect(repeat.body.data.data.reasons).toEqual([{ code: 'NOT_ENOUGH_POINTS', message: 'Insufficient points: the balance is 99.00' }]);
    expect(await stores(catalog.id)).toMatchObject({ stock: 2, codes: 0, failed: 1, pending: 0, completed: 0, spends: 0 });
    expect(await balance(redeemer.id)).toBe(100);
  });

  it('the job itself killed mid-way leaves the redemption PENDING for its next run', async () => {
    const redeemer = await loggedInMember(100);
    const catalog = await createCatalog({}, 1);
    crash('reserved');
    expect((await redeem(catalog.id, { token: redeemer.token })).status).toBe(500);
    crash('spent');
    const tally = await recover();
    expect(tally.pending).toBeGreaterThanOrEqual(1);
    expect(await stores(catalog.id)).toMatchObject({ pending: 1, codes: 0, spends: 1, catalogRedeemed: 1 });
    await recover();
    await expectAgreement(catalog.id, 1, 100, 1);
  });
});
