import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { PublishedEvent } from '../core/events/outbox-event';
import { createLogger } from '../core/logger';
import { AUTOMATIC_NOTIFICATIONS_QUEUE } from '../subgraphs/notification/services/automatic-notifications';
import { EXPIRE_LOTS_QUEUE } from '../subgraphs/point/services/expiry-job';
import { EXPIRY_NOTICE_QUEUE } from '../subgraphs/point/services/expiry-notice';
import { png } from './support/images';
import { usePlatform } from './support/use-platform';
import { sendAndWait, waitFor } from './support/wait-for';

const {
  platform,
  admin,
  marketing,
  members: [earner, expiring],
} = usePlatform({ staff: ['admin', 'marketing'], members: 2, env: { POINT_EXPIRY: 'days:30', POINT_EXPIRY_NOTICE_DAYS: '7' } });
let boss: PgBoss;
beforeAll(async () => {
  boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
});
afterAll(() => stopJobQueue(boss));

interface Notification {
  id: string;
  memberId: string;
  type: string;
  pointSubtype: string | null;
  tierSubtype: string | null;
  metadata: Record<string, any>;
  title_en: string;
  title_th: string;
  title_cn: string;
  content_en: string;
  content_th: string;
  content_cn: string;
  readAt: string | null;
}

/** A member's notifications of one kind, through REST (staff list, newest first). */
async function notificationsOf(memberId: string, kind: { type: string; subtype?: string }): Promise<Notification[]> {
  const response = await platform.api('GET', `/notification/api/in-apps?memberId=${memberId}&type=${kind.type}&limit=100`, { token: marketing.token });
  expect(response.status).toBe(200);
  const items = response.body.data.data.data as Notification[];
  return kind.subtype ? items.filter((item) => item.pointSubtype === kind.subtype || item.tierSubtype === kind.subtype) : items;
}
const oneNotification = (memberId: string, kind: { type: string; subtype?: string }) =>
  waitFor(async () => {
    const found = await notificationsOf(memberId, kind);
    return found.length > 0 && found;
  }, `a ${kind.subtype ?? kind.type} notification of ${memberId}`);

const expectLocalized = (notification: Notification) => {
  for (const language of ['en', 'th', 'cn'] as const) {
    expect(notification[`title_${language}`]).toEqual(expect.any(String));
    expect(notification[`content_${language}`]).toEqual(expect.any(String));
    expect(notification[`content_${language}`].length).toBeGreaterThan(0);
  }
  expect(new Set([notification.title_en, notification.title_th, notification.title_cn]).size).toBe(3);
};

const fakeEvent = (type: string, data: Record<string, unknown>): PublishedEvent => ({ id: randomUUID(), type, occurredAt: new Date().toISOString(), data });
/** Delivers the event to the notification queue twice, as a redelivery would; both jobs complete. */
async function deliverTwice(event: PublishedEvent): Promise<void> {
  await sendAndWait(boss, AUTOMATIC_NOTIFICATIONS_QUEUE, event);
  await sendAndWait(boss, AUTOMATIC_NOTIFICATIONS_QUEUE, event);
}
const countOf = async (memberId: string) =>
  Number((await platform.sql.query('select count(*) from notification.in_app_notification where member_id = $1', [memberId])).rows[0].count);

const earn = async (memberId: string, amount: number) => {
  const response = await platform.api('POST', '/point/api/earn', { token: admin.token, body: { memberId, amount, purchaseAmount: 0 } });
  expect(response.status).toBe(200);
};

