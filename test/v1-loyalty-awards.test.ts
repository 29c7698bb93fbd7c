import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const BASE = '/api/v1/customers';
const BATCH = '/api/v1/points/batch-award';

// A database of its own: a thousand awards are a thousand points.earned events, which would queue ahead of
// the events other test files wait for (their notifications) in a shared database's job queue.
const { platform, admin, marketing, tenant, members } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 3 });
const [alice, bob, carol] = [0, 1, 2].map((index) => ({ get id() { return members[index].id; }, get token() { return members[index].token; } }));

const post = (path: string, body: unknown, token: string = admin.token, headers: Record<string, string> = {}) => platform.api('POST', path, { token, body, headers });
const award = (customerId: string, body: Record<string, unknown>, headers: Record<string, string> = {}, token: string = admin.token) => post(`${BASE}/${customerId}/points/award`, body, token, headers);
const balanceOf = async (customerId: string) => (await platform.api('GET', `${BASE}/${customerId}/points/balance`, { token: admin.token })).body.data.balance as number;
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => (body.error.details ?? []).map((detail) => detail.field).sort();
const earnedEvents = async (memberId: string) =>
  (await platform.sql.query(`select payload from point.outbox_event where type = 'points.earned' and aggregate_id = $1 order by sequence`, [memberId])).rows.map((row) => row.payload);

/** Members made straight in the auth schema, as many as a batch needs. */
async function makeCustomers(count: number): Promise<string[]> {
  const { rows } = await platform.sql.query(
    `insert into auth.member (id, status, created_at, updated_at) select gen_random_uuid(), 'ACTIVE', now(), now() from generate_series(1, $1) returning id`,
    [count],
  );
  return rows.map((row) => row.id as string);
}

