import { randomUUID } from 'node:crypto';
import { usePlatform } from './support/use-platform';

const {
  platform,
  admin,
  members: [member, other],
} = usePlatform({ staff: ['admin'], members: 2 });

beforeAll(async () => {
  const move = (path: string, body: Record<string, unknown>) => platform.api('POST', `/point/api/${path}`, { token: admin.token, body });
  await move('earn', { memberId: member.id, amount: 100, purchaseAmount: 1000, sourceBy: 'Purchase', shopId: 's1' });
  await move('earn', { memberId: member.id, amount: 50, sourceBy: 'Campaign' });
  await move('spend', { memberId: member.id, amount: 30, sourceBy: 'Reward' });
  await move('earn', { memberId: other.id, amount: 7, sourceBy: 'Manual' });
  // The first entry of `member` happened three days ago (moved back in time, with its lot).
  await platform.sql.query(
    `update point.point_transaction set created_at = created_at - interval '3 days'
      where id = (select id from point.point_transaction where member_id = $1 order by created_at limit 1)`,
    [member.id],
  );
});

const get = (path: string, token = admin.token) => platform.api('GET', path, { token });
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000).toISOString().slice(0, 10);

describe('GET /point/api/history', () => {
  it('pages the ledger directly in data, newest first, filtered by members', async () => {
    const response = await get(`/point/api/history?memberIds=${member.id},${other.id}&limit=2`);
    expect(response.status).toBe(200);
    expect(response.body.data.meta).toEqual({ page: 1, limit: 2, total: 4, totalPages: 2 });
    expect(response.body.data.data.map((item: { amount: number }) => item.amount)).toEqual([7, 30]);
    const page2 = await get(`/point/api/history?memberIds=${member.id},${other.id}&limit=2&page=2`);
    expect(page2.body.data.data.map((item: { amount: number }) => item.amount)).toEqual([50, 100]);
    expect(page2.body.data.data[1]).toMatchObject({ memberId: member.id, actionType: 'EARN', purchaseAmount: 1000, shopId: 's1', sourceBy: 'Purchase', balanceAfter: 100 });
  });

  it('filters by action type, source and dates', async () => {
    const base = `/point/api/history?memberIds=${member.id}`;
    expect((await get(`${base}&actionType=SPEND`)).body.data.data.map((item: { amount: number }) => item.amount)).toEqual([30]);
    expect((await get(`${base}&sourceBy=Campaign`)).body.data.data.map((item: { amount: number }) => item.amount)).toEqual([50]);
    expect((await get(`${base}&endDate=${daysAgo(2)}`)).body.data.data.map((item: { amount: number }) => item.amount)).toEqual([100]);
    expect((await get(`${base}&startDate=${daysAgo(1)}`)).body.data.meta.total).toBe(2);
  });

  it('adds the member summary from the auth subgraph with includeMember', async () => {
    await platform.api('PUT', '/auth/api/members/me', { token: other.token, body: { name: 'Other Member' } });
    const response = await get(`/point/api/history?memberIds=${other.id}&includeMember=true`);
    expect(response.body.data.data[0].member).toEqual({ id: other.id, name: 'Other Member', nickName: null, phoneNumber: null, status: 'PENDING' });
    expect((await get(`/point/api/history?memberIds=${other.id}`)).body.data.data[0]).not.toHaveProperty('member');
  });

  it('rejects bad filters with 400 naming the field, and needs point:read', async () => {
    expect((await get('/point/api/history?memberIds=abc')).body.data.errors[0].field).toBe('memberIds');
    expect((await get('/point/api/history?actionType=GIFT')).body.data.errors[0].field).toBe('actionType');
    expect((await get('/point/api/history?startDate=yesterday')).body.data.errors[0].field).toBe('startDate');
    expect((await get('/point/api/history?limit=101')).status).toBe(400);
    expect((await get('/point/api/history', member.token)).status).toBe(403);
    expect((await platform.api('GET', '/point/api/history')).status).toBe(401);
  });
});