describe('points earned', () => {
  it('an earn through REST gives the member one point_received notification with localized texts and the points', async () => {
    await earn(earner.id, 12.5);
    const [notification] = await oneNotification(earner.id, { type: 'points', subtype: 'point_received' });
    expect(notification).toMatchObject({ memberId: earner.id, type: 'points', pointSubtype: 'point_received', readAt: null, metadata: { points: 12.5, transactionId: expect.any(String) } });
    expect(notification.content_en).toBe('You received 12.5 points.');
    expectLocalized(notification);
    // The member sees it in its own list.
    const own = await platform.api('GET', '/notification/api/in-apps/me?locale=th', { token: earner.token });
    expect(own.body.data.data.data.map((item: Notification) => item.id)).toContain(notification.id);
    expect(await notificationsOf(earner.id, { type: 'points', subtype: 'point_received' })).toHaveLength(1);
  });

  it('an earn event delivered twice (same stream position) still gives one notification', async () => {
    const memberId = randomUUID();
    const createdAt = new Date().toISOString();
    const event: PublishedEvent = {
      ...fakeEvent('points.earned', { transactionId: randomUUID(), memberId, actionType: 'EARN', amount: '3.00', purchaseAmount: '0.00', balanceAfter: '3.00', createdAt }),
      source: 'point',
      sequence: '1',
      aggregateId: memberId,
      previousSequence: null,
    };
    await deliverTwice(event);
    await deliverTwice({ ...event, id: randomUUID() });
    const found = await notificationsOf(memberId, { type: 'points' });
    expect(found).toHaveLength(1);
    expect(found[0].metadata.points).toBe(3);
  });
});

describe('points expiring and expired (the point job)', () => {
  it('announces lots expiring within the horizon once (point_nearly_expire), then their expiry (point_expired)', async () => {
    await earn(expiring.id, 20);
    await platform.sql.query(`update point.point_lot set expires_at = now() + interval '3 days' - interval '1 hour' where member_id = $1`, [expiring.id]);
    await sendAndWait(boss, EXPIRY_NOTICE_QUEUE, {});
    const [nearly] = await oneNotification(expiring.id, { type: 'points', subtype: 'point_nearly_expire' });
    expect(nearly.metadata).toMatchObject({ points: 20, daysRemaining: 3, expiryDate: expect.any(String) });
    expect(nearly.content_en).toContain('20 of your points expire on');
    expectLocalized(nearly);
    // The next run finds the lot announced: no second event, no second notification.
    await sendAndWait(boss, EXPIRY_NOTICE_QUEUE, {});
    const events = await platform.sql.query(`select count(*)::int as n from point.outbox_event where type = 'points.expiring' and aggregate_id = $1`, [expiring.id]);
    expect(events.rows[0].n).toBe(1);

    await platform.sql.query(`update point.point_lot set earned_at = earned_at - interval '40 days', expires_at = now() - interval '1 day' where member_id = $1`, [expiring.id]);
    await sendAndWait(boss, EXPIRE_LOTS_QUEUE, {});
    const [expired] = await oneNotification(expiring.id, { type: 'points', subtype: 'point_expired' });
    expect(expired.metadata).toMatchObject({ points: 20 });
    expect(expired.content_en).toBe('20 of your points have expired.');
    expectLocalized(expired);
    expect(await notificationsOf(expiring.id, { type: 'points', subtype: 'point_nearly_expire' })).toHaveLength(1);
  });
});

