import { randomUUID } from 'node:crypto';
import { usePlatform } from './support/use-platform';

const { platform, admin, marketing, tenant, member } = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 1 });

type Kind = 'earn' | 'spend';
/** No Authorization header (an empty token is not sent; `undefined` would pick the default token). */
const ANONYMOUS = '';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const open = (kind: Kind, body: Record<string, unknown>, options: { token?: string; headers?: Record<string, string> } = {}) =>
  platform.api('POST', `/point/api/request/${kind}`, { token: options.token ?? admin.token, body, headers: options.headers });
const review = (id: string, body: Record<string, unknown>, token = admin.token) =>
  platform.api('PATCH', `/point/api/request/${id}/review`, { token, body });
const getTicket = (id: string, token = admin.token) => platform.api('GET', `/point/api/request/${id}`, { token });
const list = (queryString = '', token = admin.token) => platform.api('GET', `/point/api/request${queryString}`, { token });
const balanceOf = async (memberId: string) => (await platform.api('GET', `/point/api/balance/${memberId}`, { token: admin.token })).body.data.pointAmount;
const fieldsOf = (response: { body: any }) => (response.body.data.errors ?? []).map((error: { field: string }) => error.field);

const ticketIdsOf = async (memberId: string): Promise<string[]> =>
  (await platform.sql.query('select id from point.point_request_ticket where member_id = $1 order by created_at, id', [memberId])).rows.map((row) => row.id);
const ticketCount = async () => (await platform.sql.query('select count(*)::int as count from point.point_request_ticket')).rows[0].count as number;
const ledgerRows = async (memberId: string) =>
  (
    await platform.sql.query(
      `select action_type, amount::text, purchase_amount::text, shop_id, category_id, note, source_by, balance_after::text, request_ticket_id
         from point.point_transaction where member_id = $1 order by created_at, id`,
      [memberId],
    )
  ).rows;

/**
 * Opens a ticket through REST and returns its id (the response itself carries only `data.message`).
 * Tenant staff open them by default, so that the admin and marketing staff reviewing them are not their requesters.
 */
async function openTicket(kind: Kind, body: Record<string, unknown>, token = tenant.token): Promise<string> {
  const memberId = body.memberId as string;
  const before = await ticketIdsOf(memberId);
  const response = await open(kind, body, { token });
  expect(response.status).toBe(200);
  const created = (await ticketIdsOf(memberId)).filter((id) => !before.includes(id));
  expect(created).toHaveLength(1);
  return created[0];
}

const earnDirectly = async (memberId: string, amount: number) =>
  expect((await platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId, amount } })).status).toBe(200);

