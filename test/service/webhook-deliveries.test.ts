import { randomUUID } from 'node:crypto';
import { newWebhookId } from '../../subgraphs/webhook/entities/webhook';
import { webhookModule } from '../../subgraphs/webhook/module';
import { claimDueDeliveries, pruneDeliveries, recordAttempt } from '../../subgraphs/webhook/services/delivery-worker';
import { fanOutEvent, FanOut } from '../../subgraphs/webhook/services/fan-out';
import { PublicEventTable } from '../../subgraphs/webhook/services/public-event-table';
import { platformSurface } from '../../subgraphs/registry';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(webhookModule);
const SCHEDULE = [60, 300];
const failure = { ok: false, statusCode: 500, error: 'HTTP 500' };
/** The platform's public events; the points events these tests fan out look nothing up. */
const fanOut: FanOut = { publicEvents: new PublicEventTable(platformSurface().publicEvents), lookup: () => Promise.reject(new Error('no lookup expected')) };

async function webhook(status = 'active', events = '{*}'): Promise<string> {
  const id = newWebhookId();
  await db.query(`insert into webhook.webhook (id, url, events, secret, status, created_at, updated_at) values (?, 'https://example.com/h', ?, 'a-secret-of-sixteen', ?, now(), now())`, [
    id,
    events,
    status,
  ]);
  return id;
}

const earned = (id = randomUUID()) => ({
  id,
  type: 'points.earned',
  occurredAt: new Date().toISOString(),
  data: { transactionId: randomUUID(), memberId: randomUUID(), actionType: 'EARN', amount: '5.00', balanceAfter: '5.00', createdAt: new Date().toISOString() },
});

const deliveriesOf = (webhookId: string) => db.query(`select id, status, attempts, retries_used, next_attempt_at, lease_token from webhook.webhook_delivery where webhook_id = ? order by created_at`, [webhookId]);

/** Leases a delivery as the worker's claim does. */
async function lease(deliveryId: string): Promise<string> {
  const token = randomUUID();
  await db.query(`update webhook.webhook_delivery set lease_until = now() + interval '1 minute', lease_token = ? where id = ?`, [token, deliveryId]);
  return token;
}

describe('fanOutEvent', () => {
  it('creates pending deliveries for active subscribers, held for failed ones, none for disabled ones or other types; once per event', async () => {
    const [active, failed, disabled, other] = [await webhook('active'), await webhook('failed'), await webhook('disabled'), await webhook('active', '{reward.claimed}')];
    const event = earned();
    await db.em().transactional((em) => fanOutEvent(em, event, fanOut));
    await db.em().transactional((em) => fanOutEvent(em, event, fanOut));
    expect(await deliveriesOf(active)).toEqual([expect.objectContaining({ status: 'pending', attempts: 0, next_attempt_at: expect.any(String) })]);
    expect(await deliveriesOf(failed)).toEqual([expect.objectContaining({ status: 'held', next_attempt_at: null })]);
    expect(await deliveriesOf(disabled)).toEqual([]);
    expect(await deliveriesOf(other)).toEqual([]);
    expect(await db.em().transactional((em) => fanOutEvent(em, { ...earned(), type: 'receipt.submitted' }, fanOut))).toBe(0);
  });
});

describe('recordAttempt', () => {
  it('retries on the schedule, then fails the delivery and the webhook and holds its other pending deliveries', async () => {
    const id = await webhook();
    await db.em().transactional((em) => fanOutEvent(em, earned(), fanOut));
    await db.em().transactional((em) => fanOutEvent(em, earned(), fanOut));
    const [first, second] = await deliveriesOf(id);
    for (let attempt = 1; attempt <= SCHEDULE.length + 1; attempt += 1) {
      const token = await lease(first.id);
      await db.em().transactional((em) => recordAttempt(em, { id: first.id, webhookId: id, token }, failure, SCHEDULE));
      const [row] = await db.query(`select status, attempts, retries_used, extract(epoch from next_attempt_at - now())::int as wait from webhook.webhook_delivery where id = ?`, [first.id]);
      if (attempt <= SCHEDULE.length) expect(row).toMatchObject({ status: 'pending', attempts: attempt, retries_used: attempt, wait: expect.any(Number) });
      if (attempt <= SCHEDULE.length) expect(Math.abs(row.wait - SCHEDULE[attempt - 1])).toBeLessThanOrEqual(2);
      else expect(row).toMatchObject({ status: 'failed', attempts: attempt, wait: null });
    }
    expect(await db.query(`select status, failed_at is not null as failed from webhook.webhook where id = ?`, [id])).toEqual([{ status: 'failed', failed: true }]);
    expect((await deliveriesOf(id)).find((row) => row.id === second.id)).toMatchObject({ status: 'held', next_attempt_at: null });
  });

  it('ignores the result of an attempt whose lease was lost, and records a success even on a held delivery', async () => {
    const id = await webhook();
    await db.em().transactional((em) => fanOutEvent(em, earned(), fanOut));
    const [delivery] = await deliveriesOf(id);
    const stale = await lease(delivery.id);
    const current = await lease(delivery.id);
    await db.em().transactional((em) => recordAttempt(em, { id: delivery.id, webhookId: id, token: stale }, failure, SCHEDULE));
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: 'pending', attempts: 0, lease_token: current });
    await db.query(`update webhook.webhook_delivery set status = 'held' where id = ?`, [delivery.id]);
    await db.em().transactional((em) => recordAttempt(em, { id: delivery.id, webhookId: id, token: current }, { ok: true, statusCode: 200, error: null }, SCHEDULE));
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: 'succeeded', attempts: 1, lease_token: null });
  });
});