describe('receipt verification', () => {
  it('a submitted receipt gives receipt_processing, its rejection receipt_error with the reason', async () => {
    const memberId = randomUUID();
    const form = new FormData();
    form.append('memberId', memberId);
    form.append('image', png(), 'receipt.png');
    const submitted = await fetch(`${platform.restUrl}/point/api/receipt/verify`, { method: 'POST', headers: { authorization: `Bearer ${marketing.token}` }, body: form });
    expect(submitted.status).toBe(201);
    const verification = ((await submitted.json()) as any).data;
    const [processing] = await oneNotification(memberId, { type: 'points', subtype: 'receipt_processing' });
    expect(processing.metadata).toMatchObject({ status: 'processing' });
    expectLocalized(processing);

    const rejected = await platform.api('POST', `/point/api/receipt/verify/${verification.id}/manual`, { token: marketing.token, body: { approved: false, reviewReason: 'Blurry photo' } });
    expect(rejected.status).toBe(200);
    const [error] = await oneNotification(memberId, { type: 'points', subtype: 'receipt_error' });
    expect(error.metadata).toMatchObject({ reason_en: 'Blurry photo', canRetry: true });
    expectLocalized(error);
    expect(await countOf(memberId)).toBe(2);
  });

  it('a receipt event delivered twice gives one notification', async () => {
    const memberId = randomUUID();
    const data = { verificationId: randomUUID(), memberId, status: 'REJECTED', receiptImageUrl: 'https://cdn.example.com/r.png', receiptId: null, reviewReason: null, changedAt: new Date().toISOString() };
    await deliverTwice(fakeEvent('receipt.rejected', data));
    const found = await notificationsOf(memberId, { type: 'points', subtype: 'receipt_error' });
    expect(found).toHaveLength(1);
    expect(found[0].metadata).toMatchObject({ receiptImageUrl: 'https://cdn.example.com/r.png', errorCode: 'RECEIPT_REJECTED' });
  });
});

describe('tier, badge and reward code events', () => {
  const tierChange = (memberId: string, changeType: string) => ({
    memberId,
    fromTierId: randomUUID(),
    toTierId: randomUUID(),
    changeType,
    source: changeType === 'upgrade' ? 'automatic' : 'manual',
    tierEndAt: '2027-06-30T00:00:00.000Z',
    snapshot: {},
    historyId: randomUUID(),
  });

  it('a tier upgrade gives one tier_upgraded notification, even delivered twice', async () => {
    const memberId = randomUUID();
    await deliverTwice(fakeEvent('customer.tier_changed', tierChange(memberId, 'upgrade')));
    const found = await notificationsOf(memberId, { type: 'tier' });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ tierSubtype: 'tier_upgraded', metadata: { validUntil: '2027-06-30T00:00:00.000Z' } });
    expectLocalized(found[0]);
  });

  it('a tier downgrade or manual change gives one tier_adjusted notification each', async () => {
    const memberId = randomUUID();
    await deliverTwice(fakeEvent('customer.tier_changed', tierChange(memberId, 'downgrade')));
    await deliverTwice(fakeEvent('customer.tier_changed', tierChange(memberId, 'expiry')));
    const found = await notificationsOf(memberId, { type: 'tier' });
    expect(found.map((item) => item.tierSubtype)).toEqual(['tier_adjusted', 'tier_adjusted']);
  });

  it('a completed badge gives one badge notification, even delivered twice', async () => {
    const memberId = randomUUID();
    const badgeId = randomUUID();
    await deliverTwice(fakeEvent('badge.completed', { memberId, badgeId, completedAt: '2026-11-20T10:00:00.000Z' }));
    const found = await notificationsOf(memberId, { type: 'badge' });
    expect(found).toHaveLength(1);
    expect(found[0].metadata).toEqual({ badgeId, earnedAt: '2026-11-20T10:00:00.000Z', progressPercentage: 100 });
    expectLocalized(found[0]);
  });

  it('a reward code about to expire gives one promotion notification, even delivered twice', async () => {
    const memberId = randomUUID();
    const rewardId = randomUUID();
    const data = { memberId, rewardId, rewardCatalogId: randomUUID(), rewardCodeId: randomUUID(), expiredAt: '2026-12-01T00:00:00.000Z', notifiedAt: new Date().toISOString() };
    await deliverTwice(fakeEvent('reward.code-expiring', data));
    const found = await notificationsOf(memberId, { type: 'promotion' });
    expect(found).toHaveLength(1);
    expect(found[0].metadata).toEqual({ promotionId: rewardId, validUntil: '2026-12-01T00:00:00.000Z', eventType: 'reward_code_expiring' });
    expect(found[0].content_en).toBe('Your reward code expires on 2026-12-01. Use it before then.');
    expectLocalized(found[0]);
  });
});
