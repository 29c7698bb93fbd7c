import { randomUUID } from 'node:crypto';
import { png } from './support/images';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const BASE = '/api/v1/transactions';
const SNAKE_KEY = /^[a-z0-9]+(_[a-z0-9]+)*$/;
const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 2 });

const post = (path: string, body: unknown, token: string = admin.token) => platform.api('POST', path, { token, body });
const get = (path: string, token: string = admin.token) => platform.api('GET', path, { token });
const record = (body: Record<string, unknown>, token?: string) => post(BASE, body, token);
const refund = (id: string, body: Record<string, unknown> = {}, token?: string) => post(`${BASE}/${id}/refund`, body, token);
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();
const balanceOf = async (customerId: string) => (await get(`/api/v1/customers/${customerId}/points/balance`)).body.data.balance as number;
const purchaseRows = async (externalId: string) => (await platform.sql.query('select id from point.purchase where external_id = $1', [externalId])).rows;

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
  return [];
}

/** A store with a shop rule of its own. */
async function storeWithRate(conversionRate: number): Promise<string> {
  const shopId = unique('store');
  const response = await platform.api('POST', '/point/api/point-rules/shop', { token: marketing.token, body: { shopId, name_en: unique('Rule '), conversionRate } });
  if (response.status !== 201) throw new Error(`shop rule: ${JSON.stringify(response.body)}`);
  return shopId;
}

/** A purchase recorded for a fresh customer; the default rule (1 point per unit) unless a store is given. */
async function purchaseFor(amount: number, extra: Record<string, unknown> = {}) {
  const customer = await platform.loginMember();
  const response = await record({ customer_id: customer.id, amount, ...extra });
  if (response.status !== 201) throw new Error(`record: ${JSON.stringify(response.body)}`);
  return { customer, transaction: response.body.data };
}