describe('opening tickets', () => {
  it('opens a pending earn ticket recording the requester, and moves no points', async () => {
    const memberId = randomUUID();
    const response = await open('earn', { memberId, amount: 120.5, purchaseAmount: 1000, shopId: 'shop-1', categoryId: 'cat-1', requestReason: 'Receipt lost' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: 'Point request created' } });
    const [id] = await ticketIdsOf(memberId);
    const read = await getTicket(id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      statusCode: 200,
      data: {
        id,
        memberId,
        actionType: 'EARN',
        amount: 120.5,
        purchaseAmount: 1000,
        shopId: 'shop-1',
        categoryId: 'cat-1',
        status: 'pending',
        requestReason: 'Receipt lost',
        reviewReason: null,
        requestedById: admin.id,
        reviewedById: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        reviewedAt: null,
      },
    });
    expect(await ledgerRows(memberId)).toEqual([]);
    expect(await balanceOf(memberId)).toBe(0);
  });

  it('opens a spend ticket with the optional fields absent; tenant staff may open tickets', async () => {
    const memberId = randomUUID();
    const id = await openTicket('spend', { memberId, amount: 5, requestReason: 'Goodwill correction' }, tenant.token);
    const { data } = (await getTicket(id)).body;
    expect(data).toMatchObject({ actionType: 'SPEND', amount: 5, purchaseAmount: 0, shopId: null, categoryId: null, status: 'pending', requestedById: tenant.id });
  });

  it('validates the body with field errors and stores nothing', async () => {
    const valid = { memberId: randomUUID(), amount: 10, requestReason: 'why' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 10, requestReason: 'why' }, 'memberId'],
      [{ ...valid, memberId: 'not-a-uuid' }, 'memberId'],
      [{ ...valid, amount: undefined }, 'amount'],
      [{ ...valid, amount: 0 }, 'amount'],
      [{ ...valid, amount: -5 }, 'amount'],
      [{ ...valid, amount: 1.234 }, 'amount'],
      [{ ...valid, amount: 'ten' }, 'amount'],
      [{ ...valid, purchaseAmount: -1 }, 'purchaseAmount'],
      [{ ...valid, shopId: 'x'.repeat(257) }, 'shopId'],
      [{ ...valid, categoryId: 'x'.repeat(257) }, 'categoryId'],
      [{ ...valid, requestReason: undefined }, 'requestReason'],
      [{ ...valid, requestReason: '' }, 'requestReason'],
      [{ ...valid, requestReason: 'x'.repeat(1001) }, 'requestReason'],
    ];
    for (const kind of ['earn', 'spend'] as const) {
      for (const [body, field] of cases) {
        const response = await open(kind, body);
        expect({ kind, field, status: response.status, message: response.body.data.message }).toEqual({ kind, field, status: 400, message: 'Validation failed' });
        expect(fieldsOf(response)).toContain(field);
      }
    }
    expect(await ticketIdsOf(valid.memberId)).toEqual([]);
  });

  it('needs point:request: 401 without a token, 403 for members', async () => {
    const body = { memberId: member.id, amount: 1, requestReason: 'please' };
    const before = await ticketIdsOf(member.id);
    for (const kind of ['earn', 'spend'] as const) {
      const anonymous = await open(kind, body, { token: ANONYMOUS });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ statusCode: 401, data: { message: expect.any(String) } });
      const asMember = await open(kind, body, { token: member.token });
      expect(asMember.status).toBe(403);
      expect(asMember.body.data.message).toMatch(/permission/i);
    }
    expect(await ticketIdsOf(member.id)).toEqual(before);
    await openTicket('earn', body, marketing.token);
  });

  it('opens one ticket per Idempotency-Key and body; the same key with another body is 409', async () => {
    const memberId = randomUUID();
    const key = { 'idempotency-key': randomUUID() };
    const first = await open('earn', { memberId, amount: 7, requestReason: 'twice' }, { headers: key });
    const again = await open('earn', { requestReason: 'twice', amount: 7, memberId }, { headers: key });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(await ticketIdsOf(memberId)).toHaveLength(1);
    const other = await open('earn', { memberId, amount: 8, requestReason: 'twice' }, { headers: key });
    expect(other.status).toBe(409);
    expect(other.body.data.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    expect(await ticketIdsOf(memberId)).toHaveLength(1);
    // A key scopes one kind of request: the same key on /request/spend and on /earn acts on its own.
    expect((await open('spend', { memberId, amount: 7, requestReason: 'twice' }, { headers: key })).status).toBe(200);
    expect(await ticketIdsOf(memberId)).toHaveLength(2);
    expect((await platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId, amount: 7 }, headers: key })).status).toBe(200);
    expect(await ledgerRows(memberId)).toHaveLength(1);
  });

  it('opens one ticket when the same key arrives concurrently', async () => {
    const memberId = randomUUID();
    const key = { 'idempotency-key': randomUUID() };
    const results = await Promise.all(Array.from({ length: 8 }, () => open('spend', { memberId, amount: 3, requestReason: 'race' }, { headers: key })));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(200));
    expect(await ticketIdsOf(memberId)).toHaveLength(1);
  });
});

