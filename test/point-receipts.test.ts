import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { IMAGES, png } from './support/images';
import { TestPlatform, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const {
  platform,
  admin,
  marketing,
  tenant,
  members: [member, otherMember],
} = usePlatform({ staff: ['admin', 'marketing', 'tenant'], members: 2 });

const BASE = '/point/api/receipt/verify';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ANONYMOUS = '';

interface Multipart {
  token?: string;
  image?: Blob | null;
}
/** POSTs a multipart form the way a mini-program does: text fields and the receipt image. */
async function postForm(on: TestPlatform, path: string, fields: Record<string, string>, { token, image = png() }: Multipart) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (image) form.append('image', image, 'receipt.png');
  const response = await fetch(`${on.restUrl}${path}`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any };
}
const submit = (memberId: string, options: Multipart = {}) => postForm(platform, BASE, { memberId }, { token: marketing.token, ...options });
const submitMine = (token: string, options: Multipart = {}) => postForm(platform, `${BASE}/me`, {}, { token, ...options });
async function openVerification(memberId: string = randomUUID()) {
  const response = await submit(memberId);
  expect(response.status).toBe(201);
  return response.body.data as { id: string; memberId: string; receiptImageUrl: string };
}

const get = (path: string, token = admin.token) => platform.api('GET', `${BASE}${path}`, { token });
const manual = (id: string, body: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST', token = marketing.token) =>
  platform.api(method, `${BASE}/${id}/manual`, { token, body });
const automatic = (id: string, body: Record<string, unknown>, token = marketing.token) => platform.api('POST', `${BASE}/${id}`, { token, body });
const approval = (extra: Record<string, unknown> = {}) => ({ approved: true, reviewReason: 'Receipt checked', reviewById: marketing.id, ...extra });
const rejection = (extra: Record<string, unknown> = {}) => ({ approved: false, reviewReason: 'Blurry photo', reviewById: marketing.id, ...extra });
const fieldsOf = (response: { body: any }) => [...new Set((response.body.data.errors ?? []).map((error: { field: string }) => error.field))];

const ledgerOf = async (verificationId: string) =>
  (
    await platform.sql.query(
      `select id, member_id, action_type, amount::text, purchase_amount::text, shop_id, category_id, source_by, receipt_verification_id
         from point.point_transaction where receipt_verification_id = $1`,
      [verificationId],
    )
  ).rows;
const verificationRow = async (id: string) =>
  (await platform.sql.query('select status, money::text, point_rule_id, point_transaction_id, receipt_id, review_reason from point.receipt_verification where id = $1', [id])).rows[0];
const balanceOf = async (memberId: string) => (await platform.api('GET', `/point/api/balance/${memberId}`, { token: admin.token })).body.data;
const defaultRuleId = async () => (await platform.api('GET', '/point/api/point-rules/shop/default', { token: admin.token })).body.data.id as string;
async function createShopRule(conversionRate: number, extra: Record<string, unknown> = {}) {
  const response = await platform.api('POST', '/point/api/point-rules/shop', {
    token: marketing.token,
    body: { shopId: unique('shop'), name_en: unique('Shop rule '), name_th: unique('กฎร้าน '), conversionRate, ...extra },
  });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; shopId: string; name_en: string; name_th: string };
}

