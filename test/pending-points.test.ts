import { randomUUID } from 'node:crypto';
import { pointModule } from '../subgraphs/point/module';
import { LedgerService } from '../subgraphs/point/services/ledger.service';
import { activateDuePending } from '../subgraphs/point/services/pending-points.service';
import { TestMember, unique } from './support/test-platform';
import { useModuleJobs } from './support/module-jobs';
import { usePlatform } from './support/use-platform';

// Pending points (issue 29): a purchase's points held for its return window (POINT_PENDING_DAYS), a
// rule's by its own period; activated by the job when due or early by an admin, cancelled first by a
// refund; the expiry of their lot counted from the activation.
const DAY_MS = 86_400_000;
const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], env: { POINT_PENDING_DAYS: '14', POINT_EXPIRY: 'days:365' } });
const point = useModuleJobs(pointModule);
const ledger = new LedgerService({ kind: 'days', days: 365 });

const api = (method: string, path: string, body?: unknown, token: string = admin.token) => platform.api(method, path, { token, body });
const balance = async (customerId: string) => (await api('GET', `/api/v1/customers/${customerId}/points/balance`)).body.data as { balance: number; pending: number; lifetime_earned: number };
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z');
async function purchase(customerId: string, body: Record<string, unknown>) {
  const response = await api('POST', '/api/v1/transactions', { customer_id: customerId, ...body });
  if (response.status !== 201) throw new Error(`purchase: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; points_earned: number };
}
const holdsOf = async (customerId: string, token = admin.token) => (await api('GET', `/api/v1/customers/${customerId}/points/pending?limit=100`, undefined, token)).body.data as Array<Record<string, any>>;
async function activeRule(body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/api/v1/loyalty/rules', { name: unique('Rule '), ...body });
  if (created.status !== 201) throw new Error(`rule: ${JSON.stringify(created.body)}`);
  await api('POST', `/api/v1/loyalty/rules/${created.body.data.id}/activate`);
  return created.body.data.id;
}
const outboxTypes = async (memberId: string) =>
  (await platform.sql.query(`select type from point.outbox_event where aggregate_id = $1`, [memberId])).rows.map((row) => row.type as string);

let customer: TestMember;
beforeEach(async () => {
  customer = await platform.loginMember();
});

describe('a purchase held for its return window', () => {
  it('holds the points: pending in both balances, nothing spendable, no earn entry, nothing toward tiers', async () => {
    const bought = await purchase(customer.id, { amount: 120 });
    expect(bought.points_earned).toBe(120);
    expect(await balance(customer.id)).toMatchObject({ balance: 0, pending: 120, lifetime_earned: 0 });
    const part2 = await api('GET', `/point/api/balance/${customer.id}`, undefined, marketing.token);
    expect(part2.body.data).toMatchObject({ pointAmount: 0, pendingAmount: 120, purchaseAmount: 0 });
    const [hold] = await holdsOf(customer.id);
    expect(hold).toMatchObject({ customer_id: customer.id, points: 120, original_points: 120, source_type: 'purchase', source_id: bought.id, status: 'pending', earn_entry_id: null });
    expect(Date.parse(hold.activates_at) - Date.now()).toBeGreaterThan(13.9 * DAY_MS);
    const spend = await api('POST', '/point/api/spend', { memberId: customer.id, amount: 10 }, marketing.token);
    expect(spend.status).toBe(400);
    expect(spend.body.data.errors.map((error: { field: string }) => error.field)).toEqual(['amount']);
    expect((await api('GET', `/api/v1/customers/${customer.id}/points/history`)).body.data).toEqual([]);
    expect(await outboxTypes(customer.id)).not.toContain('points.earned');
    expect((await holdsOf(customer.id, customer.token)).length).toBe(1);
    const other = await platform.loginMember();
    expect((await api('GET', `/api/v1/customers/${customer.id}/points/pending`, undefined, other.token)).status).toBe(403);
  });

  it('activates due holds by the job: an earn entry with the purchase amount, its lot expiring a year from now, points.activated', async () => {
    const old = await purchase(customer.id, { amount: 80, occurred_at: daysAgo(20) });
    const recent = await purchase(customer.id, { amount: 5, occurred_at: daysAgo(2) });
    expect(await activateDuePending(point.em(), ledger)).toBeGreaterThanOrEqual(1);
    expect(await balance(customer.id)).toMatchObject({ balance: 80, pending: 5, lifetime_earned: 80 });
    const holds = await holdsOf(customer.id);
    expect(holds.map((hold) => [hold.source_id, hold.status])).toEqual([
      [recent.id, 'pending'],
      [old.id, 'activated'],
    ]);
    const { rows } = await platform.sql.query(
      `select t.purchase_amount::text, t.reference_id, l.expires_at, l.earned_at from point.point_transaction t join point.point_lot l on l.transaction_id = t.id where t.id = $1`,
      [holds[1].earn_entry_id],
    );
    expect(rows[0]).toMatchObject({ purchase_amount: '80.00', reference_id: old.id });
    expect(Math.abs(rows[0].expires_at.getTime() - (Date.now() + 365 * DAY_MS))).toBeLessThan(60_000);
    const types = await outboxTypes(customer.id);
    expect(types).toEqual(expect.arrayContaining(['points.earned', 'points.activated']));
    // The job again finds nothing more of this member's due.
    await activateDuePending(point.em(), ledger);
    expect((await balance(customer.id)).pending).toBe(5);
  });

  it('lets an admin activate or cancel one hold early, once (409 after), never a customer or a reader', async () => {
    await purchase(customer.id, { amount: 30 });
    await purchase(customer.id, { amount: 7 });
    const [seven, thirty] = await holdsOf(customer.id);
    expect((await api('POST', `/api/v1/points/pending/${thirty.id}/activate`, undefined, customer.token)).status).toBe(403);
    expect((await api('POST', `/api/v1/points/pending/${thirty.id}/activate`, undefined, tenant.token)).status).toBe(403);
    const activated = await api('POST', `/api/v1/points/pending/${thirty.id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body.data).toMatchObject({ status: 'activated', earn_entry_id: expect.any(String) });
    const again = await api('POST', `/api/v1/points/pending/${thirty.id}/activate`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    const cancelled = await api('POST', `/api/v1/points/pending/${seven.id}/cancel`, undefined, marketing.token);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', points: 0, original_points: 7 });
    expect((await api('POST', `/api/v1/points/pending/${seven.id}/cancel`)).status).toBe(409);
    for (const id of [randomUUID(), 'not-an-id']) {
      const missing = await api('POST', `/api/v1/points/pending/${id}/activate`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('PENDING_POINTS_NOT_FOUND');
    }
    expect(await balance(customer.id)).toMatchObject({ balance: 30, pending: 0 });
    const { rows } = await platform.sql.query(`select payload from point.outbox_event where type = 'points.activated' and aggregate_id = $1`, [customer.id]);
    expect(rows.map((row) => row.payload)).toEqual([expect.objectContaining({ pendingId: thirty.id, amount: '30.00', early: true })]);
  });

  it('cancels or reduces held points first on a refund, then takes back active ones', async () => {
    const storeId = unique('store');
    await activeRule({ trigger: 'purchase', conditions: { fact: 'store_id', op: 'eq', value: storeId }, effect: { type: 'fixed', points: 50 } });
    const bought = await purchase(customer.id, { amount: 100, store_id: storeId });
    expect(bought.points_earned).toBe(150);
    expect(await balance(customer.id)).toMatchObject({ balance: 0, pending: 150 });
    // A half refund owes 75: the rule's hold (50, the newest) and 25 of the base's.
    const half = await api('POST', `/api/v1/transactions/${bought.id}/refund`, { amount: 50 });
    expect(half.body.data).toMatchObject({ points_reversed: 75, points_unrecovered: 0 });
    expect(await balance(customer.id)).toMatchObject({ balance: 0, pending: 75 });
    const holds = await holdsOf(customer.id);
    expect(holds.map((hold) => [hold.status, hold.points])).toEqual([
      ['cancelled', 0],
      ['pending', 75],
    ]);
    // Activated early, the rest is active: the second half takes it from the balance.
    await api('POST', `/api/v1/points/pending/${holds[1].id}/activate`);
    const rest = await api('POST', `/api/v1/transactions/${bought.id}/refund`, {});
    expect(rest.body.data).toMatchObject({ status: 'refunded', points_reversed: 150 });
    expect(await balance(customer.id)).toMatchObject({ balance: 0, pending: 0 });
  });
});