describe('reviewing tickets', () => {
  it('approving an earn ticket writes the ledger entry with request_ticket_id and credits the balance', async () => {
    const memberId = randomUUID();
    const id = await openTicket('earn', { memberId, amount: 80.25, purchaseAmount: 300, shopId: 'shop-9', categoryId: 'food', requestReason: 'Missed scan' });
    const response = await review(id, { status: 'approved', reviewReason: 'Receipt checked' }, marketing.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: 'Point request reviewed' } });
    expect(await ledgerRows(memberId)).toEqual([
      {
        action_type: 'EARN',
        amount: '80.25',
        purchase_amount: '300.00',
        shop_id: 'shop-9',
        category_id: 'food',
        note: 'Missed scan',
        source_by: 'Manual',
        balance_after: '80.25',
        request_ticket_id: id,
      },
    ]);
    expect(await balanceOf(memberId)).toBe(80.25);
    const { data } = (await getTicket(id)).body;
    expect(data).toMatchObject({ status: 'approved', reviewReason: 'Receipt checked', reviewedById: marketing.id, reviewedAt: expect.stringMatching(ISO_MS) });
    expect(new Date(data.updatedAt).getTime()).toBeGreaterThan(new Date(data.createdAt).getTime());
  });

  it('approving a spend ticket debits the balance', async () => {
    const memberId = randomUUID();
    await earnDirectly(memberId, 100);
    const id = await openTicket('spend', { memberId, amount: 40, requestReason: 'Manual redemption' });
    expect((await review(id, { status: 'approved', reviewReason: 'ok' })).status).toBe(200);
    expect(await balanceOf(memberId)).toBe(60);
    const rows = await ledgerRows(memberId);
    expect(rows.map((row) => [row.action_type, row.amount, row.balance_after, row.request_ticket_id, row.source_by])).toEqual([
      ['EARN', '100.00', '100.00', null, null],
      ['SPEND', '40.00', '60.00', id, 'Manual'],
    ]);
  });

  it('rejecting records the review and moves no points', async () => {
    const memberId = randomUUID();
    const id = await openTicket('earn', { memberId, amount: 50, requestReason: 'Please' });
    const response = await review(id, { status: 'rejected', reviewReason: 'No receipt' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusCode: 200, data: { message: 'Point request reviewed' } });
    expect(await ledgerRows(memberId)).toEqual([]);
    expect(await balanceOf(memberId)).toBe(0);
    expect((await getTicket(id)).body.data).toMatchObject({ status: 'rejected', reviewReason: 'No receipt', reviewedById: admin.id, reviewedAt: expect.stringMatching(ISO_MS) });
  });

  it('refuses a second review with 409 and keeps the first', async () => {
    const memberId = randomUUID();
    const id = await openTicket('earn', { memberId, amount: 10, requestReason: 'once' });
    expect((await review(id, { status: 'approved', reviewReason: 'first' })).status).toBe(200);
    for (const status of ['approved', 'rejected']) {
      const again = await review(id, { status, reviewReason: 'second' }, marketing.token);
      expect(again.status).toBe(409);
      expect(again.body.data.message).toMatch(/already reviewed/);
    }
    expect((await getTicket(id)).body.data).toMatchObject({ status: 'approved', reviewReason: 'first', reviewedById: admin.id });
    expect(await ledgerRows(memberId)).toHaveLength(1);
    expect(await balanceOf(memberId)).toBe(10);

    const rejected = await openTicket('earn', { memberId, amount: 10, requestReason: 'once more' });
    expect((await review(rejected, { status: 'rejected', reviewReason: 'no' })).status).toBe(200);
    expect((await review(rejected, { status: 'approved', reviewReason: 'changed my mind' })).status).toBe(409);
    expect(await ledgerRows(memberId)).toHaveLength(1);
  });

  it('of two concurrent reviews exactly one applies, with one ledger entry', async () => {
    for (let round = 0; round < 5; round++) {
      const memberId = randomUUID();
      const id = await openTicket('earn', { memberId, amount: 15, requestReason: `race ${round}` });
      const results = await Promise.all([review(id, { status: 'approved', reviewReason: 'a' }), review(id, { status: 'approved', reviewReason: 'b' }, marketing.token)]);
      expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
      const rows = await ledgerRows(memberId);
      expect(rows).toHaveLength(1);
      expect(rows[0].request_ticket_id).toBe(id);
      expect(await balanceOf(memberId)).toBe(15);
      const winner = results[0].status === 200 ? { reviewReason: 'a', reviewedById: admin.id } : { reviewReason: 'b', reviewedById: marketing.id };
      expect((await getTicket(id)).body.data).toMatchObject({ status: 'approved', ...winner });
    }
  });

  it('refuses to approve a spend that would overdraw (400) and leaves the ticket pending', async () => {
    const memberId = randomUUID();
    await earnDirectly(memberId, 10);
    const id = await openTicket('spend', { memberId, amount: 10.01, requestReason: 'too much' });
    const refused = await review(id, { status: 'approved', reviewReason: 'ok' });
    expect(refused.status).toBe(400);
    expect(refused.body.data.errors).toEqual([{ field: 'amount', message: expect.stringContaining('Insufficient points') }]);
    expect((await getTicket(id)).body.data).toMatchObject({ status: 'pending', reviewReason: null, reviewedById: null, reviewedAt: null });
    expect(await ledgerRows(memberId)).toHaveLength(1);
    expect(await balanceOf(memberId)).toBe(10);
    // Still pending: once the balance covers it, the same ticket can be approved.
    await earnDirectly(memberId, 0.01);
    expect((await review(id, { status: 'approved', reviewReason: 'now ok' })).status).toBe(200);
    expect(await balanceOf(memberId)).toBe(0);
    expect((await ledgerRows(memberId)).map((row) => row.request_ticket_id)).toEqual([null, null, id]);
  });

  it('refuses to let a requester approve their own ticket (403), while they may withdraw it by rejecting', async () => {
    const memberId = randomUUID();
    const own = await openTicket('earn', { memberId, amount: 25, requestReason: 'my own' }, marketing.token);
    const refused = await review(own, { status: 'approved', reviewReason: 'looks fine to me' }, marketing.token);
    expect(refused.status).toBe(403);
    expect(refused.body.data.message).toMatch(/someone other than its requester/);
    expect((await getTicket(own)).body.data).toMatchObject({ status: 'pending', reviewedById: null });
    expect(await ledgerRows(memberId)).toEqual([]);
    expect((await review(own, { status: 'approved', reviewReason: 'checked' }, admin.token)).status).toBe(200);
    const withdrawn = await openTicket('earn', { memberId, amount: 1, requestReason: 'mistake' }, marketing.token);
    expect((await review(withdrawn, { status: 'rejected', reviewReason: 'opened by mistake' }, marketing.token)).status).toBe(200);
  });

  it('answers 400 on status for a review to pending, and changes nothing', async () => {
    const memberId = randomUUID();
    const id = await openTicket('earn', { memberId, amount: 5, requestReason: 'wait' });
    const response = await review(id, { status: 'pending', reviewReason: 'not yet' });
    expect(response.status).toBe(400);
    expect(response.body.data.errors).toEqual([{ field: 'status', message: expect.stringContaining('a review approves or rejects') }]);
    expect((await getTicket(id)).body.data).toMatchObject({ status: 'pending', reviewReason: null, reviewedAt: null });
    expect(await ledgerRows(memberId)).toEqual([]);
  });

  it('validates the review body and the id', async () => {
    const memberId = randomUUID();
    const id = await openTicket('earn', { memberId, amount: 5, requestReason: 'check' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ reviewReason: 'no status' }, 'status'],
      [{ status: 'maybe', reviewReason: 'x' }, 'status'],
      [{ status: 'approved' }, 'reviewReason'],
      [{ status: 'approved', reviewReason: '' }, 'reviewReason'],
    ];
    for (const [body, field] of cases) {
      const response = await review(id, body);
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(fieldsOf(response)).toContain(field);
    }
    const badId = await review('not-a-uuid', { status: 'approved', reviewReason: 'x' });
    expect(badId.status).toBe(400);
    expect(fieldsOf(badId)).toContain('id');
    const unknown = await review(randomUUID(), { status: 'approved', reviewReason: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.message).toBe('Point request ticket not found');
    expect((await getTicket(id)).body.data.status).toBe('pending');
    expect(await ledgerRows(memberId)).toEqual([]);
  });

  it('needs point:review: 401 without a token, 403 for tenant staff and members', async () => {
    const memberId = randomUUID();
    const id = await openTicket('earn', { memberId, amount: 5, requestReason: 'who reviews' }, tenant.token);
    const body = { status: 'approved', reviewReason: 'ok' };
    expect((await review(id, body, ANONYMOUS)).status).toBe(401);
    expect((await review(id, body, tenant.token)).status).toBe(403);
    expect((await review(id, body, member.token)).status).toBe(403);
    expect((await getTicket(id)).body.data.status).toBe('pending');
    expect(await ledgerRows(memberId)).toEqual([]);
    expect((await review(id, body, marketing.token)).status).toBe(200);
    expect(await balanceOf(memberId)).toBe(5);
  });
});