describe('POST /api/v1/transactions', () => {
  it("records a purchase (201) with whole points by the store's rule, rounded down, and credits them", async () => {
    const storeId = await storeWithRate(2.5);
    const customer = await platform.loginMember();
    const response = await record({ customer_id: customer.id, amount: 19.99, store_id: storeId, category: 'grocery' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        id: expect.any(String),
        customer_id: customer.id,
        amount: 19.99,
        store_id: storeId,
        category: 'grocery',
        external_id: null,
        status: 'completed',
        points_earned: 49,
        refunded_amount: 0,
        points_reversed: 0,
        points_unrecovered: 0,
        occurred_at: expect.stringMatching(V1_TIME),
        created_at: expect.stringMatching(V1_TIME),
      },
    });
    for (const key of keysOf(response.body)) expect(key).toMatch(SNAKE_KEY);
    expect(await balanceOf(customer.id)).toBe(49);
    const history = await get(`/api/v1/customers/${customer.id}/points/history`);
    expect(history.body.data).toEqual([expect.objectContaining({ points: 49, type: 'earned', reason: `Purchase ${response.body.data.id}` })]);
  });

  it('prices a purchase without a store, or at a store without a rule, by the default rule; 0 points is still a purchase', async () => {
    const { customer, transaction } = await purchaseFor(10.5);
    expect(transaction).toMatchObject({ store_id: null, points_earned: 10 });
    const unruled = await record({ customer_id: customer.id, amount: 3.75, store_id: unique('no-rule-store') });
    expect(unruled.body.data.points_earned).toBe(3);
    const tiny = await record({ customer_id: customer.id, amount: 0.5 });
    expect(tiny.status).toBe(201);
    expect(tiny.body.data).toMatchObject({ amount: 0.5, points_earned: 0, status: 'completed' });
    expect(await balanceOf(customer.id)).toBe(13);
    expect((await get(`${BASE}?customer_id=${customer.id}`)).body.pagination.total).toBe(3);
    // Nothing to take back: refunded without a ledger entry.
    expect((await refund(tiny.body.data.id, { amount: null })).body.data).toMatchObject({ status: 'refunded', refunded_amount: 0.5, points_reversed: 0, points_unrecovered: 0 });
    expect(await balanceOf(customer.id)).toBe(13);
  });

  it('keeps the time the purchase happened (occurred_at), and refuses one in the future', async () => {
    const customer = await platform.loginMember();
    const at = await record({ customer_id: customer.id, amount: 5, occurred_at: '2026-03-01T10:15:00+02:00' });
    expect(at.body.data.occurred_at).toBe('2026-03-01T08:15:00Z');
    const future = await record({ customer_id: customer.id, amount: 5, occurred_at: new Date(Date.now() + 3600_000).toISOString() });
    expect(future.status).toBe(400);
    expect(detailFields(future.body)).toEqual(['occurred_at']);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown customer and records nothing', async () => {
    const externalId = unique('ext');
    const response = await record({ customer_id: randomUUID(), amount: 10, external_id: externalId });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } });
    expect(await purchaseRows(externalId)).toEqual([]);
  });

  it('reports every bad field at once, named as the caller spelled it', async () => {
    const bad = await record({ customer_id: 'not-an-id', amount: 10.005, external_id: '', category: 'x'.repeat(300), occurred_at: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(bad.body)).toEqual(['amount', 'category', 'customer_id', 'external_id', 'occurred_at']);
    expect(detailFields((await record({})).body)).toEqual(['amount', 'customer_id']);
    const customer = members[0];
    for (const amount of [0, -5, 'twelve', null, 1e15]) {
      const response = await record({ customer_id: customer.id, amount });
      expect([amount, response.status, detailFields(response.body)]).toEqual([amount, 400, ['amount']]);
    }
    expect(detailFields((await record({ customer_id: customer.id, amount: 1, store_id: 42 })).body)).toEqual(['store_id']);
  });

  it('needs the write scope: customer tokens and read-only staff are refused 403 insufficient_scope', async () => {
    const own = await record({ customer_id: members[0].id, amount: 10 }, members[0].token);
    expect(own.status).toBe(403);
    expect(own.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write"');
    expect(own.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
    expect((await record({ customer_id: members[0].id, amount: 10 }, tenant.token)).status).toBe(403);
    expect((await platform.api('POST', BASE, { body: { customer_id: members[0].id, amount: 10 } })).status).toBe(401);
    expect(await balanceOf(members[0].id)).toBe(0);
  });
  it("records with a retailer's API key granted write, and refuses a read-only key", async () => {
    const keyWith = async (scopes: string[]) => {
      const created = await platform.api('POST', '/auth/api/services/generate-api-key', {
        token: admin.token,
        body: { name: unique('importer'), roleId: await platform.roleId('marketing'), scopes },
      });
      if (created.status >= 300) throw new Error(`key: ${JSON.stringify(created.body)}`);
      return created.body.data.apiKey as string;
    };
    const customer = await platform.loginMember();
    const writer = await platform.api('POST', BASE, { headers: { 'x-api-key': await keyWith(['read', 'write']) }, body: { customer_id: customer.id, amount: 8 } });
    expect(writer.status).toBe(201);
    const reader = await record({ customer_id: customer.id, amount: 8 }, await keyWith(['read']));
    expect(reader.status).toBe(403);
    expect(reader.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write"');
    expect(await balanceOf(customer.id)).toBe(8);
  });
});

describe('external_id: an idempotent import', () => {
  it('answers the first transaction again for the same external_id and store, and earns nothing more', async () => {
    const storeId = await storeWithRate(1);
    const customer = await platform.loginMember();
    const externalId = unique('pos');
    const body = { customer_id: customer.id, amount: 42.1, store_id: storeId, external_id: externalId };
    const first = await record(body);
    const again = await record(body);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(customer.id)).toBe(42);
    // Another store's till may use the same number: another purchase.
    const elsewhere = await record({ ...body, store_id: await storeWithRate(1) });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.data.id).not.toBe(first.body.data.id);
    expect(await balanceOf(customer.id)).toBe(84);
  });

  it('refuses (409) an external_id already used by another customer or amount in the store', async () => {
    const { customer, transaction } = await purchaseFor(20, { external_id: unique('pos') });
    const otherAmount = await record({ customer_id: customer.id, amount: 21, external_id: transaction.external_id });
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.error).toMatchObject({ code: 'INVALID_STATE', details: [{ field: 'external_id', message: expect.any(String) }] });
    const otherCustomer = await record({ customer_id: members[1].id, amount: 20, external_id: transaction.external_id });
    expect(otherCustomer.status).toBe(409);
    expect(await balanceOf(customer.id)).toBe(20);
  });

  it('gives one transaction and one earning when the same purchase is sent several times at once', async () => {
    const customer = await platform.loginMember();
    const externalId = unique('race');
    const answers = await Promise.all(Array.from({ length: 6 }, () => record({ customer_id: customer.id, amount: 15.5, external_id: externalId })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(await purchaseRows(externalId)).toHaveLength(1);
    expect(await balanceOf(customer.id)).toBe(15);
    const { rows } = await platform.sql.query(`select count(*)::int as n from point.outbox_event where aggregate_id = $1 and type = 'transaction.completed'`, [customer.id]);
    expect(rows[0].n).toBe(1);
  });
});

describe('POST /api/v1/transactions/{id}/refund', () => {
  it('refunds in part, then the rest, taking the points back in proportion (rounded down until the last)', async () => {
    const { customer, transaction } = await purchaseFor(100);
    const part = await refund(transaction.id, { amount: 33.33 });
    expect(part.status).toBe(200);
    expect(part.body.data).toMatchObject({ id: transaction.id, status: 'partially_refunded', amount: 100, refunded_amount: 33.33, points_earned: 100, points_reversed: 33 });
    expect(await balanceOf(customer.id)).toBe(67);
    const again = await refund(transaction.id, { amount: 0.01 });
    expect(again.body.data).toMatchObject({ refunded_amount: 33.34, points_reversed: 33 });
    const rest = await refund(transaction.id);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ status: 'refunded', refunded_amount: 100, points_reversed: 100, points_unrecovered: 0 });
    expect(await balanceOf(customer.id)).toBe(0);
    const history = await get(`/api/v1/customers/${customer.id}/points/history?type=redeemed`);
    expect(history.body.data.map((entry: { points: number }) => entry.points)).toEqual([-67, -33]);
  });

  it('answers 409 INVALID_STATE for a refund past what remains, and for a transaction already refunded', async () => {
    const { customer, transaction } = await purchaseFor(10);
    const tooMuch = await refund(transaction.id, { amount: 10.01 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatchObject({ code: 'INVALID_STATE', details: [{ field: 'amount', message: expect.stringContaining('10.00') }] });
    expect((await refund(transaction.id, { amount: 10 })).body.data.status).toBe('refunded');
    const twice = await refund(transaction.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('INVALID_STATE');
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it('takes back only what the balance still holds and records the rest as unrecovered', async () => {
    const { customer, transaction } = await purchaseFor(50);
    const spent = await platform.api('POST', '/point/api/spend', { token: admin.token, body: { memberId: customer.id, amount: 40 } });
    expect(spent.status).toBe(200);
    const response = await refund(transaction.id);
    expect(response.body.data).toMatchObject({ status: 'refunded', points_reversed: 10, points_unrecovered: 40 });
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it('never refunds more than the amount when refunds race each other', async () => {
    const { customer, transaction } = await purchaseFor(100);
    const answers = await Promise.all(Array.from({ length: 4 }, () => refund(transaction.id, { amount: 30 })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 409]);
    const after = await get(`${BASE}/${transaction.id}`);
    expect(after.body.data).toMatchObject({ status: 'partially_refunded', refunded_amount: 90, points_reversed: 90 });
    expect(await balanceOf(customer.id)).toBe(10);
  });

  it('answers 404 TRANSACTION_NOT_FOUND, 400 on a bad amount, and 403 to customers', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await refund(id);
      expect([id, response.status, response.body]).toEqual([id, 404, { error: { code: 'TRANSACTION_NOT_FOUND', message: expect.any(String) } }]);
    }
    const { customer, transaction } = await purchaseFor(10);
    for (const amount of [0, 1.001, 'all']) {
      const response = await refund(transaction.id, { amount });
      expect([amount, response.status, detailFields(response.body)]).toEqual([amount, 400, ['amount']]);
    }
    expect((await refund(transaction.id, {}, customer.token)).status).toBe(403);
    expect((await get(`${BASE}/${transaction.id}`)).body.data.status).toBe('completed');
  });
});

describe('GET /api/v1/transactions', () => {
  it('reads one transaction (404 TRANSACTION_NOT_FOUND otherwise); customers may not', async () => {
    const { customer, transaction } = await purchaseFor(12.34, { category: 'books' });
    const one = await get(`${BASE}/${transaction.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: transaction });
    for (const id of [randomUUID(), 'nope']) expect((await get(`${BASE}/${id}`)).body.error.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await get(`${BASE}/${transaction.id}`, customer.token)).status).toBe(403);
  });

  it('lists newest purchase first with filters on customer, status, store and when the purchase happened', async () => {
    const storeId = await storeWithRate(1);
    const customer = await platform.loginMember();
    const at = async (occurredAt: string, amount = 10) => (await record({ customer_id: customer.id, amount, store_id: storeId, occurred_at: occurredAt })).body.data.id as string;
    const january = await at('2026-01-15T12:00:00Z');
    const february = await at('2026-02-10T23:30:00Z');
    const march = await at('2026-03-05T08:00:00Z');
    const other = await record({ customer_id: customer.id, amount: 1 });
    await refund(february, { amount: 5 });
    await refund(march);

    const all = await get(`${BASE}?customer_id=${customer.id}`);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 4 });
    expect(all.body.data.map((item: { id: string }) => item.id)).toEqual([other.body.data.id, march, february, january]);
    const ids = async (query: string) => (await get(`${BASE}?customer_id=${customer.id}&${query}`)).body.data.map((item: { id: string }) => item.id);
    expect(await ids(`store_id=${storeId}`)).toEqual([march, february, january]);
    expect(await ids('status=partially_refunded')).toEqual([february]);
    expect(await ids('status=refunded')).toEqual([march]);
    expect(await ids('date_from=2026-02-01&date_to=2026-02-10')).toEqual([february]);
    const second = await get(`${BASE}?customer_id=${customer.id}&limit=2&page=2`);
    expect(second.body.data.map((item: { id: string }) => item.id)).toEqual([february, january]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 4 });
  });

  it('reports every bad filter at once; customers may not list', async () => {
    const response = await get(`${BASE}?customer_id=x&status=done&date_from=soon&date_to=later`);
    expect(response.status).toBe(400);
    expect(detailFields(response.body)).toEqual(['customer_id', 'date_from', 'date_to', 'status']);
    expect(detailFields((await get(`${BASE}?limit=101`)).body)).toEqual(['limit']);
    expect((await get(BASE, members[0].token)).status).toBe(403);
  });
});

describe('events', () => {
  it('commits transaction.completed and transaction.refunded with the points movements that go with them', async () => {
    const { customer, transaction } = await purchaseFor(80, { external_id: unique('evt'), category: 'shoes' });
    await refund(transaction.id, { amount: 20 });
    const { rows } = await platform.sql.query(`select type, payload from point.outbox_event where aggregate_id = $1 order by sequence`, [customer.id]);
    expect(rows.map((row) => row.type)).toEqual(['points.earned', 'transaction.completed', 'points.redeemed', 'transaction.refunded']);
    expect(rows[0].payload).toMatchObject({ memberId: customer.id, actionType: 'EARN', amount: '80.00', purchaseAmount: '80.00', sourceBy: 'Purchase', referenceId: transaction.id });
    expect(rows[1].payload).toEqual({
      transactionId: transaction.id,
      customerId: customer.id,
      amount: '80.00',
      storeId: null,
      category: 'shoes',
      externalId: transaction.external_id,
      status: 'completed',
      pointsEarned: '80.00',
      occurredAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(rows[2].payload).toMatchObject({ memberId: customer.id, actionType: 'SPEND', amount: '20.00', referenceId: transaction.id });
    expect(rows[3].payload).toEqual({
      transactionId: transaction.id,
      refundId: expect.any(String),
      customerId: customer.id,
      amount: '20.00',
      refundedAmount: '20.00',
      status: 'partially_refunded',
      pointsReversed: '20.00',
      pointsUnrecovered: '0.00',
      refundedAt: expect.any(String),
    });
  });
});

describe('GET /api/v1/customers/{id}/interactions', () => {
  /** A receipt of the customer's, approved for `money` by the default rule. */
  async function approvedReceipt(customerId: string, money: number): Promise<string> {
    const form = new FormData();
    form.append('memberId', customerId);
    form.append('image', png(), 'receipt.png');
    const submitted = await fetch(`${platform.restUrl}/point/api/receipt/verify`, { method: 'POST', headers: { authorization: `Bearer ${marketing.token}` }, body: form });
    const id = ((await submitted.json()) as any).data.id as string;
    const approved = await platform.api('POST', `/point/api/receipt/verify/${id}/manual`, { token: marketing.token, body: { approved: true, money, reviewReason: 'Readable receipt' } });
    if (approved.status !== 200) throw new Error(`approval: ${JSON.stringify(approved.body)}`);
    return id;
  }

  it("answers the customer's purchases, receipts and refunds, newest first, with filters", async () => {
    const storeId = await storeWithRate(2);
    const customer = await platform.loginMember();
    const bought = (await record({ customer_id: customer.id, amount: 25.5, store_id: storeId, category: 'toys', occurred_at: '2026-02-01T10:00:00Z' })).body.data;
    const refunded = (await refund(bought.id, { amount: 10 })).body.data;
    const receipt = await approvedReceipt(customer.id, 7.25);
    const path = `/api/v1/customers/${customer.id}/interactions`;

    const all = await get(path);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    const [receiptItem, refundItem, purchaseItem] = all.body.data;
    expect(receiptItem).toEqual({ id: receipt, type: 'purchase', channel: 'receipt', description: expect.any(String), amount: 7.25, points_earned: 7, created_at: expect.stringMatching(V1_TIME) });
    expect(refundItem).toEqual({ id: expect.any(String), type: 'refund', channel: 'api', description: `Refund of purchase ${bought.id}`, amount: 10, points_earned: -refunded.points_reversed, created_at: expect.stringMatching(V1_TIME) });
    expect(purchaseItem).toEqual({ id: bought.id, type: 'purchase', channel: 'api', description: `Purchase at store ${storeId} (toys)`, amount: 25.5, points_earned: 51, created_at: '2026-02-01T10:00:00Z' });
    for (const key of keysOf(all.body)) expect(key).toMatch(SNAKE_KEY);

    expect((await get(`${path}?type=refund`)).body.data.map((item: { id: string }) => item.id)).toEqual([refundItem.id]);
    expect((await get(`${path}?type=visit`)).body.data).toEqual([]);
    expect((await get(`${path}?date_to=2026-02-01`)).body.data.map((item: { id: string }) => item.id)).toEqual([bought.id]);
    expect((await get(`${path}?date_from=2026-02-02`)).body.pagination.total).toBe(2);
    expect((await get(`${path}?limit=1&page=3`)).body.data.map((item: { id: string }) => item.id)).toEqual([bought.id]);
  });

  it('lets a customer read its own (403 for another), 404 CUSTOMER_NOT_FOUND for an unknown one, 400 for bad filters', async () => {
    const [alice, bob] = members;
    expect((await get(`/api/v1/customers/${alice.id}/interactions`, alice.token)).status).toBe(200);
    const other = await get(`/api/v1/customers/${alice.id}/interactions`, bob.token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('insufficient_scope');
    for (const id of [randomUUID(), 'not-an-id']) {
      const response = await get(`/api/v1/customers/${id}/interactions`);
      expect([id, response.status, response.body.error.code]).toEqual([id, 404, 'CUSTOMER_NOT_FOUND']);
    }
    const bad = await get(`/api/v1/customers/${alice.id}/interactions?type=dance&date_from=soon`);
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['date_from', 'type']);
    expect(detailFields((await get(`/api/v1/customers/${alice.id}/interactions?type=dance`)).body)).toEqual(['type']);
  });
});

describe('Idempotency-Key on recording and refunding', () => {
  const withKey = (path: string, body: unknown, key: string, token: string = admin.token) =>
    platform.api('POST', path, { token, body, headers: { 'Idempotency-Key': key } });
  const purchasesOf = async (customerId: string) => (await platform.sql.query('select id from point.purchase where member_id = $1', [customerId])).rows;
  const refundsOf = async (transactionId: string) => (await platform.sql.query('select id from point.purchase_refund where purchase_id = $1', [transactionId])).rows;

  it('answers a repeated purchase with the first response and records it once; another body is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const customer = await platform.loginMember();
    const key = unique('purchase-key');
    const first = await withKey(BASE, { customer_id: customer.id, amount: 12.5, category: 'grocery' }, key);
    const again = await withKey(BASE, { category: 'grocery', amount: 12.5, customer_id: customer.id }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await purchasesOf(customer.id)).toHaveLength(1);
    expect(await balanceOf(customer.id)).toBe(12);
    const other = await withKey(BASE, { customer_id: customer.id, amount: 13 }, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
    // Keys belong to their caller: another caller's same key is a request of its own.
    const byMarketing = await withKey(BASE, { customer_id: customer.id, amount: 12.5, category: 'grocery' }, key, marketing.token);
    expect(byMarketing.status).toBe(201);
    expect(byMarketing.body.data.id).not.toBe(first.body.data.id);
    expect(await purchasesOf(customer.id)).toHaveLength(2);
  });

  it('records once when two identical purchases race with one key', async () => {
    const customer = await platform.loginMember();
    const key = unique('purchase-race');
    const answers = await Promise.all([0, 1, 2].map(() => withKey(BASE, { customer_id: customer.id, amount: 5 }, key)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(await purchasesOf(customer.id)).toHaveLength(1);
    expect(await balanceOf(customer.id)).toBe(5);
  });

  it('answers a repeated refund with the first response and refunds once; another body is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const { customer, transaction } = await purchaseFor(100);
    const key = unique('refund-key');
    const first = await withKey(`${BASE}/${transaction.id}/refund`, { amount: 40 }, key);
    const again = await withKey(`${BASE}/${transaction.id}/refund`, { amount: 40 }, key);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'partially_refunded', refunded_amount: 40, points_reversed: 40 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await refundsOf(transaction.id)).toHaveLength(1);
    expect(await balanceOf(customer.id)).toBe(60);
    const other = await withKey(`${BASE}/${transaction.id}/refund`, { amount: 41 }, key);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
    // A full refund's repeat is answered, not refused as already refunded.
    const allKey = unique('refund-all');
    const all = await withKey(`${BASE}/${transaction.id}/refund`, {}, allKey);
    const allAgain = await withKey(`${BASE}/${transaction.id}/refund`, {}, allKey);
    expect([all.status, allAgain.status]).toEqual([200, 200]);
    expect(allAgain.body).toEqual(all.body);
    expect(await refundsOf(transaction.id)).toHaveLength(2);
  });

  it('refunds once when two identical refunds race with one key', async () => {
    const { customer, transaction } = await purchaseFor(100);
    const key = unique('refund-race');
    const answers = await Promise.all([0, 1].map(() => withKey(`${BASE}/${transaction.id}/refund`, { amount: 30 }, key)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(await refundsOf(transaction.id)).toHaveLength(1);
    expect((await get(`${BASE}/${transaction.id}`)).body.data).toMatchObject({ refunded_amount: 30, points_reversed: 30 });
    expect(await balanceOf(customer.id)).toBe(70);
  });

  it('answers 400 on a malformed Idempotency-Key', async () => {
    const { transaction } = await purchaseFor(10);
    const response = await withKey(`${BASE}/${transaction.id}/refund`, {}, 'x'.repeat(256));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });
});