describe("a rule's own pending period", () => {
  it('holds a rule’s points for its own days, or pays them at once when it says 0, whatever the program default', async () => {
    const storeId = unique('store');
    await activeRule({ trigger: 'purchase', conditions: { fact: 'store_id', op: 'eq', value: storeId }, effect: { type: 'fixed', points: 9 }, pending_days: 0 });
    const bought = await purchase(customer.id, { amount: 10, store_id: storeId });
    expect(await balance(customer.id)).toMatchObject({ balance: 9, pending: 10 });
    const type = unique('review').replace(/[^a-z0-9_]/g, '_');
    expect((await api('POST', '/api/v1/events/types', { name: type })).status).toBe(201);
    await activeRule({ trigger: `custom_event:${type}`, effect: { type: 'fixed', points: 4 }, pending_days: 3 });
    await activeRule({ trigger: `custom_event:${type}`, effect: { type: 'fixed', points: 2 } });
    const sent = await api('POST', '/api/v1/events', { type, customer_id: customer.id, event_id: unique('e') });
    expect(sent.body.data.points_earned).toBe(6);
    expect(await balance(customer.id)).toMatchObject({ balance: 11, pending: 14 });
    const held = (await holdsOf(customer.id)).find((hold) => hold.source_type === 'custom_event')!;
    expect(held).toMatchObject({ points: 4, source_id: sent.body.data.id });
    expect(Math.round((Date.parse(held.activates_at) - Date.parse(sent.body.data.occurred_at)) / DAY_MS)).toBe(3);
    const { rows } = await platform.sql.query(`select pending_id is not null as held, ledger_entry_id is not null as earned from point.rule_application where source_id = $1 order by created_at`, [bought.id]);
    expect(rows).toEqual([{ held: false, earned: true }]);
    const bad = await api('POST', '/api/v1/loyalty/rules', { name: 'x', trigger: 'purchase', effect: { type: 'fixed', points: 1 }, pending_days: 366 });
    expect(bad.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['pending_days']);
  });
});