describe('submitting receipts', () => {
  it('opens a PENDING verification for a member (staff, multipart): 201 with data and message, the image served back', async () => {
    const memberId = randomUUID();
    const response = await submit(memberId);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      statusCode: 201,
      message: 'Receipt submitted for verification',
      data: {
        id: expect.any(String),
        memberId,
        status: 'PENDING',
        receiptImageUrl: expect.stringMatching(/\/files\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/),
        money: null,
        pointRuleId: null,
        reviewReason: null,
        reviewById: null,
        shopId: null,
        categoryId: null,
        receiptId: null,
        pointTransactionId: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      },
    });
    const served = await fetch(`${platform.restUrl}${new URL(response.body.data.receiptImageUrl).pathname}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(IMAGES.png);
    expect(await verificationRow(response.body.data.id)).toMatchObject({ status: 'PENDING', money: null, point_transaction_id: null });
  });

  it('refuses a missing image, a wrong file type, a missing or bad memberId with 400 naming the field', async () => {
    const count = async () => (await platform.sql.query('select count(*)::int as count from point.receipt_verification')).rows[0].count;
    const before = await count();
    const noImage = await submit(randomUUID(), { image: null });
    expect(noImage).toEqual({ status: 400, body: { statusCode: 400, data: { message: 'Validation failed', errors: [{ field: 'image', message: 'image file is required' }] } } });
    expect(fieldsOf(await submit(randomUUID(), { image: new Blob(['hello'], { type: 'text/plain' }) }))).toEqual(['image']);
    const badMember = await submit('not-a-uuid');
    expect(badMember.status).toBe(400);
    expect(fieldsOf(badMember)).toEqual(['memberId']);
    const noMember = await postForm(platform, BASE, {}, { token: marketing.token });
    expect(noMember.status).toBe(400);
    expect(fieldsOf(noMember)).toEqual(['memberId']);
    expect(await count()).toBe(before);
  });

  it('needs point:manage to submit for a member: 401 without a token, 403 for tenant staff and members', async () => {
    expect((await submit(randomUUID(), { token: ANONYMOUS })).status).toBe(401);
    expect((await submit(randomUUID(), { token: tenant.token })).status).toBe(403);
    expect((await submit(member.id, { token: member.token })).status).toBe(403);
  });

  it('lets a member submit its own receipt (201), and only a member', async () => {
    const response = await submitMine(member.token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ statusCode: 201, message: 'Receipt submitted for verification', data: { memberId: member.id, status: 'PENDING' } });
    expect(fieldsOf(await submitMine(member.token, { image: null }))).toEqual(['image']);
    expect((await submitMine(marketing.token)).status).toBe(403);
    expect((await submitMine(ANONYMOUS)).status).toBe(401);
  });
});

describe('reading receipts', () => {
  it('reads one verification: 200 data and message; a member its own only; 404 with data.data.id', async () => {
    const mine = (await submitMine(member.token)).body.data;
    const found = await get(`/${mine.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ statusCode: 200, message: 'Receipt verification found', data: mine });
    expect((await get(`/${mine.id}`, member.token)).body.data.id).toBe(mine.id);
    expect((await get(`/${mine.id}`, tenant.token)).status).toBe(200);

    const hidden = await get(`/${mine.id}`, otherMember.token);
    expect(hidden).toMatchObject({ status: 404, body: { statusCode: 404, data: { message: 'Receipt verification not found', data: { id: mine.id } } } });
    const id = randomUUID();
    expect((await get(`/${id}`)).body).toEqual({ statusCode: 404, data: { message: 'Receipt verification not found', data: { id } } });
    expect(fieldsOf(await get('/not-a-uuid'))).toEqual(['id']);
    expect((await platform.api('GET', `${BASE}/${mine.id}`)).status).toBe(401);
  });

  it('lists newest first in data.data with data.message, filtered by memberId and status', async () => {
    const memberId = randomUUID();
    const first = await openVerification(memberId);
    const second = await openVerification(memberId);
    const third = await openVerification(memberId);
    // Distinct creation times, so that the order does not hang on two requests within one millisecond.
    await platform.sql.query(`update point.receipt_verification set created_at = now() - (interval '1 minute' * array_position($1::uuid[], id)) where id = any($1)`, [
      [third.id, second.id, first.id],
    ]);
    expect((await manual(second.id, rejection())).status).toBe(200);

    const all = await get(`?memberId=${memberId}`);
    expect(all.status).toBe(200);
    expect(all.body.statusCode).toBe(200);
    expect(all.body.data.message).toBe('Receipt verifications');
    expect(all.body.data.data.meta).toEqual({ page: 1, limit: 10, total: 3, totalPages: 1 });
    expect(all.body.data.data.data.map((item: { id: string }) => item.id)).toEqual([third.id, second.id, first.id]);
    expect(all.body.data.data.data[0]).not.toHaveProperty('member');
    expect(all.body.data.data.data[0]).not.toHaveProperty('pointRule');
    // Not a member the auth subgraph knows: the summary is null, the verification still listed.
    expect((await get(`?memberId=${memberId}&includeMember=true`)).body.data.data.data.map((item: { member: unknown }) => item.member)).toEqual([null, null, null]);

    const rejected = await get(`?memberId=${memberId}&status=REJECTED`);
    expect(rejected.body.data.data.data.map((item: { id: string; status: string }) => [item.id, item.status])).toEqual([[second.id, 'REJECTED']]);
    const paged = await get(`?memberId=${memberId}&status=PENDING&page=2&limit=1`);
    expect(paged.body.data.data).toEqual({ meta: { page: 2, limit: 1, total: 2, totalPages: 2 }, data: [expect.objectContaining({ id: first.id })] });
  });

  it('adds the member summary through federation with includeMember, and the localized rule with includeShopRule', async () => {
    await platform.api('PUT', '/auth/api/members/me', { token: otherMember.token, body: { name: 'Receipt Member' } });
    const rule = await createShopRule(2);
    const verification = await openVerification(otherMember.id);
    expect((await manual(verification.id, approval({ money: 10, shopId: rule.shopId }))).status).toBe(200);

    const response = await get(`?memberId=${otherMember.id}&includeMember=true&includeShopRule=true&locale=th`);
    const [item] = response.body.data.data.data;
    expect(item.member).toEqual({ id: otherMember.id, name: 'Receipt Member', nickName: null, phoneNumber: null, status: 'PENDING' });
    expect(item.pointRule).toMatchObject({ id: rule.id, shopId: rule.shopId, conversionRate: 2, isFixed: false, name_th: rule.name_th, name_en: null, name_cn: null });

    const allLanguages = (await get(`?memberId=${otherMember.id}&includeShopRule=true`)).body.data.data.data[0];
    expect(allLanguages.pointRule).toMatchObject({ name_en: rule.name_en, name_th: rule.name_th });
    expect(allLanguages).not.toHaveProperty('member');
    const pending = (await get(`?memberId=${otherMember.id}&status=PENDING&includeShopRule=true`)).body.data.data.data;
    expect(pending.every((entry: { pointRule: unknown }) => entry.pointRule === null)).toBe(true);
    const single = await get(`/${verification.id}?includeMember=true&includeShopRule=true&locale=en`);
    expect(single.body.data).toMatchObject({ member: { id: otherMember.id, name: 'Receipt Member' }, pointRule: { id: rule.id, name_en: rule.name_en, name_th: null } });
  });

  it("lists a member's own receipts at /me (memberId ignored), with the same options", async () => {
    const fresh = await platform.loginMember();
    const own = (await submitMine(fresh.token)).body.data;
    await openVerification(randomUUID());
    const response = await get(`/me?memberId=${member.id}&includeMember=true`, fresh.token);
    expect(response.status).toBe(200);
    expect(response.body.data.message).toBe('Receipt verifications');
    expect(response.body.data.data.meta.total).toBe(1);
    expect(response.body.data.data.data).toEqual([{ ...own, member: { id: fresh.id, name: null, nickName: null, phoneNumber: null, status: 'PENDING' } }]);
    expect((await get('/me?status=APPROVED', fresh.token)).body.data.data.meta.total).toBe(0);
    expect((await get('/me', marketing.token)).status).toBe(403);
  });

  it('validates list filters, and needs point:read for the staff list', async () => {
    expect(fieldsOf(await get('?memberId=abc'))).toEqual(['memberId']);
    expect(fieldsOf(await get('?status=DONE'))).toEqual(['status']);
    expect(fieldsOf(await get('?limit=101'))).toEqual(['limit']);
    expect(fieldsOf(await get('?locale=jp'))).toEqual(['locale']);
    expect((await get('', member.token)).status).toBe(403);
    expect((await get('', tenant.token)).status).toBe(200);
    expect((await platform.api('GET', BASE)).status).toBe(401);
  });

  it('counts verifications by status: data statistics and message', async () => {
    const stats = () => get('/stats');
    const before = (await stats()).body.data;
    const [pending, rejected, approved] = [await openVerification(), await openVerification(), await openVerification()];
    expect((await manual(rejected.id, rejection())).status).toBe(200);
    expect((await manual(approved.id, approval({ money: 5 }))).status).toBe(200);
    expect((await verificationRow(pending.id)).status).toBe('PENDING');

    const response = await stats();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      statusCode: 200,
      message: 'Receipt verification statistics',
      data: { total: before.total + 3, pending: before.pending + 1, processing: before.processing, approved: before.approved + 1, rejected: before.rejected + 1 },
    });
    const { rows } = await platform.sql.query(
      `select count(*)::int as total, count(*) filter (where status = 'PENDING')::int as pending, count(*) filter (where status = 'PROCESSING')::int as processing,
              count(*) filter (where status = 'APPROVED')::int as approved, count(*) filter (where status = 'REJECTED')::int as rejected
         from point.receipt_verification`,
    );
    expect(response.body.data).toEqual(rows[0]);
    expect((await get('/stats', tenant.token)).status).toBe(200);
    expect((await get('/stats', member.token)).status).toBe(403);
    expect((await platform.api('GET', `${BASE}/stats`)).status).toBe(401);
  });
});

