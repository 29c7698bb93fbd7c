import { randomUUID } from 'node:crypto';
import { RewardCode } from '../../subgraphs/reward/entities/reward-code';
import { rewardModule } from '../../subgraphs/reward/module';
import { noticeExpiringBatch, noticeExpiringCodes } from '../../subgraphs/reward/services/code-expiry-notice';
import { issueRewardCodes } from '../../subgraphs/reward/services/reward-code-issuer';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(rewardModule);
const DAY_MS = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);

let rewardId: string;
let rewardCatalogId: string;
beforeAll(async () => {
  rewardId = randomUUID();
  rewardCatalogId = randomUUID();
  await db.query(
    `insert into reward.reward (id, name_en, description_en, type, created_at, updated_at) values (?, 'Coffee', 'A cup', 'PRODUCT', now(), now())`,
    [rewardId],
  );
  await db.query(
    `insert into reward.reward_catalog (id, name_en, reward_id, point_usage, created_at, updated_at) values (?, 'Coffee for points', ?, 100, now(), now())`,
    [rewardCatalogId, rewardId],
  );
});

/** Codes issued as redemption issues them, one transaction each, for a PENDING redemption (a code's redemption exists). */
async function issue(memberId: string, expiredAt: Date) {
  const redemptionId = randomUUID();
  await db.query(
    `insert into reward.redemption (id, member_id, reward_catalog_id, reward_id, point_usage, idempotency_key, stock_taken, created_at, updated_at)
     values (?, ?, ?, ?, 100, ?, false, now(), now())`,
    [redemptionId, memberId, rewardCatalogId, rewardId, redemptionId],
  );
  return db.em().transactional(async (em) => (await issueRewardCodes(em, { rewardId, rewardCatalogId, memberId, redemptionId, expiredAt }, 1))[0]);
}
const noticedIds = async (): Promise<string[]> =>
  (await db.query(`select id from reward.reward_code where expiration_notified_at is not null`)).map((row) => row.id).sort();
const eventCodeIds = async (): Promise<string[]> =>
  (await db.query(`select payload->>'rewardCodeId' as id from reward.outbox_event where type = 'reward.code-expiring'`)).map((row) => row.id).sort();
const reset = async () => {
  await db.query(`delete from reward.outbox_event`);
  await db.query(`delete from reward.reward_code`);
};

describe('the expiration notice job, called directly', () => {
  beforeEach(reset);

  it('announces only unused, unannounced codes that expire within the horizon', async () => {
    const member = randomUUID();
    const due = await issue(member, inDays(2));
    const beyond = await issue(member, inDays(4));
    const expired = await issue(member, inDays(-1));
    const used = await issue(member, inDays(1));
    const announced = await issue(member, inDays(1));
    await db.query(`update reward.reward_code set used_at = now(), staff_id = 'staff' where id = ?`, [used.id]);
    await db.query(`update reward.reward_code set expiration_notified_at = now() - interval '1 day' where id = ?`, [announced.id]);

    expect(await noticeExpiringCodes(db.orm, 3)).toBe(1);
    expect(await eventCodeIds()).toEqual([due.id]);
    expect(await noticedIds()).toEqual([due.id, announced.id].sort());
    const [event] = await db.query(`select aggregate_id, payload from reward.outbox_event where type = 'reward.code-expiring'`);
    const row = await db.em().findOneOrFail(RewardCode, due.id);
    expect(event).toEqual({
      aggregate_id: member,
      payload: {
        memberId: member,
        rewardId,
        rewardCatalogId,
        rewardCodeId: due.id,
        expiredAt: due.expiredAt.toISOString(),
        notifiedAt: row.expirationNotifiedAt!.toISOString(),
      },
    });

    expect(await noticeExpiringCodes(db.orm, 3)).toBe(0);
    expect(await noticeExpiringCodes(db.orm, 5)).toBe(1);
    expect(await eventCodeIds()).toEqual([due.id, beyond.id].sort());
    expect(await noticeExpiringCodes(db.orm, 5)).toBe(0);
    expect(await noticedIds()).toEqual([due.id, beyond.id, announced.id].sort());
    expect(await noticedIds()).not.toContain(expired.id);
  });

  it('works in batches, each committed on its own', async () => {
    const codes = [];
    for (let i = 0; i < 7; i += 1) codes.push(await issue(randomUUID(), inDays(1)));
    expect(await db.em().transactional((em) => noticeExpiringBatch(em, 3, 3))).toBe(3);
    expect(await noticedIds()).toHaveLength(3);
    expect(await noticeExpiringCodes(db.orm, 3, 3)).toBe(4);
    expect(await eventCodeIds()).toEqual(codes.map((code) => code.id).sort());
  });

  it('a batch whose transaction fails leaves its codes unannounced and writes no event', async () => {
    const code = await issue(randomUUID(), inDays(1));
    const failed = await db
      .em()
      .transactional(async (em) => {
        await noticeExpiringBatch(em, 3);
        throw new Error('the run failed later');
      })
      .catch((error: Error) => error.message);
    expect(failed).toBe('the run failed later');
    expect(await noticedIds()).toEqual([]);
    expect(await eventCodeIds()).toEqual([]);
    expect(await noticeExpiringCodes(db.orm, 3)).toBe(1);
    expect(await eventCodeIds()).toEqual([code.id]);
  });

  it('two instances running at once announce each code exactly once, without deadlock', async () => {
    const members = Array.from({ length: 5 }, () => randomUUID());
    const codes = [];
    for (let i = 0; i < 60; i += 1) codes.push(await issue(members[i % members.length], inDays(1 + (i % 3) * 0.1)));
    const [first, second] = await Promise.all([noticeExpiringCodes(db.orm, 3, 4), noticeExpiringCodes(db.orm, 3, 4)]);
    expect(first + second).toBe(60);
    expect(await eventCodeIds()).toEqual(codes.map((code) => code.id).sort());
    expect(await noticedIds()).toHaveLength(60);
  });

  it('skips the codes another transaction holds instead of waiting for them', async () => {
    const held = await issue(randomUUID(), inDays(1));
    const free = await issue(randomUUID(), inDays(1));
    const holder = db.em();
    await holder.transactional(async (em) => {
      await em.execute(`select id from reward.reward_code where id = ? for update`, [held.id]);
      expect(await noticeExpiringCodes(db.orm, 3)).toBe(1);
    });
    expect(await eventCodeIds()).toEqual([free.id]);
    expect(await noticeExpiringCodes(db.orm, 3)).toBe(1);
    expect(await eventCodeIds()).toEqual([held.id, free.id].sort());
  });
});
