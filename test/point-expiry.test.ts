import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { PointExpiryPolicy } from '../subgraphs/point/settings';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { createLogger } from '../core/logger';
import { EXPIRE_LOTS_QUEUE } from '../subgraphs/point/services/expiry-job';
import { expiresAtFor } from '../subgraphs/point/services/expiry-policy';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

const { platform, admin } = usePlatform({ env: { POINT_EXPIRY: 'days:30' }, staff: ['admin'] });
let boss: PgBoss;
beforeAll(async () => {
  boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
});
afterAll(() => stopJobQueue(boss));

const earn = (memberId: string, amount: number) => platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId, amount } });
const spend = (memberId: string, amount: number) => platform.api('POST', '/point/api/spend', { token: admin.token, body: { memberId, amount } });
const balance = async (memberId: string) => (await platform.api('GET', `/point/api/balance/${memberId}`, { token: admin.token })).body.data.pointAmount;
const lots = async (memberId: string) =>
  (await platform.sql.query('select amount::text, remaining::text, expires_at from point.point_lot where member_id = $1 order by earned_at, id', [memberId])).rows;
/** Moves a member's lots into the past: they were earned 40 days ago and expired 10 days ago. */
const ageLots = (memberId: string, onlyFirst = false) =>
  platform.sql.query(
    `update point.point_lot set earned_at = earned_at - interval '40 days', expires_at = now() - interval '10 days'
      where id in (select id from point.point_lot where member_id = $1 order by earned_at, id limit $2)`,
    [memberId, onlyFirst ? 1 : 1000],
  );

describe('expiry policy', () => {
  it('computes the expiry of a lot for each policy', () => {
    const earnedAt = new Date('2026-02-14T10:30:00.000Z');
    const policies: Array<[PointExpiryPolicy, string | null]> = [
      [{ kind: 'never' }, null],
      [{ kind: 'days', days: 30 }, '2026-03-16T10:30:00.000Z'],
      [{ kind: 'end-of-month' }, '2026-03-01T00:00:00.000Z'],
    ];
    for (const [policy, expected] of policies) expect(expiresAtFor(policy, earnedAt)?.toISOString() ?? null).toBe(expected);
    expect(expiresAtFor({ kind: 'end-of-month' }, new Date('2026-12-31T23:59:59.000Z'))?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('opens a lot per earn that expires after the configured days', async () => {
    const member = await platform.loginMember();
    await earn(member.id, 25);
    const [lot] = await lots(member.id);
    expect(lot).toMatchObject({ amount: '25.00', remaining: '25.00' });
    expect(Math.abs(lot.expires_at.getTime() - (Date.now() + 30 * 24 * 3600 * 1000))).toBeLessThan(60_000);
  });
});

describe('spending and expiring lots', () => {
  it('spends the oldest lots first', async () => {
    const member = await platform.loginMember();
    await earn(member.id, 10);
    await earn(member.id, 5);
    await earn(member.id, 7);
    expect((await spend(member.id, 12)).status).toBe(200);
    expect((await lots(member.id)).map((lot) => lot.remaining)).toEqual(['0.00', '3.00', '7.00']);
  });

  it('never counts expired points in the balance, even before the job has run', async () => {
    const member = await platform.loginMember();
    await earn(member.id, 10);
    await earn(member.id, 4);
    await ageLots(member.id, true);
    expect(await balance(member.id)).toBe(4);
    const refused = await spend(member.id, 5);
    expect(refused.status).toBe(400);
  });

  it('expires due lots inline when the member is touched, writing an EXPIRE entry first', async () => {
    const member = await platform.loginMember();
    await earn(member.id, 10);
    await ageLots(member.id);
    await earn(member.id, 3);
    const { rows } = await platform.sql.query(
      'select action_type, amount::text, balance_after::text from point.point_transaction where member_id = $1 order by created_at, id',
      [member.id],
    );
    expect(rows).toEqual([
      { action_type: 'EARN', amount: '10.00', balance_after: '10.00' },
      { action_type: 'EXPIRE', amount: '10.00', balance_after: '0.00' },
      { action_type: 'EARN', amount: '3.00', balance_after: '3.00' },
    ]);
  });

  it('writes EXPIRE entries from the scheduled job on the job queue, and the daily summary reports them', async () => {
    const member = await platform.loginMember();
    await earn(member.id, 8);
    await earn(member.id, 2);
    await ageLots(member.id, true);
    await boss.send(EXPIRE_LOTS_QUEUE, {});
    const expired = await waitFor(async () => {
      const { rows } = await platform.sql.query(
        `select amount::text, balance_after::text from point.point_transaction where member_id = $1 and action_type = 'EXPIRE'`,
        [member.id],
      );
      return rows[0];
    }, 'the EXPIRE entry');
    expect(expired).toEqual({ amount: '8.00', balance_after: '2.00' });
    const { rows } = await platform.sql.query('select point_amount::text from point.point_balance where member_id = $1', [member.id]);
    expect(rows[0].point_amount).toBe('2.00');
    expect((await lots(member.id)).map((lot) => lot.remaining)).toEqual(['0.00', '2.00']);

    const summary = await platform.api('GET', '/point/api/summary/daily', { token: member.token });
    const today = new Date().toISOString().slice(0, 10);
    expect(summary.body.data).toEqual([{ date: today, earned: 10, spent: 0, expired: 8, netChange: 2 }]);
  });

  it('expires a lot once even when the job and a spend race for it', async () => {
    const member = await platform.loginMember();
    await earn(member.id, 6);
    await earn(member.id, 6);
    await ageLots(member.id, true);
    await Promise.all([boss.send(EXPIRE_LOTS_QUEUE, {}), spend(member.id, 1)]);
    await waitFor(async () => ((await lots(member.id))[0].remaining === '0.00' ? true : undefined), 'the lot to expire');
    const { rows } = await platform.sql.query(
      `select count(*) filter (where action_type = 'EXPIRE')::int as expiries,
              sum(case when action_type = 'EARN' then amount else -amount end)::text as net
         from point.point_transaction where member_id = $1`,
      [member.id],
    );
    expect(rows[0]).toEqual({ expiries: 1, net: '5.00' });
    expect(await balance(member.id)).toBe(5);
  });
});

describe('an unknown member', () => {
  it('has a zero balance', async () => {
    const id = randomUUID();
    expect((await platform.api('GET', `/point/api/balance/${id}`, { token: admin.token })).body.data).toEqual({ memberId: id, pointAmount: 0, purchaseAmount: 0, pendingAmount: 0 });
  });
});
