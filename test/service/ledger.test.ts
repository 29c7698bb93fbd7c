import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../core/errors';
import { pointModule } from '../../subgraphs/point/module';
import { expireAllDue } from '../../subgraphs/point/services/expiry-job';
import { LedgerService, PointMovement } from '../../subgraphs/point/services/ledger.service';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(pointModule);
const ledger = new LedgerService({ kind: 'never' });
const expiring = new LedgerService({ kind: 'days', days: 30 });
const DAY_MS = 24 * 3600 * 1000;

/** One movement in its own transaction, as a request runs it. */
const inTransaction = <T>(work: (em: EntityManager) => Promise<T>) => db.em().transactional(work);
const earn = (memberId: string, amount: string, extra: Partial<PointMovement> = {}, service = ledger) =>
  inTransaction((em) => service.earn(em, { memberId, amount, ...extra }));
const spend = (memberId: string, amount: string, service = ledger) => inTransaction((em) => service.spend(em, { memberId, amount }));
const refusal = (attempt: Promise<unknown>) => attempt.then(() => 'accepted', (error: unknown) => error);

const balance = async (memberId: string) =>
  (await db.query(`select point_amount::text as points, purchase_amount::text as purchases from point.point_balance where member_id = ?`, [memberId]))[0];
const entries = (memberId: string) =>
  db.query(`select action_type, amount::text, balance_after::text from point.point_transaction where member_id = ? order by created_at, id`, [memberId]);
const lots = (memberId: string) => db.query(`select amount::text, remaining::text from point.point_lot where member_id = ? order by earned_at, id`, [memberId]);
const events = (memberId: string) =>
  db.query(`select type, payload->>'amount' as amount, payload->>'balanceAfter' as balance_after from point.outbox_event where aggregate_id = ? order by sequence`, [memberId]);
/** Moves a lot `days` into the past (earned then, expiring 30 days later). */
const backdate = (transactionId: string, days: number) =>
  db.query(`update point.point_lot set earned_at = earned_at - ?::interval, expires_at = expires_at - ?::interval where transaction_id = ?`, [
    `${days} days`,
    `${days} days`,
    transactionId,
  ]);

describe('earning', () => {
  it('writes the balance, the ledger entry, its lot and its event together', async () => {
    const memberId = randomUUID();
    const entry = await earn(memberId, '10.50', { purchaseAmount: '120.00', shopId: 's1', sourceBy: null });
    expect(entry).toMatchObject({ memberId, actionType: 'EARN', amount: '10.50', purchaseAmount: '120.00', shopId: 's1', balanceAfter: '10.50' });
    expect(await balance(memberId)).toEqual({ points: '10.50', purchases: '120.00' });
    expect(await entries(memberId)).toEqual([{ action_type: 'EARN', amount: '10.50', balance_after: '10.50' }]);
    expect(await lots(memberId)).toEqual([{ amount: '10.50', remaining: '10.50' }]);
    expect(await events(memberId)).toEqual([{ type: 'points.earned', amount: '10.50', balance_after: '10.50' }]);
  });

  it('keys the entry, its lot and the expiries before it by time (UUIDv7), so that they land on the last page of their indexes', async () => {
    const memberId = randomUUID();
    const first = await earn(memberId, '5', {}, expiring);
    await backdate(first.id, 31);
    const before = Date.now();
    const second = await earn(memberId, '7', {}, expiring);
    const after = Date.now();
    const keys = await db.query(
      `select id::text, action_type from point.point_transaction where member_id = ? and id <> ? union all
       select id::text, 'LOT' from point.point_lot where member_id = ? and transaction_id = ?`,
      [memberId, first.id, memberId, second.id],
    );
    expect(keys.map((key: { action_type: string }) => key.action_type).sort()).toEqual(['EARN', 'EXPIRE', 'LOT']);
    for (const { id } of keys) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const made = parseInt(id.replace('-', '').slice(0, 12), 16);
      expect(made).toBeGreaterThanOrEqual(before - 1000);
      expect(made).toBeLessThanOrEqual(after + 1000);
    }
  });

  it('adds decimals exactly', async () => {
    const memberId = randomUUID();
    await earn(memberId, '0.10');
    await earn(memberId, '0.20');
    expect((await balance(memberId)).points).toBe('0.30');
  });

  it('writes nothing when the caller’s transaction fails after it', async () => {
    const memberId = randomUUID();
    await earn(memberId, '5');
    const failed = await refusal(
      inTransaction(async (em) => {
        await ledger.earn(em, { memberId, amount: '7' });
        throw new Error('the request failed later');
      }),
    );
    expect(failed).toEqual(new Error('the request failed later'));
    expect((await balance(memberId)).points).toBe('5.00');
    expect(await entries(memberId)).toHaveLength(1);
    expect(await lots(memberId)).toHaveLength(1);
    expect(await events(memberId)).toHaveLength(1);
  });

  it('dates the lot’s expiry by the policy', async () => {
    const memberId = randomUUID();
    const entry = await earn(memberId, '3', {}, expiring);
    const [lot] = await db.query(`select earned_at, expires_at from point.point_lot where transaction_id = ?`, [entry.id]);
    expect(new Date(lot.earned_at).getTime()).toBe(entry.createdAt.getTime());
    expect(new Date(lot.expires_at).getTime() - new Date(lot.earned_at).getTime()).toBe(30 * DAY_MS);
    const [never] = await db.query(`select expires_at from point.point_lot where transaction_id = ?`, [(await earn(memberId, '1')).id]);
    expect(never.expires_at).toBeNull();
  });
});

