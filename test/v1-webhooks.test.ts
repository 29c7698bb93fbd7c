import Stripe from 'stripe';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { PLATFORM_START_TIMEOUT_MS, startTestPlatform, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';
import { webhookDeliveryAttempts, webhookDeliveryLag } from '../core/metrics';

/** This process's webhook attempts by outcome and the sum of the lags observed (the platform runs in it). */
async function attemptCounts(): Promise<{ succeeded: number; failed: number; lagSum: number }> {
  const attempts = (await webhookDeliveryAttempts.get()).values;
  const count = (outcome: string) => attempts.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  const lagSum = (await webhookDeliveryLag.get()).values.find((value) => value.metricName === 'webhook_delivery_lag_seconds_sum')?.value ?? 0;
  return { succeeded: count('succeeded'), failed: count('failed'), lagSum };
}

const BASE = '/api/v1/webhooks';
const V1_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

// A database of its own: every platform's delivery worker sends what is due in its database, and the
// other files' platforms neither allow loopback targets nor retry within seconds.
const { platform, admin, marketing, member } = usePlatform({
  staff: ['admin', 'marketing'],
  members: 1,
  env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1', WEBHOOK_TIMEOUT_MS: '2000' },
});

let receiver: FakeWebhookReceiver;
beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
});
afterAll(() => receiver.close());

const stripe = new Stripe('sk_test_not_used');
const api = (method: string, path: string, body?: unknown, token: string = admin.token) => platform.api(method, path, { token, body });
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();

/** A webhook on a fresh path of the receiver, subscribed to `events`. */
async function register(events: string[], extra: Record<string, unknown> = {}) {
  const path = `/${unique('hook')}`;
  const response = await api('POST', BASE, { url: `${receiver.url}${path}`, events, ...extra });
  if (response.status !== 201) throw new Error(`register: ${JSON.stringify(response.body)}`);
  return { path, webhook: response.body.data as { id: string; secret: string } };
}

