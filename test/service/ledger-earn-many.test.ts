import { randomUUID } from 'node:crypto';
import { pointModule } from '../../subgraphs/point/module';
import { LedgerService, PointMovement } from '../../subgraphs/point/services/ledger.service';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(pointModule);
const expiring = new LedgerService({ kind: 'days', days: 30 });

const entries = (memberId: string) =>
  db.query(`select action_type, amount::text, balance_after::text, note, reference_id, metadata from point.point_transaction where member_id = ? order by created_at, id`, [memberId]);
const lots = (memberId: string) => db.query(`select amount::text, remaining::text, (expires_at - earned_at) = interval '30 days' as thirty_days from point.point_lot where member_id = ? order by earned_at, id`, [memberId]);
const balance = async (memberId: string) => (await db.query(`select point_amount::text as points, entry_count::int as entries from point.point_balance where member_id = ?`, [memberId]))[0];
const events = (memberId: string) =>
  db.query(`select type, payload->>'transactionId' as id, payload->>'amount' as amount, payload->>'balanceAfter' as balance_after, payload->>'note' as note from point.outbox_event where aggregate_id = ? order by sequence`, [memberId]);

describe('LedgerService.earnMany (batch awards)', () => {
  it('writes what earn would, one movement after another: entries with running balances, lots, balances and events in order', async () => {
    const [ann, ben] = [randomUUID(), randomUUID()];
    await db.em().transactional((em) => expiring.earn(em, { memberId: ann, amount: '5.00', note: 'before' }));
    const movements: PointMovement[] = [
      { memberId: ann, amount: '10.00', note: 'one', referenceId: 'r1', metadata: { a: 1 } },
      { memberId: ben, amount: '3.00', note: 'two' },
      { memberId: ann, amount: '2.00', note: 'three' },
    ];
    const ids = await db.em().transactional((em) => expiring.earnMany(em, movements));
    expect(ids).toHaveLength(3);
    expect(await entries(ann)).toEqual([
      { action_type: 'EARN', amount: '5.00', balance_after: '5.00', note: 'before', reference_id: null, metadata: null },
      { action_type: 'EARN', amount: '10.00', balance_after: '15.00', note: 'one', reference_id: 'r1', metadata: { a: 1 } },
      { action_type: 'EARN', amount: '2.00', balance_after: '17.00', note: 'three', reference_id: null, metadata: null },
    ]);
    expect(await balance(ann)).toEqual({ points: '17.00', entries: 3 });
    expect(await balance(ben)).toEqual({ points: '3.00', entries: 1 });
    expect(await lots(ann)).toEqual([
      { amount: '5.00', remaining: '5.00', thirty_days: true },
      { amount: '10.00', remaining: '10.00', thirty_days: true },
      { amount: '2.00', remaining: '2.00', thirty_days: true },
    ]);
    expect((await events(ann)).slice(1)).toEqual([
      { type: 'points.earned', id: ids[0], amount: '10.00', balance_after: '15.00', note: 'one' },
      { type: 'points.earned', id: ids[2], amount: '2.00', balance_after: '17.00', note: 'three' },
    ]);
    expect(await events(ben)).toEqual([{ type: 'points.earned', id: ids[1], amount: '3.00', balance_after: '3.00', note: 'two' }]);
  });

  it('expires what is due first, as earn does', async () => {
    const memberId = randomUUID();
    const first = await db.em().transactional((em) => expiring.earn(em, { memberId, amount: '8.00' }));
    await db.query(`update point.point_lot set expires_at = now() - interval '1 second' where transaction_id = ?`, [first.id]);
    await db.em().transactional((em) => expiring.earnMany(em, [{ memberId, amount: '4.00' }]));
    expect((await entries(memberId)).map((entry) => [entry.action_type, entry.amount, entry.balance_after])).toEqual([
      ['EARN', '8.00', '8.00'],
      ['EXPIRE', '8.00', '0.00'],
      ['EARN', '4.00', '4.00'],
    ]);
    expect(await balance(memberId)).toEqual({ points: '4.00', entries: 3 });
  });

  it('lets two batches over the same members run at once without deadlock or lost points', async () => {
    const members = Array.from({ length: 20 }, () => randomUUID());
    const batch = (order: string[]) => db.em().fork().transactional((em) => expiring.earnMany(em, order.map((memberId) => ({ memberId, amount: '1.00' }))));
    await Promise.all([batch(members), batch([...members].reverse()), batch(members)]);
    const rows = await db.query(`select sum(point_amount)::text as total from point.point_balance where member_id in (?)`, [members]);
    expect(rows[0].total).toBe('60.00');
  });
});