describe('manual review', () => {
  it("approves with the shop's rule: one Purchase ledger entry linked to the verification, points rounded down", async () => {
    const rule = await createShopRule(2.5);
    const verification = await openVerification();
    const response = await manual(verification.id, approval({ money: 123.45, shopId: rule.shopId, categoryId: 'groceries' }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      statusCode: 200,
      message: 'Receipt reviewed',
      data: {
        id: verification.id,
        status: 'APPROVED',
        money: 123.45,
        pointRuleId: rule.id,
        shopId: rule.shopId,
        categoryId: 'groceries',
        reviewReason: 'Receipt checked',
        reviewById: marketing.id,
        pointTransactionId: expect.any(String),
      },
    });
    // 123.45 × 2.5 = 308.625, rounded down.
    const ledger = await ledgerOf(verification.id);
    expect(ledger).toEqual([
      {
        id: response.body.data.pointTransactionId,
        member_id: verification.memberId,
        action_type: 'EARN',
        amount: '308.62',
        purchase_amount: '123.45',
        shop_id: rule.shopId,
        category_id: 'groceries',
        source_by: 'Purchase',
        receipt_verification_id: verification.id,
      },
    ]);
    expect(await balanceOf(verification.memberId)).toEqual({ memberId: verification.memberId, pointAmount: 308.62, purchaseAmount: 123.45, pendingAmount: 0 });
  });

  it('falls back to the default rule for a shop without a live active rule, and honours an explicit pointRuleId', async () => {
    const fallbackId = await defaultRuleId();
    const inactive = await createShopRule(10, { isActive: false });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ money: 99.99 }, fallbackId, '99.99'],
      [{ money: 40, shopId: unique('unknown-shop') }, fallbackId, '40.00'],
      [{ money: 40, shopId: inactive.shopId }, fallbackId, '40.00'],
    ];
    const exact = await createShopRule(100);
    const third = await createShopRule(0.3333);
    // Exact decimals: 0.29 × 100 is 28.999999999999996 in binary floating point, but 29.00 here.
    cases.push([{ money: 0.29, pointRuleId: exact.id, shopId: third.shopId }, exact.id, '29.00']);
    // 10.01 × 0.3333 = 3.336333: rounded down, not to the nearest.
    cases.push([{ money: 10.01, shopId: third.shopId }, third.id, '3.33']);
    for (const [body, ruleId, points] of cases) {
      const verification = await openVerification();
      const response = await manual(verification.id, approval(body));
      expect({ body, status: response.status, pointRuleId: response.body.data.pointRuleId }).toEqual({ body, status: 200, pointRuleId: ruleId });
      expect((await ledgerOf(verification.id)).map((entry) => entry.amount)).toEqual([points]);
    }
  });

  it('approves only once: approving or rejecting an APPROVED verification is 409, by either method, and nothing moves', async () => {
    const verification = await openVerification();
    expect((await manual(verification.id, approval({ money: 20 }))).status).toBe(200);
    const attempts = [
      await manual(verification.id, approval({ money: 20 })),
      await manual(verification.id, approval({ money: 30 }), 'PUT'),
      await manual(verification.id, rejection(), 'PUT'),
      await manual(verification.id, rejection()),
      await automatic(verification.id, { approved: true, receiptId: unique('r') }),
      await automatic(verification.id, { approved: false, receiptId: unique('r') }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(409);
      expect(attempt.body.data.errors).toEqual([{ field: 'status', message: expect.stringContaining('already approved') }]);
    }
    expect(await ledgerOf(verification.id)).toHaveLength(1);
    expect(await verificationRow(verification.id)).toMatchObject({ status: 'APPROVED', money: '20.00', review_reason: 'Receipt checked' });
    expect((await balanceOf(verification.memberId)).pointAmount).toBe(20);
  });

  it('rejects (PUT) storing the reason and reviewer, and a rejected receipt can still be approved later', async () => {
    const verification = await openVerification();
    const rejected = await manual(verification.id, rejection({ money: 15, shopId: 'ignored' }), 'PUT');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      message: 'Receipt verification updated',
      data: { status: 'REJECTED', reviewReason: 'Blurry photo', reviewById: marketing.id, money: null, shopId: null, pointTransactionId: null },
    });
    expect(await ledgerOf(verification.id)).toHaveLength(0);
    const again = await manual(verification.id, rejection({ reviewReason: 'Still blurry' }), 'PUT');
    expect(again.body.data).toMatchObject({ status: 'REJECTED', reviewReason: 'Still blurry' });

    const approved = await manual(verification.id, approval({ money: 15, reviewReason: 'Clear photo sent' }), 'PUT');
    expect(approved.body.data).toMatchObject({ status: 'APPROVED', reviewReason: 'Clear photo sent', money: 15 });
    expect((await ledgerOf(verification.id)).map((entry) => entry.amount)).toEqual(['15.00']);
  });

  it('records the caller as the reviewer, whatever reviewById the body names', async () => {
    const verification = await openVerification();
    const impostor = randomUUID();
    const rejected = await manual(verification.id, rejection({ reviewById: impostor }));
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.reviewById).toBe(marketing.id);
    const approved = await manual(verification.id, approval({ money: 3, reviewById: impostor }), 'PUT');
    expect(approved.body.data).toMatchObject({ status: 'APPROVED', reviewById: marketing.id });
    const { rows } = await platform.sql.query('select review_by_id from point.receipt_verification where id = $1', [verification.id]);
    expect(rows).toEqual([{ review_by_id: marketing.id }]);
  });

  it('validates the body: approved, reviewReason, money > 0 with 2 decimals, pointRuleId; approving needs money', async () => {
    const verification = await openVerification();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ reviewReason: 'x', reviewById: marketing.id, money: 1 }, 'approved'],
      [{ approved: 'maybe', reviewReason: 'x', reviewById: marketing.id, money: 1 }, 'approved'],
      [approval({ reviewReason: undefined, money: 1 }), 'reviewReason'],
      [approval({ reviewReason: '', money: 1 }), 'reviewReason'],
      [approval({ money: 1e-7 }), 'money'],
      [approval({ money: 0 }), 'money'],
      [approval({ money: -5 }), 'money'],
      [approval({ money: 1.234 }), 'money'],
      [approval(), 'money'],
      [approval({ money: 1, pointRuleId: 'rule-1' }), 'pointRuleId'],
      [approval({ money: 1, pointRuleId: randomUUID() }), 'pointRuleId'],
    ];
    for (const [body, field] of cases) {
      for (const method of ['POST', 'PUT'] as const) {
        const response = await manual(verification.id, body, method);
        expect({ body, method, status: response.status, fields: fieldsOf(response) }).toEqual({ body, method, status: 400, fields: [field] });
      }
    }
    expect(await verificationRow(verification.id)).toMatchObject({ status: 'PENDING', money: null });
    expect(await ledgerOf(verification.id)).toHaveLength(0);
  });

  it('answers 404 with data.data.id for an unknown verification, and needs point:review', async () => {
    const id = randomUUID();
    expect((await manual(id, approval({ money: 1 }))).body).toEqual({ statusCode: 404, data: { message: 'Receipt verification not found', data: { id } } });
    expect((await manual(id, rejection(), 'PUT')).status).toBe(404);
    const verification = await openVerification();
    expect((await manual(verification.id, approval({ money: 1 }), 'POST', tenant.token)).status).toBe(403);
    expect((await manual(verification.id, rejection(), 'PUT', member.token)).status).toBe(403);
    expect((await manual(verification.id, approval({ money: 1 }), 'POST', ANONYMOUS)).status).toBe(401);
    expect((await verificationRow(verification.id)).status).toBe('PENDING');
  });

  it('credits exactly once when approvals race', async () => {
    const verification = await openVerification();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => manual(verification.id, approval({ money: 12.5 + i }), i % 2 === 0 ? 'POST' : 'PUT')),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(7);
    // The losers wait for the row lock and find the verification approved (not a failed insert).
    for (const loser of results.filter((result) => result.status === 409)) expect(loser.body.data.message).toContain('already approved');
    const winner = results.find((result) => result.status === 200)!.body.data;
    const ledger = await ledgerOf(verification.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ id: winner.pointTransactionId, amount: winner.money.toFixed(2) });
    expect((await balanceOf(verification.memberId)).pointAmount).toBe(winner.money);
  });
});