/** A purchase of a fresh customer: announces transaction.completed (and points.earned); returns the transaction id. */
async function purchase(amount = 10): Promise<string> {
  const customer = await platform.loginMember();
  const response = await api('POST', '/api/v1/transactions', { customer_id: customer.id, amount });
  if (response.status !== 201) throw new Error(`purchase: ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

const deliveriesOf = async (webhookId: string, query = '') => (await api('GET', `${BASE}/${webhookId}/deliveries${query}`)).body;
const bodyOf = (delivery: { body: string }) => JSON.parse(delivery.body);
const webhookOf = async (id: string) => (await api('GET', `${BASE}/${id}`)).body.data;

/** Waits until the receiver's path has a request for the transaction, and returns them all. */
const waitForTransaction = (path: string, transactionId: string, count = 1) =>
  waitFor(
    async () => {
      const got = receiver.on(path).filter((delivery) => bodyOf(delivery).data.transaction?.id === transactionId);
      return got.length >= count && got;
    },
    `${count} deliveries of ${transactionId} on ${path}`,
  );

describe('webhook management', () => {
  it('registers a webhook (201): whk_ id, the secret in full once (generated when missing), active; reads show its last four characters', async () => {
    const created = await api('POST', BASE, { url: `${receiver.url}/m1`, events: ['transaction.completed', 'points.earned'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-f]{24}$/),
      url: `${receiver.url}/m1`,
      events: ['transaction.completed', 'points.earned'],
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      active: true,
      status: 'active',
      created_at: expect.stringMatching(V1_TIME),
      updated_at: expect.stringMatching(V1_TIME),
    });
    const { id, secret } = created.body.data;
    const read = await api('GET', `${BASE}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id, secret: `****${secret.slice(-4)}`, active: true });
    const list = await api('GET', `${BASE}?limit=100`);
    expect(list.body.pagination).toMatchObject({ page: 1, limit: 100 });
    expect(list.body.data.map((webhook: { id: string }) => webhook.id)).toContain(id);
    expect(list.body.data.find((webhook: { id: string }) => webhook.id === id).secret).toBe(`****${secret.slice(-4)}`);

    const given = await api('POST', BASE, { url: `${receiver.url}/m2`, events: ['*'], secret: 'a-secret-of-my-own-1234' });
    expect(given.body.data).toMatchObject({ events: ['*'], secret: 'a-secret-of-my-own-1234' });
  });

  it('names every bad field at once (400): url, unknown event names, secret; "*" stands alone; an empty list is refused', async () => {
    const bad = await api('POST', BASE, { url: 'not a url', events: ['points.earned', 'points.stolen', 'customer.created', 'nope'], secret: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(bad.body)).toEqual(['events[1]', 'events[3]', 'secret', 'url']);
    const missing = await api('POST', BASE, {});
    expect(detailFields(missing.body)).toEqual(['events', 'url']);
    expect(detailFields((await api('POST', BASE, { url: `${receiver.url}/x`, events: [] })).body)).toEqual(['events']);
    expect(detailFields((await api('POST', BASE, { url: `${receiver.url}/x`, events: ['*', 'points.earned'] })).body)).toEqual(['events']);
    expect(detailFields((await api('POST', BASE, { url: 'ftp://example.com/x', events: ['*'] })).body)).toEqual(['url']);
    // A JSON body's list is an array: one event name as a string is a type error too (issue 24).
    const mistyped = await api('POST', BASE, { url: 42, events: 'points.earned', secret: 7 });
    expect(mistyped.status).toBe(400);
    expect(detailFields(mistyped.body)).toEqual(['events', 'secret', 'url']);
    const { webhook } = await register(['points.earned']);
    const badPatch = await api('PATCH', `${BASE}/${webhook.id}`, { active: 'yes' });
    expect(badPatch.status).toBe(400);
    expect(detailFields(badPatch.body)).toEqual(['active']);
  });

  it('changes url and events (PATCH), deletes (204), and answers WEBHOOK_NOT_FOUND for unknown and malformed ids', async () => {
    const { webhook } = await register(['points.earned']);
    const patched = await api('PATCH', `${BASE}/${webhook.id}`, { url: `${receiver.url}/moved`, events: ['points.redeemed', 'reward.claimed'] });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ url: `${receiver.url}/moved`, events: ['points.redeemed', 'reward.claimed'], active: true });
    const badPatch = await api('PATCH', `${BASE}/${webhook.id}`, { events: ['points.nope'] });
    expect(badPatch.status).toBe(400);
    expect(detailFields(badPatch.body)).toEqual(['events[0]']);
    expect((await api('DELETE', `${BASE}/${webhook.id}`)).status).toBe(204);
    for (const id of [webhook.id, 'whk_000000000000000000000000', 'nonsense']) {
      const gone = await api('GET', `${BASE}/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('WEBHOOK_NOT_FOUND');
    }
    expect((await api('DELETE', `${BASE}/${webhook.id}`)).body.error.code).toBe('WEBHOOK_NOT_FOUND');
    expect((await api('GET', `${BASE}/${webhook.id}/deliveries`)).body.error.code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('needs the admin scope: marketing staff and customers are refused 403 insufficient_scope', async () => {
    for (const token of [marketing.token, member.token]) {
      for (const [method, path] of [['GET', BASE], ['POST', BASE]] as const) {
        const refused = await api(method, path, method === 'POST' ? { url: `${receiver.url}/x`, events: ['*'] } : undefined, token);
        expect(refused.status).toBe(403);
        expect(refused.body.error).toBe('insufficient_scope');
        expect(refused.headers.get('www-authenticate')).toContain('scope="admin"');
      }
    }
  });
});

describe('webhook delivery', () => {
  it('delivers a committed change within seconds, signed so that Stripe\'s and Standard Webhooks\' verifiers accept it', async () => {
    const secret = `whsecret-${unique()}`;
    const { path, webhook } = await register(['transaction.completed'], { secret });
    const transactionId = await purchase(12.5);
    const [delivery] = await waitForTransaction(path, transactionId);
    expect(delivery.headers['content-type']).toBe('application/json');

    const event = stripe.webhooks.constructEvent(delivery.body, delivery.headers['x-service-signature'] as string, secret);
    expect(event).toMatchObject({ type: 'transaction.completed' });
    expect(() => stripe.webhooks.constructEvent(delivery.body, delivery.headers['x-service-signature'] as string, `${secret}x`)).toThrow();

    const verified = new StandardWebhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(delivery.body, {
      'webhook-id': delivery.headers['webhook-id'] as string,
      'webhook-timestamp': delivery.headers['webhook-timestamp'] as string,
      'webhook-signature': delivery.headers['webhook-signature'] as string,
    });
    expect(verified).toEqual(JSON.parse(delivery.body));

    const body = bodyOf(delivery);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(body).toEqual({
      id: delivery.headers['webhook-id'],
      type: 'transaction.completed',
      created_at: expect.stringMatching(V1_TIME),
      data: {
        transaction: expect.objectContaining({ id: transactionId, amount: 12.5, status: 'completed', points_earned: 12, created_at: expect.stringMatching(V1_TIME) }),
      },
    });
    await waitFor(async () => (await deliveriesOf(webhook.id)).data[0]?.status === 'succeeded', 'the delivery recorded as succeeded');
    expect((await deliveriesOf(webhook.id)).data).toEqual([
      {
        id: expect.any(String),
        event_id: body.id,
        event_type: 'transaction.completed',
        status: 'succeeded',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        created_at: expect.stringMatching(V1_TIME),
        delivered_at: expect.stringMatching(V1_TIME),
      },
    ]);
  });

  it('sends each subscriber only its types; "*" receives every type, with points.earned in Part 3\'s shape', async () => {
    const everything = await register(['*']);
    const earnedOnly = await register(['points.earned']);
    const transactionId = await purchase(7);
    await waitForTransaction(everything.path, transactionId);
    const earned = await waitFor(async () => receiver.on(earnedOnly.path).map(bodyOf).find((body) => body.data.transaction_id), 'points.earned');
    expect(earned).toMatchObject({ type: 'points.earned', data: { customer_id: expect.any(String), points: 7, new_balance: 7 } });
    expect(Object.keys(earned.data).sort()).toEqual(['customer_id', 'new_balance', 'points', 'reason', 'transaction_id']);
    await waitFor(async () => receiver.on(everything.path).some((delivery) => bodyOf(delivery).type === 'points.earned'), 'points.earned on "*"');
    expect(receiver.on(earnedOnly.path).every((delivery) => bodyOf(delivery).type === 'points.earned')).toBe(true);
  });

  it("delivers the customer group: customer.created in Part 3's shape, customer.updated and customer.deleted", async () => {
    const { path } = await register(['customer.created', 'customer.updated', 'customer.deleted']);
    const email = `${unique('c')}@example.com`;
    const created = await api('POST', '/api/v1/customers', { name: 'Webhook Customer', email });
    expect(created.status).toBe(200);
    const customerId = created.body.data.id;
    expect((await api('PATCH', `/api/v1/customers/${customerId}`, { name: 'Renamed Customer' })).status).toBe(200);
    expect((await api('DELETE', `/api/v1/customers/${customerId}`)).status).toBe(204);
    const ofCustomer = () =>
      receiver.on(path).map(bodyOf).filter((body) => (body.data.customer?.id ?? body.data.customer_id) === customerId);
    const types = await waitFor(async () => ofCustomer().length >= 3 && ofCustomer().map((body) => body.type), 'the three customer events');
    // Deliveries of one webhook run side by side: receivers order by created_at, not by arrival.
    expect([...types].sort()).toEqual(['customer.created', 'customer.deleted', 'customer.updated']);
    const byType = (type: string) => ofCustomer().find((body) => body.type === type);
    const [createdEvent, updatedEvent, deletedEvent] = ['customer.created', 'customer.updated', 'customer.deleted'].map(byType);
    expect(createdEvent.data).toEqual({
      customer: { id: customerId, name: 'Webhook Customer', email, phone: null, tier: createdEvent.data.customer.tier, points_balance: 0, created_at: expect.stringMatching(V1_TIME) },
    });
    expect([null, 'string']).toContain(createdEvent.data.customer.tier === null ? null : typeof createdEvent.data.customer.tier);
    expect(updatedEvent.data).toMatchObject({ customer: { id: customerId, name: 'Renamed Customer' }, changed: ['name'] });
    expect(deletedEvent.data).toEqual({ customer_id: customerId, deleted_at: expect.any(String) });
  });

  it('never delivers a change that was rolled back: a refused refund announces nothing, the next one is delivered once', async () => {
    const { path } = await register(['transaction.refunded']);
    const transactionId = await purchase(10);
    const refused = await api('POST', `/api/v1/transactions/${transactionId}/refund`, { amount: 50 });
    expect(refused.status).toBe(409);
    const refunded = await api('POST', `/api/v1/transactions/${transactionId}/refund`, { amount: 4 });
    expect(refunded.status).toBe(200);
    const [delivery] = await waitForTransaction(path, transactionId);
    expect(bodyOf(delivery)).toMatchObject({ type: 'transaction.refunded', data: { transaction: { id: transactionId, refunded_amount: 4, status: 'partially_refunded' }, refund: { amount: 4, points_reversed: 4 } } });
    expect(receiver.on(path)).toHaveLength(1);
  });

  it('retries a failing receiver on the schedule with the same event id, until it answers 2xx, each attempt counted in /metrics', async () => {
    const attemptsBefore = await attemptCounts();
    const { path, webhook } = await register(['transaction.completed']);
    let calls = 0;
    receiver.behave(path, (_delivery, res) => void res.writeHead(++calls <= 2 ? 503 : 204).end());
    const transactionId = await purchase();
    const attempts = await waitForTransaction(path, transactionId, 3);
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((attempt) => bodyOf(attempt).id)).size).toBe(1);
    // The schedule is 1 second between attempts.
    expect(attempts[1].receivedAt - attempts[0].receivedAt).toBeGreaterThanOrEqual(900);
    await waitFor(async () => (await deliveriesOf(webhook.id)).data[0]?.status === 'succeeded', 'success after two failures');
    expect((await deliveriesOf(webhook.id)).data[0]).toMatchObject({ attempts: 3, last_status_code: 204, last_error: null });
    // Other webhooks of this file may take deliveries meanwhile: at least this one's three attempts, and its lag of two retries.
    const attemptsAfter = await attemptCounts();
    expect(attemptsAfter.failed - attemptsBefore.failed).toBeGreaterThanOrEqual(2);
    expect(attemptsAfter.succeeded - attemptsBefore.succeeded).toBeGreaterThanOrEqual(1);
    expect(attemptsAfter.lagSum - attemptsBefore.lagSum).toBeGreaterThanOrEqual(1.8);
  });

  it("after the last retry: the delivery failed, the webhook failed and inactive, later events held and sent on re-activation", async () => {
    const { path, webhook } = await register(['transaction.completed']);
    receiver.behave(path, 500);
    const first = await purchase();
    await waitFor(async () => (await webhookOf(webhook.id)).status === 'failed', 'the webhook to fail', 30_000);
    expect(receiver.on(path)).toHaveLength(6);
    expect(await webhookOf(webhook.id)).toMatchObject({ status: 'failed', active: false });
    const [failed] = (await deliveriesOf(webhook.id)).data;
    expect(failed).toMatchObject({ status: 'failed', attempts: 6, last_status_code: 500, last_error: expect.stringContaining('HTTP 500'), next_attempt_at: null });

    receiver.behave(path, 200);
    const later = await purchase();
    await waitFor(async () => (await deliveriesOf(webhook.id, '?status=held')).data.length === 1, 'a held delivery');
    expect(receiver.on(path).filter((delivery) => bodyOf(delivery).data.transaction.id === later)).toEqual([]);

    const reactivated = await api('PATCH', `${BASE}/${webhook.id}`, { active: true });
    expect(reactivated.body.data).toMatchObject({ status: 'active', active: true });
    await waitForTransaction(path, later);
    await waitFor(async () => (await deliveriesOf(webhook.id, '?status=succeeded')).data.length === 1, 'the held delivery sent');
    // The failed one stays failed until redelivered by hand.
    expect((await deliveriesOf(webhook.id, '?status=failed')).data.map((delivery: { id: string }) => delivery.id)).toEqual([failed.id]);
    expect(receiver.on(path).filter((delivery) => bodyOf(delivery).data.transaction.id === first)).toHaveLength(6);
  });

  it('a webhook switched off by its owner receives nothing and keeps nothing; switched on, it receives new events only', async () => {
    const { path, webhook } = await register(['transaction.completed']);
    const off = await api('PATCH', `${BASE}/${webhook.id}`, { active: false });
    expect(off.body.data).toMatchObject({ active: false, status: 'disabled' });
    const meanwhile = await purchase();
    const witness = await register(['transaction.completed']);
    const after = await purchase();
    await waitForTransaction(witness.path, after);
    await waitForTransaction(witness.path, meanwhile);
    expect(receiver.on(path)).toEqual([]);
    expect((await deliveriesOf(webhook.id)).data).toEqual([]);
    await api('PATCH', `${BASE}/${webhook.id}`, { active: true });
    const next = await purchase();
    await waitForTransaction(path, next);
    expect(receiver.on(path).map((delivery) => bodyOf(delivery).data.transaction.id)).toEqual([next]);
  });

  it('a receiver that hangs holds back only its own deliveries', async () => {
    const hanging = await register(['transaction.completed']);
    const healthy = await register(['transaction.completed']);
    receiver.behave(hanging.path, 'hang');
    const transactions = [];
    for (let index = 0; index < 6; index += 1) transactions.push(await purchase());
    for (const id of transactions) await waitForTransaction(healthy.path, id);
    // The healthy receiver got every event while the hanging one held at most the per-webhook concurrency (4) of requests open.
    expect(receiver.on(hanging.path).length).toBeGreaterThan(0);
    expect(receiver.maxOpen(hanging.path)).toBeLessThanOrEqual(4);
    await waitFor(async () => (await deliveriesOf(hanging.webhook.id)).data.some((delivery: { last_error: string | null }) => delivery.last_error?.startsWith('timeout')), 'a timeout recorded');
    receiver.behave(hanging.path, 200);
    await api('PATCH', `${BASE}/${hanging.webhook.id}`, { active: false });
  });

  it('redelivers a delivery (202) with the same event id; a pending one or an inactive webhook is 409, an unknown delivery 404', async () => {
    const { path, webhook } = await register(['transaction.completed']);
    const transactionId = await purchase();
    const [original] = await waitForTransaction(path, transactionId);
    await waitFor(async () => (await deliveriesOf(webhook.id)).data[0]?.status === 'succeeded', 'the first delivery');
    const [delivery] = (await deliveriesOf(webhook.id)).data;
    const again = await api('POST', `${BASE}/${webhook.id}/deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ id: delivery.id, event_id: delivery.event_id, status: 'pending' });
    const both = await waitForTransaction(path, transactionId, 2);
    expect(both[1].body).toBe(original.body);
    expect(both[1].headers['webhook-id']).toBe(original.headers['webhook-id']);
    await waitFor(async () => (await deliveriesOf(webhook.id)).data[0]?.status === 'succeeded', 'the redelivery');
    expect((await deliveriesOf(webhook.id)).data[0].attempts).toBe(2);

    receiver.behave(path, 'hang');
    await api('POST', `${BASE}/${webhook.id}/deliveries/${delivery.id}/redeliver`);
    const pending = await api('POST', `${BASE}/${webhook.id}/deliveries/${delivery.id}/redeliver`);
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe('INVALID_STATE');
    await api('PATCH', `${BASE}/${webhook.id}`, { active: false });
    const inactive = await api('POST', `${BASE}/${webhook.id}/deliveries/${delivery.id}/redeliver`);
    expect(inactive.status).toBe(409);
    const unknown = await api('POST', `${BASE}/${webhook.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('filters and pages the delivery log; a bad status is 400', async () => {
    const { path, webhook } = await register(['transaction.completed', 'points.earned']);
    const transactionId = await purchase();
    await waitForTransaction(path, transactionId);
    await waitFor(async () => (await deliveriesOf(webhook.id, '?status=succeeded')).pagination.total === 2, 'both deliveries');
    const page = await deliveriesOf(webhook.id, '?limit=1&page=2');
    expect(page.pagination).toEqual({ page: 2, limit: 1, total: 2 });
    expect(page.data).toHaveLength(1);
    const bad = await api('GET', `${BASE}/${webhook.id}/deliveries?status=lost`);
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['status']);
  });
});

describe('several delivering processes', () => {
  it('two processes on one database: every event delivered, at most 4 requests open to one webhook across both', async () => {
    const second = await startTestPlatform({
      DATABASE_URL: platform.config.databaseUrl!,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '2000',
    });
    try {
      const slow = await register(['transaction.completed']);
      receiver.behave(slow.path, (_delivery, res) => void setTimeout(() => res.writeHead(200).end(), 300));
      const transactions = [];
      for (let index = 0; index < 12; index += 1) transactions.push(await purchase());
      for (const id of transactions) await waitForTransaction(slow.path, id);
      expect(receiver.maxOpen(slow.path)).toBeLessThanOrEqual(4);
      await waitFor(async () => (await deliveriesOf(slow.webhook.id, '?status=succeeded&limit=100')).pagination.total === 12, 'all recorded');
    } finally {
      await second.close();
    }
  }, PLATFORM_START_TIMEOUT_MS);
});

describe('webhooks in GraphQL (admin UI)', () => {
  it('lists webhooks and their deliveries for staff holding webhook:manage, and refuses others', async () => {
    const { path, webhook } = await register(['transaction.completed']);
    const transactionId = await purchase();
    await waitForTransaction(path, transactionId);
    const query = `query($id: ID!) { webhook(id: $id) { id url active status secret } webhookDeliveries(webhookId: $id) { meta { total } data { eventType status attempts payload } } }`;
    await waitFor(async () => (await platform.graphql(query, { id: webhook.id }, admin.token)).body.data?.webhookDeliveries.data[0]?.status === 'succeeded', 'the delivery in GraphQL');
    const answer = await platform.graphql(query, { id: webhook.id }, admin.token);
    expect(answer.body.data.webhook).toMatchObject({ id: webhook.id, active: true, status: 'active', secret: `****${webhook.secret.slice(-4)}` });
    const [received] = receiver.on(path);
    expect(answer.body.data.webhookDeliveries).toEqual({ meta: { total: 1 }, data: [{ eventType: 'transaction.completed', status: 'succeeded', attempts: 1, payload: received.body }] });
    const refused = await platform.graphql(query, { id: webhook.id }, marketing.token);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
