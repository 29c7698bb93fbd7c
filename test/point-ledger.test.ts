import { randomUUID } from 'node:crypto';
import { usePlatform } from './support/use-platform';

const { platform, admin } = usePlatform({ staff: ['admin'] });

const earn = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  platform.api('POST', '/point/api/earn', { token: admin.token, body, headers });
const spend = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  platform.api('POST', '/point/api/spend', { token: admin.token, body, headers });
const balanceOf = async (memberId: string) => (await platform.api('GET', `/point/api/balance/${memberId}`, { token: admin.token })).body.data;
const ledgerRows = async (memberId: string) =>
  (await platform.sql.query('select action_type, amount::text, balance_after::text from point.point_transaction where member_id = $1 order by created_at, id', [memberId])).rows;

describe('earn and spend', () => {
  it('earns, spends and reports the balance in data, with data.message on writes', async () => {
    const member = await platform.loginMember();
    const earned = await earn({ memberId: member.id, amount: 120.5, purchaseAmount: 1000, shopId: 'shop-1', sourceBy: 'Purchase' });
    expect(earned.status).toBe(200);
    expect(earned.body).toEqual({ statusCode: 200, data: { message: 'Points earned' } });
    expect((await spend({ memberId: member.id, amount: 20.25 })).status).toBe(200);
    expect(await balanceOf(member.id)).toEqual({ memberId: member.id, pointAmount: 100.25, purchaseAmount: 1000, pendingAmount: 0 });
    const mine = await platform.api('GET', '/point/api/balance/me', { token: member.token });
    expect(mine.body).toEqual({ statusCode: 200, data: { memberId: member.id, pointAmount: 100.25, purchaseAmount: 1000, pendingAmount: 0 } });
    expect(await ledgerRows(member.id)).toEqual([
      { action_type: 'EARN', amount: '120.50', balance_after: '120.50' },
      { action_type: 'SPEND', amount: '20.25', balance_after: '100.25' },
    ]);
  });

  it('refuses a spend larger than the balance with 400 on amount and changes nothing', async () => {
    const member = await platform.loginMember();
    await earn({ memberId: member.id, amount: 10 });
    const refused = await spend({ memberId: member.id, amount: 10.01 });
    expect(refused.status).toBe(400);
    expect(refused.body.data.errors).toEqual([{ field: 'amount', message: expect.stringContaining('Insufficient points') }]);
    expect((await balanceOf(member.id)).pointAmount).toBe(10);
    expect(await ledgerRows(member.id)).toHaveLength(1);
  });

  it('never overdraws under 60 concurrent spends, and the ledger sums to the balance', async () => {
    const member = await platform.loginMember();
    await earn({ memberId: member.id, amount: 500 });
    const results = await Promise.all(Array.from({ length: 60 }, () => spend({ memberId: member.id, amount: 10 })));
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect((await balanceOf(member.id)).pointAmount).toBe(0);
    const { rows } = await platform.sql.query(
      `select sum(case when action_type = 'EARN' then amount else -amount end)::text as net, count(*)::int as entries,
              min(balance_after)::text as lowest from point.point_transaction where member_id = $1`,
      [member.id],
    );
    expect(rows[0]).toEqual({ net: '0.00', entries: 51, lowest: '0.00' });
  });

  it('validates the body: amounts, UUIDs, decimals and enums, and writes nothing', async () => {
    const member = await platform.loginMember();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 5 }, 'memberId'],
      [{ memberId: 'nope', amount: 5 }, 'memberId'],
      [{ memberId: member.id, amount: -1 }, 'amount'],
      [{ memberId: member.id, amount: 1.234 }, 'amount'],
      [{ memberId: member.id, amount: 1e-7 }, 'amount'],
      [{ memberId: member.id, amount: 1, purchaseAmount: 5e-9 }, 'purchaseAmount'],
      [{ memberId: member.id, amount: 'ten' }, 'amount'],
      [{ memberId: member.id, amount: 1, sourceBy: 'Magic' }, 'sourceBy'],
      [{ memberId: member.id, amount: 1, shopId: 'x'.repeat(300) }, 'shopId'],
    ];
    for (const [body, field] of cases) {
      const response = await earn(body);
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(response.body.data.errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    expect(await ledgerRows(member.id)).toEqual([]);
  });

  it('needs point:manage: 401 without a token, 403 for tenant staff and members', async () => {
    const member = await platform.loginMember();
    const tenant = await platform.createStaff('tenant');
    expect((await platform.api('POST', '/point/api/earn', { body: { memberId: member.id, amount: 1 } })).status).toBe(401);
    expect((await platform.api('POST', '/point/api/earn', { token: tenant.token, body: { memberId: member.id, amount: 1 } })).status).toBe(403);
    expect((await platform.api('POST', '/point/api/earn', { token: member.token, body: { memberId: member.id, amount: 1 } })).status).toBe(403);
    const marketing = await platform.createStaff('marketing');
    expect((await platform.api('POST', '/point/api/earn', { token: marketing.token, body: { memberId: member.id, amount: 1 } })).status).toBe(200);
  });
});