describe('reading tickets', () => {
  it('lists newest first, paginated directly in data, filtered by status and action type', async () => {
    const memberId = randomUUID();
    const first = await openTicket('earn', { memberId, amount: 1, requestReason: 'one' });
    const second = await openTicket('spend', { memberId, amount: 2, requestReason: 'two' });
    const third = await openTicket('earn', { memberId, amount: 3, requestReason: 'three' });
    expect((await review(first, { status: 'rejected', reviewReason: 'no' })).status).toBe(200);

    const newest = await list('?limit=3');
    expect(newest.status).toBe(200);
    const total = await ticketCount();
    expect(newest.body.data.meta).toEqual({ page: 1, limit: 3, total, totalPages: Math.ceil(total / 3) });
    expect(newest.body.data.data.map((ticket: { id: string }) => ticket.id)).toEqual([third, second, first]);
    expect(newest.body.data.data[2]).toMatchObject({ status: 'rejected', reviewReason: 'no', amount: 1, requestReason: 'one' });

    const defaults = await list();
    expect(defaults.body.data.meta).toMatchObject({ page: 1, limit: 10, total });

    const secondPage = await list('?limit=1&page=2');
    expect(secondPage.body.data.meta).toEqual({ page: 2, limit: 1, total, totalPages: total });
    expect(secondPage.body.data.data.map((ticket: { id: string }) => ticket.id)).toEqual([second]);

    const counted = async (where: string) => (await platform.sql.query(`select count(*)::int as count from point.point_request_ticket where ${where}`)).rows[0].count;
    const spends = await list('?actionType=SPEND&limit=100');
    expect(spends.body.data.meta.total).toBe(await counted(`action_type = 'SPEND'`));
    expect(spends.body.data.data.every((ticket: { actionType: string }) => ticket.actionType === 'SPEND')).toBe(true);
    expect(spends.body.data.data[0].id).toBe(second);

    const rejected = await list('?status=rejected&limit=100');
    expect(rejected.body.data.meta.total).toBe(await counted(`status = 'rejected'`));
    expect(rejected.body.data.data.every((ticket: { status: string }) => ticket.status === 'rejected')).toBe(true);
    expect(rejected.body.data.data[0].id).toBe(first);

    const pendingEarns = await list('?status=pending&actionType=EARN&limit=100');
    expect(pendingEarns.body.data.meta.total).toBe(await counted(`status = 'pending' and action_type = 'EARN'`));
    expect(pendingEarns.body.data.data[0].id).toBe(third);
    expect(pendingEarns.body.data.data.map((ticket: { id: string }) => ticket.id)).not.toContain(first);

    const times = (await list('?limit=100')).body.data.data.map((ticket: { createdAt: string }) => ticket.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('validates the list query', async () => {
    const cases: Array<[string, string]> = [
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?page=0', 'page'],
      ['?status=open', 'status'],
      ['?actionType=EXPIRE', 'actionType'],
    ];
    for (const [queryString, field] of cases) {
      const response = await list(queryString);
      expect({ queryString, status: response.status }).toEqual({ queryString, status: 400 });
      expect(fieldsOf(response)).toContain(field);
    }
  });

  it('answers 404 with data.message and data.error for an unknown ticket, 400 for a malformed id', async () => {
    const missing = await getTicket(randomUUID());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, data: { message: 'Point request ticket not found', error: 'Not Found' } });
    const malformed = await getTicket('abc');
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed)).toContain('id');
  });

  it('needs point:read: 401 without a token, 403 for members; tenant staff may read', async () => {
    const id = await openTicket('earn', { memberId: member.id, amount: 1, requestReason: 'mine' });
    expect((await list('', ANONYMOUS)).status).toBe(401);
    expect((await getTicket(id, ANONYMOUS)).status).toBe(401);
    expect((await list('', member.token)).status).toBe(403);
    expect((await getTicket(id, member.token)).status).toBe(403);
    expect((await list('', tenant.token)).status).toBe(200);
    const read = await getTicket(id, tenant.token);
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(id);
  });
});