describe('pruneDeliveries', () => {
  it('deletes finished deliveries past the retention and the events no delivery needs; keeps pending and held ones', async () => {
    await db.query('delete from webhook.webhook');
    await db.query('delete from webhook.webhook_event');
    const id = await webhook();
    const events = [earned(), earned(), earned(), earned()];
    for (const event of events) await db.em().transactional((em) => fanOutEvent(em, event, fanOut));
    const rows = await deliveriesOf(id);
    const statuses = ['succeeded', 'failed', 'pending', 'succeeded'];
    for (const [index, row] of rows.entries()) {
      const age = index === 3 ? '1 day' : '40 days';
      await db.query(`update webhook.webhook_delivery set status = ?, updated_at = now() - ?::interval where id = ?`, [statuses[index], age, row.id]);
    }
    await db.query(`update webhook.webhook_event set created_at = now() - interval '40 days'`);
    const pruned = await pruneDeliveries(db.em(), 30);
    expect(pruned).toEqual({ expired: 0, deliveries: 2, events: 2 });
    expect((await deliveriesOf(id)).map((row) => row.status).sort()).toEqual(['pending', 'succeeded']);
    expect(await db.query(`select count(*)::int as n from webhook.webhook_event`)).toEqual([{ n: 2 }]);
  });

  it('expires held deliveries waiting longer than the retention (failed), then prunes them', async () => {
    const id = await webhook('failed');
    await db.em().transactional((em) => fanOutEvent(em, earned(), fanOut));
    await db.em().transactional((em) => fanOutEvent(em, earned(), fanOut));
    const [old] = await deliveriesOf(id);
    await db.query(`update webhook.webhook_delivery set created_at = now() - interval '40 days' where id = ?`, [old.id]);
    expect(await pruneDeliveries(db.em(), 30)).toMatchObject({ expired: 1 });
    const rows = await db.query(`select id, status, last_error from webhook.webhook_delivery where webhook_id = ? order by created_at`, [id]);
    expect(rows).toEqual([
      { id: old.id, status: 'failed', last_error: 'expired: held longer than the retention' },
      expect.objectContaining({ status: 'held' }),
    ]);
  });
});

describe('claimDueDeliveries', () => {
  it('claims per webhook at most its free slots, oldest first, passing over leased and not-yet-due deliveries and inactive webhooks', async () => {
    await db.query('delete from webhook.webhook');
    const [busy, idle, failed] = [await webhook(), await webhook(), await webhook()];
    for (let index = 0; index < 5; index += 1) await db.em().transactional((em) => fanOutEvent(em, earned(), fanOut));
    await db.query(`update webhook.webhook set status = 'failed' where id = ?`, [failed]);
    const busyRows = await deliveriesOf(busy);
    await lease(busyRows[0].id);
    await db.query(`update webhook.webhook_delivery set next_attempt_at = now() + interval '1 hour' where id = ?`, [busyRows[4].id]);

    const claimed = await claimDueDeliveries(db.em(), { token: randomUUID(), seconds: 30 }, 2);
    const byWebhook = (id: string) => claimed.filter((row) => row.webhookId === id).map((row) => row.id);
    expect(byWebhook(busy)).toEqual([busyRows[1].id]);
    expect(byWebhook(idle)).toHaveLength(2);
    expect(byWebhook(failed)).toEqual([]);
    expect(claimed[0]).toMatchObject({ url: 'https://example.com/h', secret: 'a-secret-of-sixteen', body: expect.stringContaining('"type":"points.earned"'), token: expect.any(String) });
    // Nothing more is free until an attempt ends.
    expect(await claimDueDeliveries(db.em(), { token: randomUUID(), seconds: 30 }, 2)).toEqual([]);
  });
});