describe('idempotency', () => {
  it('returns the first result for a repeated key and body, and 409 for the same key with another body', async () => {
    const member = await platform.loginMember();
    const key = { 'idempotency-key': randomUUID() };
    const first = await earn({ memberId: member.id, amount: 7 }, key);
    const again = await earn({ amount: 7, memberId: member.id }, key);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(await ledgerRows(member.id)).toHaveLength(1);
    const other = await earn({ memberId: member.id, amount: 8 }, key);
    expect(other.status).toBe(409);
    expect(await ledgerRows(member.id)).toHaveLength(1);
    expect((await balanceOf(member.id)).pointAmount).toBe(7);
  });

  it('writes once when the same key arrives concurrently', async () => {
    const member = await platform.loginMember();
    const key = { 'idempotency-key': randomUUID() };
    const results = await Promise.all(Array.from({ length: 8 }, () => earn({ memberId: member.id, amount: 3 }, key)));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(200));
    expect(await ledgerRows(member.id)).toHaveLength(1);
  });

  it('lets a refused spend be retried with the same key once the balance allows it', async () => {
    const member = await platform.loginMember();
    const key = { 'idempotency-key': randomUUID() };
    expect((await spend({ memberId: member.id, amount: 5 }, key)).status).toBe(400);
    await earn({ memberId: member.id, amount: 5 });
    expect((await spend({ memberId: member.id, amount: 5 }, key)).status).toBe(200);
    expect((await balanceOf(member.id)).pointAmount).toBe(0);
  });
});

describe('federation', () => {
  it('shows Member.pointBalance through the gateway, from the point subgraph', async () => {
    const member = await platform.loginMember();
    await earn({ memberId: member.id, amount: 42 });
    const one = await platform.api('GET', `/auth/api/members/${member.id}?includePointBalance=true`, { token: admin.token });
    expect(one.body.data.data).toMatchObject({ id: member.id, pointBalance: 42 });
    const without = await platform.api('GET', `/auth/api/members/${member.id}`, { token: admin.token });
    expect(without.body.data.data).not.toHaveProperty('pointBalance');
    const list = await platform.api('GET', '/auth/api/members?includePointBalance=true&limit=100', { token: admin.token });
    expect(list.body.data.data.data.find((item: { id: string }) => item.id === member.id)).toMatchObject({ pointBalance: 42 });
    const graph = await platform.graphql('query ($id: ID!) { member(id: $id) { id name pointBalance } }', { id: member.id }, admin.token);
    expect(graph.body.data.member).toMatchObject({ id: member.id, pointBalance: 42 });
  });
});

describe('through GraphQL', () => {
  it('earns with an idempotency key and reads the history with the member from the auth subgraph', async () => {
    const member = await platform.loginMember();
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name: 'Graph Member' } });
    const earnMutation = `mutation ($input: PointMovementInput!, $key: String) {
      earnPoints(input: $input, idempotencyKey: $key) { id amount balanceAfter actionType } }`;
    const input = { memberId: member.id, amount: 15.5, sourceBy: 'Campaign' };
    const first = await platform.graphql(earnMutation, { input, key: 'gql-key-1' }, admin.token);
    const again = await platform.graphql(earnMutation, { input, key: 'gql-key-1' }, admin.token);
    expect(first.body.data.earnPoints).toMatchObject({ amount: 15.5, balanceAfter: 15.5, actionType: 'EARN' });
    expect(again.body.data.earnPoints.id).toBe(first.body.data.earnPoints.id);
    const history = await platform.graphql(
      `query ($ids: [ID!]) { pointHistory(memberIds: $ids) { meta { total } data { amount member { id name pointBalance } } } }`,
      { ids: [member.id] },
      admin.token,
    );
    expect(history.body.data.pointHistory).toEqual({
      meta: { total: 1 },
      data: [{ amount: 15.5, member: { id: member.id, name: 'Graph Member', pointBalance: 15.5 } }],
    });
    const refused = await platform.graphql(
      'mutation ($input: PointMovementInput!) { spendPoints(input: $input) { id } }',
      { input: { memberId: member.id, amount: 100 } },
      admin.token,
    );
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', errors: [{ field: 'amount', message: expect.any(String) }] });
  });
});