describe('spending', () => {
  it('takes the oldest lots first', async () => {
    const memberId = randomUUID();
    const first = await earn(memberId, '10');
    const second = await earn(memberId, '20');
    // The second lot is made the older one: lots are used by when they were earned.
    await backdate(second.id, 2);
    await backdate(first.id, 1);
    await spend(memberId, '25');
    expect(await db.query(`select transaction_id, remaining::text from point.point_lot where member_id = ? order by earned_at`, [memberId])).toEqual([
      { transaction_id: second.id, remaining: '0.00' },
      { transaction_id: first.id, remaining: '5.00' },
    ]);
    expect(await entries(memberId)).toEqual([
      { action_type: 'EARN', amount: '10.00', balance_after: '10.00' },
      { action_type: 'EARN', amount: '20.00', balance_after: '30.00' },
      { action_type: 'SPEND', amount: '25.00', balance_after: '5.00' },
    ]);
    expect((await events(memberId)).map((event) => event.type)).toEqual(['points.earned', 'points.earned', 'points.redeemed']);
  });

  it('spends the whole balance, and refuses a cent more with a 400 on amount, changing nothing', async () => {
    const memberId = randomUUID();
    await earn(memberId, '5');
    const refused = await refusal(spend(memberId, '5.01'));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', message: 'Insufficient points: the balance is 5.00', fieldErrors: [{ field: 'amount' }] });
    expect((await balance(memberId)).points).toBe('5.00');
    expect(await lots(memberId)).toEqual([{ amount: '5.00', remaining: '5.00' }]);
    expect(await events(memberId)).toHaveLength(1);
    await spend(memberId, '5');
    expect((await balance(memberId)).points).toBe('0.00');
    expect((await refusal(spend(memberId, '0.01'))) as AppError).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('never overdraws under concurrent spends: each one sees the balance the previous left', async () => {
    const memberId = randomUUID();
    await earn(memberId, '100');
    const outcomes = await Promise.all(Array.from({ length: 16 }, () => refusal(spend(memberId, '10'))));
    expect(outcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(10);
    for (const outcome of outcomes.filter((outcome) => outcome !== 'accepted')) {
      expect(outcome).toMatchObject({ code: 'BAD_REQUEST', message: 'Insufficient points: the balance is 0.00' });
    }
    expect((await balance(memberId)).points).toBe('0.00');
    const spent = (await entries(memberId)).filter((entry) => entry.action_type === 'SPEND');
    expect(spent.map((entry) => entry.balance_after).sort()).toEqual(['0.00', '10.00', '20.00', '30.00', '40.00', '50.00', '60.00', '70.00', '80.00', '90.00']);
    expect(await lots(memberId)).toEqual([{ amount: '100.00', remaining: '0.00' }]);
  });

  it('keeps each member’s balance whole while many members earn and spend at once', async () => {
    const members = Array.from({ length: 6 }, () => randomUUID());
    await Promise.all(members.flatMap((memberId) => [earn(memberId, '30'), earn(memberId, '20'), refusal(spend(memberId, '15'))]));
    for (const memberId of members) {
      const rows = await entries(memberId);
      const net = rows.reduce((sum, row) => sum + (row.action_type === 'EARN' ? 1 : -1) * Math.round(Number(row.amount) * 100), 0);
      expect(Math.round(Number((await balance(memberId)).points) * 100)).toBe(net);
      const [remaining] = await db.query(`select sum(remaining)::text as total from point.point_lot where member_id = ?`, [memberId]);
      expect(remaining.total).toBe((await balance(memberId)).points);
    }
  });
});

describe('expiry', () => {
  it('expires what is left of a due lot, with its ledger entry and event', async () => {
    const memberId = randomUUID();
    const old = await earn(memberId, '10', {}, expiring);
    await earn(memberId, '4', {}, expiring);
    await spend(memberId, '3', expiring);
    await backdate(old.id, 31);
    expect(await inTransaction((em) => expiring.expireDue(em, memberId))).toBe(1);
    expect((await balance(memberId)).points).toBe('4.00');
    expect((await entries(memberId)).at(-1)).toEqual({ action_type: 'EXPIRE', amount: '7.00', balance_after: '4.00' });
    expect((await events(memberId)).at(-1)).toEqual({ type: 'points.expired', amount: '7.00', balance_after: '4.00' });
    expect(await inTransaction((em) => expiring.expireDue(em, memberId))).toBe(0);
  });

  it('expires due points before a spend, so that they cannot be spent', async () => {
    const memberId = randomUUID();
    const old = await earn(memberId, '10', {}, expiring);
    await earn(memberId, '5', {}, expiring);
    await backdate(old.id, 31);
    expect(await refusal(spend(memberId, '8', expiring))).toMatchObject({ message: 'Insufficient points: the balance is 5.00' });
    await spend(memberId, '5', expiring);
    expect((await entries(memberId)).map((entry) => [entry.action_type, entry.balance_after])).toEqual([
      ['EARN', '10.00'],
      ['EARN', '15.00'],
      ['EXPIRE', '5.00'],
      ['SPEND', '0.00'],
    ]);
  });

  it('expires several due lots before a movement, oldest expiry first, and spends only the lots still live', async () => {
    const memberId = randomUUID();
    const [first, second] = [await earn(memberId, '10', {}, expiring), await earn(memberId, '4', {}, expiring)];
    await earn(memberId, '6', {}, expiring);
    await backdate(first.id, 32);
    await backdate(second.id, 31);
    const spent = await spend(memberId, '2.50', expiring);
    expect(spent).toMatchObject({ actionType: 'SPEND', amount: '2.50', balanceAfter: '3.50' });
    const expected = [
      { action_type: 'EXPIRE', amount: '10.00', balance_after: '10.00' },
      { action_type: 'EXPIRE', amount: '4.00', balance_after: '6.00' },
      { action_type: 'SPEND', amount: '2.50', balance_after: '3.50' },
    ];
    expect((await entries(memberId)).slice(3)).toEqual(expected);
    expect((await events(memberId)).slice(3)).toEqual(
      expected.map((entry) => ({ type: entry.action_type === 'EXPIRE' ? 'points.expired' : 'points.redeemed', amount: entry.amount, balance_after: entry.balance_after })),
    );
    expect(await lots(memberId)).toEqual([
      { amount: '10.00', remaining: '0.00' },
      { amount: '4.00', remaining: '0.00' },
      { amount: '6.00', remaining: '3.50' },
    ]);
    expect(await balance(memberId)).toEqual({ points: '3.50', purchases: '0.00' });
  });

  it('expires a due lot once when movements and the job meet on the member', async () => {
    const memberId = randomUUID();
    const old = await earn(memberId, '10', {}, expiring);
    await earn(memberId, '5', {}, expiring);
    await backdate(old.id, 31);
    await Promise.all([
      spend(memberId, '1', expiring),
      inTransaction((em) => expiring.expireDue(em, memberId)),
      earn(memberId, '2', {}, expiring),
      inTransaction((em) => expiring.expireDue(em, memberId)),
      spend(memberId, '1', expiring),
    ]);
    const rows = await entries(memberId);
    expect(rows.filter((entry) => entry.action_type === 'EXPIRE')).toEqual([{ action_type: 'EXPIRE', amount: '10.00', balance_after: '5.00' }]);
    expect((await balance(memberId)).points).toBe('5.00');
    const [remaining] = await db.query(`select sum(remaining)::text as total from point.point_lot where member_id = ?`, [memberId]);
    expect(remaining.total).toBe('5.00');
  });

  it('the job expires every due lot of every member, and only those', async () => {
    const due = [randomUUID(), randomUUID()];
    const kept = randomUUID();
    for (const memberId of [...due, kept]) await earn(memberId, '2', {}, expiring);
    for (const memberId of due) await backdate((await earn(memberId, '1', {}, expiring)).id, 40);
    await db.query(`update point.point_lot set expires_at = now() - interval '1 day' where member_id in (?) and amount = 2`, [due]);
    expect(await expireAllDue(db.orm, expiring)).toBe(4);
    for (const memberId of due) expect((await balance(memberId)).points).toBe('0.00');
    expect((await balance(kept)).points).toBe('2.00');
    expect(await expireAllDue(db.orm, expiring)).toBe(0);
  });
});

describe('kept counts', () => {
  /** Each member's entry count beside its entries, and the ledger's tally beside all entries. */
  const counts = async () => ({
    members: await db.query(
      `select b.member_id, b.entry_count::int as kept, (select count(*)::int from point.point_transaction t where t.member_id = b.member_id) as counted
         from point.point_balance b order by b.member_id`,
    ),
    ledger: (await db.query(`select (select sum(n)::int from point.tally where name = 'entries') as kept, (select count(*)::int from point.point_transaction) as counted`))[0],
  });

  it('count every entry of earns, spends and expiries, and none of refused or rolled-back movements', async () => {
    const memberId = randomUUID();
    const old = await earn(memberId, '10', {}, expiring);
    await earn(memberId, '5', {}, expiring);
    await Promise.all([spend(memberId, '2', expiring), spend(memberId, '1', expiring), earn(memberId, '1', {}, expiring)]);
    await refusal(spend(memberId, '1000', expiring));
    await refusal(inTransaction(async (em) => {
      await expiring.earn(em, { memberId, amount: '7' });
      throw new Error('the request failed later');
    }));
    await backdate(old.id, 31);
    await spend(memberId, '1', expiring); // expires the old lot first: an EXPIRE and a SPEND entry

    const { members, ledger } = await counts();
    expect(members.find((row) => row.member_id === memberId)).toEqual({ member_id: memberId, kept: 7, counted: 7 });
    for (const row of members) expect(row.kept).toBe(row.counted);
    expect(ledger.kept).toBe(ledger.counted);
  });
});