describe('automatic verification without an extractor', () => {
  it('leaves the receipt for manual review: 400 on receiptId, status unchanged, nothing credited', async () => {
    const verification = await openVerification();
    const response = await automatic(verification.id, { approved: true, receiptId: 'receipt-1' });
    expect(response.status).toBe(400);
    expect(response.body.data).toEqual({
      message: 'The receipt could not be read automatically: manual review is needed',
      errors: [{ field: 'receiptId', message: 'The receipt could not be read automatically: manual review is needed' }],
    });
    expect(await verificationRow(verification.id)).toMatchObject({ status: 'PENDING', receipt_id: null, point_transaction_id: null });
    expect(await ledgerOf(verification.id)).toHaveLength(0);
  });

  it('rejects with approved false, recording the receipt id and the caller', async () => {
    const verification = await openVerification();
    const response = await automatic(verification.id, { approved: false, receiptId: 'receipt-2' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ statusCode: 200, message: 'Receipt verified', data: { status: 'REJECTED', receiptId: 'receipt-2', reviewById: marketing.id } });
  });

  it('validates the body, answers 404 for an unknown verification, and needs point:review', async () => {
    const verification = await openVerification();
    expect(fieldsOf(await automatic(verification.id, { approved: true }))).toEqual(['receiptId']);
    expect(fieldsOf(await automatic(verification.id, { approved: true, receiptId: '' }))).toEqual(['receiptId']);
    expect(fieldsOf(await automatic(verification.id, { receiptId: 'r' }))).toEqual(['approved']);
    const id = randomUUID();
    expect((await automatic(id, { approved: true, receiptId: 'r' })).body).toEqual({ statusCode: 404, data: { message: 'Receipt verification not found', data: { id } } });
    expect((await automatic(verification.id, { approved: false, receiptId: 'r' }, tenant.token)).status).toBe(403);
    expect((await automatic(verification.id, { approved: false, receiptId: 'r' }, ANONYMOUS)).status).toBe(401);
    expect((await verificationRow(verification.id)).status).toBe('PENDING');
  });
});