describe('GET /point/api/history/me', () => {
  it('pages the caller own ledger in data.data with data.message', async () => {
    const response = await get('/point/api/history/me', member.token);
    expect(response.status).toBe(200);
    expect(response.body.data.message).toEqual(expect.any(String));
    expect(response.body.data.data.meta.total).toBe(3);
    expect(response.body.data.data.data.every((item: { memberId: string }) => item.memberId === member.id)).toBe(true);
    expect((await get('/point/api/history/me')).status).toBe(403);
  });
});

describe('balances over a window', () => {
  it('sums earned points with format=earn, spent with format=burn, and the net change without a format', async () => {
    const base = `/point/api/balance/${member.id}`;
    expect((await get(`${base}?format=earn`)).body.data).toEqual({ memberId: member.id, pointAmount: 150, purchaseAmount: 1000, pendingAmount: 0 });
    expect((await get(`${base}?format=burn`)).body.data).toEqual({ memberId: member.id, pointAmount: 30, purchaseAmount: 0, pendingAmount: 0 });
    expect((await get(`${base}?format=earn&start=${daysAgo(1)}`)).body.data.pointAmount).toBe(50);
    expect((await get(`${base}?start=${daysAgo(1)}`)).body.data.pointAmount).toBe(20);
    expect((await get(`${base}?end=${daysAgo(2)}`)).body.data.pointAmount).toBe(100);
    expect((await get(base)).body.data.pointAmount).toBe(120);
  });

  it('lets a member read its own balance by id but not another one, and rejects bad windows', async () => {
    expect((await get(`/point/api/balance/${member.id}`, member.token)).status).toBe(200);
    expect((await get(`/point/api/balance/${other.id}`, member.token)).status).toBe(403);
    expect((await get(`/point/api/balance/${member.id}?format=both`)).body.data.errors[0].field).toBe('format');
    expect((await get(`/point/api/balance/${member.id}?start=soon`)).body.data.errors[0].field).toBe('start');
    expect((await get('/point/api/balance/not-a-uuid')).body.data.errors[0].field).toBe('memberId');
  });
});

describe('GET /point/api/summary/daily', () => {
  it('reports earned, spent, expired and the net change per day; a member sees its own', async () => {
    // The UTC days the entries were written on (the fixtures may straddle midnight): 100 earned on the first, then 50 and -30.
    const { rows: days } = await platform.sql.query<{ day: string }>(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day from point.point_transaction where member_id = $1 order by created_at`,
      [member.id],
    );
    expect(days).toHaveLength(3);
    const [first, earned50, spent30] = days.map((row) => row.day);
    const expected = [{ date: first, earned: 100, spent: 0, expired: 0, netChange: 100 }];
    if (earned50 === spent30) expected.push({ date: earned50, earned: 50, spent: 30, expired: 0, netChange: 20 });
    else expected.push({ date: earned50, earned: 50, spent: 0, expired: 0, netChange: 50 }, { date: spent30, earned: 0, spent: 30, expired: 0, netChange: -30 });
    const mine = await get(`/point/api/summary/daily?startDate=${daysAgo(5)}`, member.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual(expected);
    // Staff see every member's entries: the other member's 7 on top of this one's 150.
    const all = await get(`/point/api/summary/daily?startDate=${first}`);
    expect(all.body.data.reduce((sum: number, item: { earned: number }) => sum + item.earned, 0)).toBeGreaterThanOrEqual(157);
    expect((await get('/point/api/summary/daily?startDate=nope')).status).toBe(400);
  });
});

describe('a member that never earned', () => {
  it('has an empty history', async () => {
    const response = await get(`/point/api/history?memberIds=${randomUUID()}`);
    expect(response.body.data).toEqual({ meta: { page: 1, limit: 10, total: 0, totalPages: 0 }, data: [] });
  });
});