describe('POST /api/v1/customers/{id}/points/award', () => {
  it('awards whole points and answers the earned points transaction, keeping reason, transaction id and metadata', async () => {
    const transactionId = unique('order');
    const response = await award(alice.id, { points: 120, reason: 'Purchase bonus', transaction_id: transactionId, metadata: { orderRef: 'A-1', channel_name: 'web' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { id: expect.any(String), customer_id: alice.id, points: 120, type: 'earned', reason: 'Purchase bonus', balance_after: 120, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
    });
    const { rows } = await platform.sql.query('select reference_id, metadata, amount::text from point.point_transaction where id = $1', [response.body.data.id]);
    expect(rows[0]).toEqual({ reference_id: transactionId, metadata: { orderRef: 'A-1', channel_name: 'web' }, amount: '120.00' });
    expect(await balanceOf(alice.id)).toBe(120);
  });

  it('announces points.earned with the reason, the caller transaction id and metadata beside the ledger entry', async () => {
    const transactionId = unique('order');
    const response = await award(bob.id, { points: 30, reason: 'Welcome', transaction_id: transactionId, metadata: { source: 'crm' } });
    expect(response.status).toBe(200);
    const events = await earnedEvents(bob.id);
    expect(events.find((event) => event.transactionId === response.body.data.id)).toEqual(
      expect.objectContaining({ memberId: bob.id, amount: '30.00', balanceAfter: response.body.data.balance_after.toFixed(2), note: 'Welcome', referenceId: transactionId, metadata: { source: 'crm' } }),
    );
  });

  it('returns the first entry for a transaction id already awarded to the customer, and awards nothing', async () => {
    const transactionId = unique('order');
    const first = await award(carol.id, { points: 40, reason: 'Order', transaction_id: transactionId });
    const before = await balanceOf(carol.id);
    const again = await award(carol.id, { points: 40, reason: 'Order', transaction_id: transactionId });
    const changed = await award(carol.id, { points: 99, reason: 'Order, retyped', transaction_id: transactionId });
    expect([again.status, changed.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(changed.body).toEqual(first.body);
    expect(await balanceOf(carol.id)).toBe(before);
    // The same transaction id for another customer is another award.
    const other = await award(alice.id, { points: 1, transaction_id: transactionId });
    expect(other.status).toBe(200);
    expect(other.body.data.id).not.toBe(first.body.data.id);
  });

  it("keeps each partner's transaction ids its own: the same id from two API keys is two awards, neither answered with the other's entry", async () => {
    const roleId = await platform.roleId('admin');
    const partnerKey = async () => {
      const generated = await platform.api('POST', '/auth/api/services/generate-api-key', { token: admin.token, body: { name: unique('partner'), roleId, scopes: ['read', 'write'] } });
      expect(generated.status).toBe(201);
      return generated.body.data.apiKey as string;
    };
    const [partnerA, partnerB] = [await partnerKey(), await partnerKey()];
    const byKey = (key: string, body: Record<string, unknown>) => platform.api('POST', `${BASE}/${carol.id}/points/award`, { headers: { 'x-api-key': key }, body });
    const transactionId = unique('shared-order');
    const before = await balanceOf(carol.id);
    const first = await byKey(partnerA, { points: 50, reason: 'Partner A private note', transaction_id: transactionId });
    const second = await byKey(partnerB, { points: 7, reason: 'Partner B order', transaction_id: transactionId });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.data).toMatchObject({ points: 7, reason: 'Partner B order', type: 'earned' });
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(JSON.stringify(second.body)).not.toContain('Partner A private note');
    expect(await balanceOf(carol.id)).toBe(before + 57);
    // Each partner's repeat still answers its own first entry.
    expect((await byKey(partnerB, { points: 7, reason: 'Partner B order', transaction_id: transactionId })).body).toEqual(second.body);
    expect((await byKey(partnerA, { points: 50, reason: 'Partner A private note', transaction_id: transactionId })).body).toEqual(first.body);
    expect(await balanceOf(carol.id)).toBe(before + 57);
  });

  it('awards a transaction id once when its awards race', async () => {
    const [customer] = await makeCustomers(1);
    const transactionId = unique('order');
    const answers = await Promise.all(Array.from({ length: 4 }, () => award(customer, { points: 9, transaction_id: transactionId })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(await balanceOf(customer)).toBe(9);
  });

  it('takes whole positive points only and names every bad field', async () => {
    const response = await award(alice.id, { points: 1.5, reason: 7, transaction_id: '' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(response.body)).toEqual(['points', 'reason']);
    for (const points of [0, -5, null, 'ten']) {
      const bad = await award(alice.id, { points });
      expect([points, bad.status, detailFields(bad.body)]).toEqual([points, 400, ['points']]);
    }
    const rules = await award(alice.id, { points: 0, transaction_id: '', reason: 'x'.repeat(1001) });
    expect(detailFields(rules.body)).toEqual(['points', 'reason', 'transaction_id']);
    expect(detailFields((await award(alice.id, { points: 5, metadata: 'text' })).body)).toEqual(['metadata']);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown customer and for what is no id', async () => {
    for (const id of [randomUUID(), 'nobody']) {
      const response = await award(id, { points: 10 });
      expect([id, response.status]).toEqual([id, 404]);
      expect(response.body).toEqual({ error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('refuses customer tokens and read-only callers (403 insufficient_scope)', async () => {
    for (const token of [alice.token, tenant.token]) {
      const response = await award(alice.id, { points: 10 }, {}, token);
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write"');
      expect(response.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
    }
    expect((await award(alice.id, { points: 1 }, {}, marketing.token)).status).toBe(200);
  });
});

describe('Idempotency-Key on the award', () => {
  it('answers the first response again for the same key and body, and 409 IDEMPOTENCY_KEY_REUSED for another body', async () => {
    const key = unique('key');
    const before = await balanceOf(bob.id);
    const first = await award(bob.id, { points: 15, reason: 'Survey' }, { 'Idempotency-Key': key });
    const again = await award(bob.id, { reason: 'Survey', points: 15 }, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(bob.id)).toBe(before + 15);
    const other = await award(bob.id, { points: 16, reason: 'Survey' }, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
    // Keys belong to their caller: another caller's same key is its own request.
    const byMarketing = await award(bob.id, { points: 15, reason: 'Survey' }, { 'Idempotency-Key': key }, marketing.token);
    expect(byMarketing.status).toBe(200);
    expect(byMarketing.body.data.id).not.toBe(first.body.data.id);
  });

  it('awards once when two identical requests race', async () => {
    const key = unique('key');
    const before = await balanceOf(carol.id);
    const answers = await Promise.all(Array.from({ length: 4 }, () => award(carol.id, { points: 7, reason: 'Race' }, { 'Idempotency-Key': key })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(await balanceOf(carol.id)).toBe(before + 7);
  });

  it('refuses a key that is empty or too long (400 naming the header)', async () => {
    const response = await award(carol.id, { points: 1 }, { 'Idempotency-Key': 'x'.repeat(256) });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });
});

describe('POST /api/v1/points/batch-award', () => {
  it('awards every row on its own: unknown customers fail their row only', async () => {
    const [first, second] = await makeCustomers(2);
    const unknown = randomUUID();
    const response = await post(BATCH, {
      awards: [
        { customer_id: first, points: 10, reason: 'Campaign' },
        { customer_id: unknown, points: 5, reason: 'Campaign' },
        { customer_id: second, points: 20 },
        { customer_id: 'not-an-id', points: 5 },
        { customer_id: first.toUpperCase(), points: 1, reason: 'Again' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      processed: 3,
      failed: 2,
      results: [
        { customer_id: first, success: true, transaction_id: expect.any(String) },
        { customer_id: unknown, success: false, transaction_id: null, error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } },
        { customer_id: second, success: true, transaction_id: expect.any(String) },
        { customer_id: 'not-an-id', success: false, transaction_id: null, error: { code: 'CUSTOMER_NOT_FOUND', message: expect.any(String) } },
        { customer_id: first.toUpperCase(), success: true, transaction_id: expect.any(String) },
      ],
    });
    expect(await balanceOf(first)).toBe(11);
    expect(await balanceOf(second)).toBe(20);
    const history = await platform.api('GET', `${BASE}/${first}/points/history`, { token: admin.token });
    expect(history.body.data.map((entry: { id: string; reason: string }) => [entry.id, entry.reason])).toEqual([
      [response.body.data.results[4].transaction_id, 'Again'],
      [response.body.data.results[0].transaction_id, 'Campaign'],
    ]);
  });

  it('answers 400 naming every bad field of the rows, and of the list itself', async () => {
    const [customer] = await makeCustomers(1);
    const response = await post(BATCH, { awards: [{ customer_id: customer, points: 5 }, { customer_id: customer, points: '1x' }, { customer_id: customer, points: 2.5, reason: 3 }, { points: 1 }] });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(response.body)).toEqual(['awards[1].points', 'awards[2].points', 'awards[2].reason', 'awards[3].customer_id']);
    const rules = await post(BATCH, { awards: [{ customer_id: customer, points: 5 }, { customer_id: customer, points: 0 }, { customer_id: customer, points: 1, reason: 'x'.repeat(1001) }] });
    expect(rules.status).toBe(400);
    expect(detailFields(rules.body)).toEqual(['awards[1].points', 'awards[2].reason']);
    expect(await balanceOf(customer)).toBe(0);
    for (const awards of [undefined, 'many', [], Array.from({ length: 1001 }, () => ({ customer_id: customer, points: 1 }))]) {
      const bad = await post(BATCH, { awards });
      expect([bad.status, detailFields(bad.body)]).toEqual([400, ['awards']]);
    }
  });

  it('needs the admin scope', async () => {
    const response = await post(BATCH, { awards: [{ customer_id: alice.id, points: 1 }] }, marketing.token);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="admin"');
    expect((await post(BATCH, { awards: [{ customer_id: alice.id, points: 1 }] }, alice.token)).status).toBe(403);
  });

  it('replays a batch for its Idempotency-Key without awarding twice, and refuses the key with another batch', async () => {
    const customers = await makeCustomers(3);
    const key = unique('batch');
    const body = { awards: customers.map((customer_id, index) => ({ customer_id, points: index + 1, reason: 'Replay' })) };
    const [first, twin] = await Promise.all([post(BATCH, body, admin.token, { 'Idempotency-Key': key }), post(BATCH, body, admin.token, { 'Idempotency-Key': key })]);
    const again = await post(BATCH, body, admin.token, { 'Idempotency-Key': key });
    expect([first.status, twin.status, again.status]).toEqual([200, 200, 200]);
    expect(twin.body).toEqual(first.body);
    expect(again.body).toEqual(first.body);
    expect(await Promise.all(customers.map(balanceOf))).toEqual([1, 2, 3]);
    const other = await post(BATCH, { awards: [{ customer_id: customers[0], points: 9 }] }, admin.token, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  // How long it takes is measured by `npm run bench` (bench/v1.ts), never asserted here.
  it('awards 1,000 rows in one call', async () => {
    const customers = await makeCustomers(1000);
    const response = await post(BATCH, { awards: customers.map((customer_id) => ({ customer_id, points: 3, reason: 'Bulk' })) }, admin.token, { 'Idempotency-Key': unique('bulk') });
    expect(response.status).toBe(200);
    expect(response.body.data.processed).toBe(1000);
    expect(response.body.data.failed).toBe(0);
    const { rows } = await platform.sql.query(`select count(*)::int as n, sum(point_amount)::int as points from point.point_balance where member_id = any($1)`, [customers]);
    expect(rows[0]).toEqual({ n: 1000, points: 3000 });
  });
});