describe('GraphQL', () => {
  const TICKET = 'id memberId actionType amount status requestReason reviewReason requestedById reviewedById reviewedAt';

  it('opens, reads, approves and refuses a second review through the gateway', async () => {
    const memberId = randomUUID();
    await earnDirectly(memberId, 20);
    const opened = await platform.graphql(
      `mutation ($input: PointRequestInput!) { requestSpendPoints(input: $input) { ${TICKET} } }`,
      { input: { memberId, amount: 12.5, requestReason: 'graph' } },
      marketing.token,
    );
    expect(opened.body.errors).toBeUndefined();
    const ticket = opened.body.data.requestSpendPoints;
    expect(ticket).toEqual({
      id: expect.any(String),
      memberId,
      actionType: 'SPEND',
      amount: 12.5,
      status: 'pending',
      requestReason: 'graph',
      reviewReason: null,
      requestedById: marketing.id,
      reviewedById: null,
      reviewedAt: null,
    });

    const reviewMutation = `mutation ($id: ID!, $input: PointRequestReviewInput!) { reviewPointRequest(id: $id, input: $input) { ${TICKET} } }`;
    const pending = await platform.graphql(reviewMutation, { id: ticket.id, input: { status: 'pending', reviewReason: 'x' } }, admin.token);
    expect(pending.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'status', message: expect.stringContaining('a review approves or rejects') }] });

    const approved = await platform.graphql(reviewMutation, { id: ticket.id, input: { status: 'approved', reviewReason: 'fine' } }, admin.token);
    expect(approved.body.errors).toBeUndefined();
    expect(approved.body.data.reviewPointRequest).toMatchObject({ id: ticket.id, status: 'approved', reviewReason: 'fine', reviewedById: admin.id, reviewedAt: expect.stringMatching(ISO_MS) });
    expect(await balanceOf(memberId)).toBe(7.5);

    const again = await platform.graphql(reviewMutation, { id: ticket.id, input: { status: 'rejected', reviewReason: 'late' } }, admin.token);
    expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(again.body.errors[0].message).toMatch(/already reviewed/);

    const read = await platform.graphql(`query ($id: ID!) { pointRequestTicket(id: $id) { ${TICKET} } }`, { id: ticket.id }, tenant.token);
    expect(read.body.data.pointRequestTicket).toMatchObject({ status: 'approved', reviewReason: 'fine' });
    const missing = await platform.graphql(`query ($id: ID!) { pointRequestTicket(id: $id) { id } }`, { id: randomUUID() }, tenant.token);
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', error: 'Not Found' });
  });
});
