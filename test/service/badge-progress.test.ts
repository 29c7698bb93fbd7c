import { randomUUID } from 'node:crypto';
import { PublishedEvent } from '../../core/events/outbox-event';
import { BadgeRule, BadgeRuleType, BadgeTierConditionType } from '../../subgraphs/cluster/entities/badge';
import { clusterModule } from '../../subgraphs/cluster/module';
import { applyBadgeEvent } from '../../subgraphs/cluster/services/badge-progress';
import { PointLedgerEntry } from '../../subgraphs/point/contract';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(clusterModule);
const DAY_MS = 24 * 3600 * 1000;
const START = Date.parse('2026-04-01T10:00:00.000Z');

/**
 * Every badge applies to every member's events, and this database is the file's own: each test
 * deactivates the badges it made, so the next one starts with none live.
 */
afterEach(() => db.query(`update cluster.badge set is_active = false`));

async function badge(rule: Partial<BadgeRule>, state: { active?: boolean; deleted?: boolean } = {}): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into cluster.badge (id, name_en, description_en, rule, is_active, created_at, updated_at, deleted_at)
     values (?, 'Badge', 'A badge', ?::jsonb, ?, now(), now(), ?)`,
    [id, JSON.stringify(rule), state.active ?? true, state.deleted ? new Date() : null],
  );
  return id;
}

interface Purchase {
  purchase: string;
  day?: number;
  shopId?: string;
  type?: string;
}
/** Applies one point event of the member (a purchase `day` days after START) in its own transaction, as the consumer does. */
function apply(memberId: string, { purchase, day = 0, shopId, type = 'points.earned' }: Purchase): Promise<void> {
  const createdAt = new Date(START + day * DAY_MS).toISOString();
  const data: PointLedgerEntry = {
    transactionId: randomUUID(),
    memberId,
    actionType: type === 'points.earned' ? 'EARN' : 'SPEND',
    amount: '1.00',
    purchaseAmount: purchase,
    shopId: shopId ?? null,
    categoryId: null,
    sourceBy: 'Purchase',
    balanceAfter: '1.00',
    createdAt,
  };
  const event: PublishedEvent<PointLedgerEntry> = { id: randomUUID(), type, occurredAt: createdAt, data, source: 'point', aggregateId: memberId };
  return db.em().transactional((em) => applyBadgeEvent(em, event));
}

const progress = async (memberId: string, badgeId: string) =>
  (
    await db.query(
      `select current_value::text as current, goal_value::text as goal, is_completed as completed,
              to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as completed_at
         from cluster.badge_member_progress where member_id = ? and badge_id = ?`,
      [memberId, badgeId],
    )
  )[0];
const completions = (memberId: string) =>
  db.query(`select payload->>'badgeId' as badge_id, payload->>'completedAt' as completed_at from cluster.outbox_event where type = 'badge.completed' and aggregate_id = ?`, [
    memberId,
  ]);

describe('badge progress from point events', () => {
  it('counts purchases one each, completes at the goal once, and announces it with the completion', async () => {
    const badgeId = await badge({ type: BadgeRuleType.purchaseCount, purchaseCount: 3 });
    const memberId = randomUUID();
    await apply(memberId, { purchase: '10' });
    await apply(memberId, { purchase: '99.99', type: 'points.redeemed' });
    expect(await progress(memberId, badgeId)).toMatchObject({ current: '2.00', goal: '3.00', completed: false, completed_at: null });
    await apply(memberId, { purchase: '1' });
    const done = await progress(memberId, badgeId);
    expect(done).toMatchObject({ current: '3.00', completed: true, completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    await apply(memberId, { purchase: '1' });
    expect(await progress(memberId, badgeId)).toEqual(done);
    expect(await completions(memberId)).toEqual([{ badge_id: badgeId, completed_at: done.completed_at }]);
  });

  it('sums purchase amounts exactly to the cent for an amount rule', async () => {
    const badgeId = await badge({ type: BadgeRuleType.totalPurchaseAmount, purchaseAmount: 100.3 });
    const memberId = randomUUID();
    await apply(memberId, { purchase: '0.10' });
    await apply(memberId, { purchase: '0.20' });
    expect(await progress(memberId, badgeId)).toMatchObject({ current: '0.30', goal: '100.30', completed: false });
    await apply(memberId, { purchase: '100.00' });
    expect(await progress(memberId, badgeId)).toMatchObject({ current: '100.30', completed: true });
  });

  it('writes no progress for an event that does not count, and none for an event without a purchase', async () => {
    const badgeId = await badge({ type: BadgeRuleType.shopPurchaseAmount, purchaseAmount: 50, shopIdsIncluded: ['s1'] });
    const memberId = randomUUID();
    await apply(memberId, { purchase: '20', shopId: 's2' });
    await apply(memberId, { purchase: '0', shopId: 's1' });
    expect(await progress(memberId, badgeId)).toBeUndefined();
    await apply(memberId, { purchase: '20', shopId: 's1' });
    expect(await progress(memberId, badgeId)).toMatchObject({ current: '20.00', goal: '50.00' });
  });

  it('with withinDays, counts only events within N days of the member’s first counted event', async () => {
    const badgeId = await badge({ type: BadgeRuleType.purchaseCount, purchaseCount: 3, withinDays: 7 });
    const memberId = randomUUID();
    await apply(memberId, { purchase: '5', day: 0 });
    await apply(memberId, { purchase: '5', day: 7 });
    await apply(memberId, { purchase: '5', day: 7.5 });
    expect(await progress(memberId, badgeId)).toMatchObject({ current: '2.00', completed: false });
  });

  it('gives inactive and deleted badges no progress', async () => {
    const inactive = await badge({ type: BadgeRuleType.firstTime }, { active: false });
    const deleted = await badge({ type: BadgeRuleType.firstTime }, { deleted: true });
    const live = await badge({ type: BadgeRuleType.firstTime });
    const memberId = randomUUID();
    await apply(memberId, { purchase: '5' });
    expect(await progress(memberId, inactive)).toBeUndefined();
    expect(await progress(memberId, deleted)).toBeUndefined();
    expect(await progress(memberId, live)).toMatchObject({ current: '1.00', goal: '1.00', completed: true });
  });

  it('reads the tier condition from the member’s tier when the event is applied', async () => {
    const tierId = randomUUID();
    await db.query(`insert into cluster.tier (id, name_en, description_en, level, created_at, updated_at) values (?, 'Gold', 'Gold', 7, now(), now())`, [tierId]);
    const badgeId = await badge({ type: BadgeRuleType.purchaseCount, purchaseCount: 5, tierCondition: { type: BadgeTierConditionType.include, tierIds: [tierId] } });
    const memberId = randomUUID();
    await apply(memberId, { purchase: '5' });
    expect(await progress(memberId, badgeId)).toBeUndefined();
    await db.query(`insert into cluster.tier_projection (id, member_id, tier_id, created_at, updated_at) values (?, ?, ?, now(), now())`, [randomUUID(), memberId, tierId]);
    await apply(memberId, { purchase: '5' });
    expect(await progress(memberId, badgeId)).toMatchObject({ current: '1.00' });
  });
});