describe('through GraphQL', () => {
  it('submits, reviews and reads a verification with its member and rule through the gateway', async () => {
    await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { name: 'GraphQL Member' } });
    const rule = await createShopRule(1.5);
    const submitted = await platform.graphql(
      `mutation Submit($memberId: ID!, $imageUrl: String!) { submitReceiptVerification(memberId: $memberId, imageUrl: $imageUrl) { id status receiptImageUrl } }`,
      { memberId: member.id, imageUrl: 'https://cdn.example.com/receipts/1.jpg' },
      marketing.token,
    );
    const { id, status, receiptImageUrl } = submitted.body.data.submitReceiptVerification;
    expect([status, receiptImageUrl]).toEqual(['PENDING', 'https://cdn.example.com/receipts/1.jpg']);

    const reviewed = await platform.graphql(
      `mutation Review($id: ID!, $input: ManualReceiptReviewInput!) { reviewReceiptVerification(id: $id, input: $input) { status money pointTransactionId } }`,
      { id, input: { approved: true, reviewReason: 'ok', money: 80, shopId: rule.shopId } },
      marketing.token,
    );
    expect(reviewed.body.data.reviewReceiptVerification).toEqual({ status: 'APPROVED', money: 80, pointTransactionId: expect.any(String) });

    const read = await platform.graphql(
      `query Read($id: ID!) { receiptVerification(id: $id) { id status money member { id name pointBalance } pointRule(locale: th) { id name_en name_th conversionRate } } }`,
      { id },
      member.token,
    );
    expect(read.body.errors).toBeUndefined();
    const balance = (await balanceOf(member.id)).pointAmount;
    expect(balance).toBe(120);
    expect(read.body.data.receiptVerification).toEqual({
      id,
      status: 'APPROVED',
      money: 80,
      member: { id: member.id, name: 'GraphQL Member', pointBalance: balance },
      pointRule: { id: rule.id, name_en: null, name_th: rule.name_th, conversionRate: 1.5 },
    });
    const transaction = (await ledgerOf(id))[0];
    expect(transaction).toMatchObject({ amount: '120.00', purchase_amount: '80.00' });

    const invalid = await platform.graphql(
      `mutation { submitMyReceiptVerification(imageUrl: "not a url") { id } }`,
      {},
      member.token,
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'imageUrl', message: expect.any(String) }] });
  });
});

describe('automatic verification with an extraction service', () => {
  interface Answer {
    status: number;
    body?: unknown;
  }
  const answers = new Map<string, Answer>();
  const calls: Array<{ receiptId: string; imageUrl: string }> = [];
  let extractor: Server;

  beforeAll(async () => {
    extractor = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const call = JSON.parse(text);
        calls.push(call);
        const answer = answers.get(call.receiptId) ?? { status: 404 };
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => extractor.listen(0, '127.0.0.1', resolve));
  });
  const { platform: withExtractor, marketing: reviewer } = usePlatform({
    env: () => ({ RECEIPT_EXTRACTOR_URL: `http://127.0.0.1:${(extractor.address() as AddressInfo).port}/extract` }),
    staff: ['marketing'],
  });
  afterAll(() => new Promise((resolve) => extractor.close(resolve)));

  const open = async () => {
    const response = await postForm(withExtractor, BASE, { memberId: randomUUID() }, { token: reviewer.token });
    expect(response.status).toBe(201);
    return response.body.data as { id: string; memberId: string; receiptImageUrl: string };
  };
  const verify = (id: string, body: Record<string, unknown>) => withExtractor.api('POST', `${BASE}/${id}`, { token: reviewer.token, body });

  it("credits what the extractor reads, with the shop's rule, asking it with the stored image", async () => {
    const rule = await createShopRule(3);
    const receiptId = unique('receipt');
    answers.set(receiptId, { status: 200, body: { money: 200.55, shopId: rule.shopId, categoryId: 'drinks' } });
    const verification = await open();
    const response = await verify(verification.id, { approved: true, receiptId });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'APPROVED', money: 200.55, shopId: rule.shopId, categoryId: 'drinks', pointRuleId: rule.id, receiptId, reviewById: reviewer.id });
    expect(calls).toContainEqual({ receiptId, imageUrl: verification.receiptImageUrl });
    expect(await ledgerOf(verification.id)).toEqual([expect.objectContaining({ amount: '601.65', purchase_amount: '200.55', shop_id: rule.shopId, source_by: 'Purchase' })]);
  });

  it('uses the default rule when the extractor names no shop, and never credits one receipt twice', async () => {
    const receiptId = unique('receipt');
    answers.set(receiptId, { status: 200, body: { money: '12.30' } });
    const [first, second] = [await open(), await open()];
    const approved = await verify(first.id, { approved: true, receiptId });
    expect(approved.body.data).toMatchObject({ status: 'APPROVED', money: 12.3, pointRuleId: await defaultRuleId() });
    expect((await ledgerOf(first.id)).map((entry) => entry.amount)).toEqual(['12.30']);

    const reused = await verify(second.id, { approved: true, receiptId });
    expect(reused.status).toBe(409);
    expect(fieldsOf(reused)).toEqual(['receiptId']);
    expect(await verificationRow(second.id)).toMatchObject({ status: 'PENDING', point_transaction_id: null });
  });

  it('leaves the receipt pending when the extractor cannot tell (404 or null), and answers 503 when it fails', async () => {
    const verification = await open();
    const unknown = unique('receipt');
    const unreadable = unique('receipt');
    const broken = unique('receipt');
    const nonsense = unique('receipt');
    answers.set(unreadable, { status: 200, body: null });
    answers.set(broken, { status: 500, body: { error: 'boom' } });
    answers.set(nonsense, { status: 200, body: { money: 0 } });
    for (const receiptId of [unknown, unreadable]) {
      const response = await verify(verification.id, { approved: true, receiptId });
      expect(response.status).toBe(400);
      expect(response.body.data.message).toContain('manual review is needed');
    }
    for (const receiptId of [broken, nonsense]) {
      const response = await verify(verification.id, { approved: true, receiptId });
      expect(response.status).toBe(503);
      expect(response.body.data.message).toMatch(/receipt extractor/);
    }
    expect(await verificationRow(verification.id)).toMatchObject({ status: 'PENDING', receipt_id: null });
  });

  it('credits exactly once when automatic approvals race', async () => {
    const receiptId = unique('receipt');
    answers.set(receiptId, { status: 200, body: { money: 7 } });
    const verification = await open();
    const results = await Promise.all(Array.from({ length: 6 }, () => verify(verification.id, { approved: true, receiptId })));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    const losers = results.filter((result) => result.status === 409);
    expect(losers).toHaveLength(5);
    for (const loser of losers) expect(loser.body.data.message).toContain('already approved');
    expect(await ledgerOf(verification.id)).toHaveLength(1);
  });
});
