import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { PublicEventLookup } from '../../core/rest/surface';
import { platformSurface } from '../../subgraphs/registry';
import { signatureHeaders } from '../../subgraphs/webhook/services/signatures';
import { isPublicAddress } from '../../subgraphs/webhook/services/target-address';
import { DEFAULT_RETRY_SCHEDULE, parseSchedule, parseWebhookSettings } from '../../subgraphs/webhook/settings';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2001:4860:4860::8888'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    'not-an-address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // IPv6 forms that embed an IPv4 address: the connection may reach that address.
  it.each([
    '::7f00:1', // IPv4-compatible 127.0.0.1
    '::127.0.0.1',
    '::808:808', // IPv4-compatible, even of a public address: deprecated, never a target
    '0:0:0:0:0:0:a00:1',
    '::ffff:0:7f00:1', // IPv4-translated (SIIT)
    '::ffff:0:808:808',
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '64:ff9b::c0a8:101',
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:808:808::1', // 6to4, whatever it embeds
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2001::1',
    '::FFFF:127.0.0.1',
    'fe80::1%eth0',
  ])('%s embeds or reaches a non-public address: not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::808:808', '2001:4860:4860::8844', '2a00:1450:4001:80b::200e'])(
    '%s carries or is a public address: public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('signatureHeaders', () => {
  const body = JSON.stringify({ id: 'evt-1', type: 'points.earned', created_at: '2026-11-23T06:36:33Z', data: { points: 5 } });
  const now = Math.floor(Date.now() / 1000);

  it('signs as Part 3 says: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, accepted by Stripe\'s verifier', () => {
    const secret = 'sécret-ünïcode-0123456789';
    const headers = signatureHeaders(secret, 'evt-1', body, now);
    expect(headers['x-service-signature']).toBe(`t=${now},v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${now}.${body}`).digest('hex')}`);
    expect(new Stripe('sk_test_not_used').webhooks.constructEvent(body, headers['x-service-signature'], secret)).toMatchObject({ id: 'evt-1' });
  });

  it('adds the Standard Webhooks headers, the key being the secret\'s UTF-8 bytes', () => {
    const secret = 'sécret-ünïcode-0123456789';
    const headers = signatureHeaders(secret, 'evt-1', body, now);
    expect(headers).toMatchObject({ 'webhook-id': 'evt-1', 'webhook-timestamp': String(now), 'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/) });
    expect(new StandardWebhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new StandardWebhook(Buffer.from('another-secret-0123', 'utf8'), { format: 'raw' }).verify(body, headers)).toThrow();
  });

  it('is refused by the verifiers past their 300-second tolerance', () => {
    const secret = 'a-plain-ascii-secret-123';
    const stale = signatureHeaders(secret, 'evt-1', body, now - 301);
    expect(() => new Stripe('sk_test_not_used').webhooks.constructEvent(body, stale['x-service-signature'], secret)).toThrow(/tolerance/i);
    expect(() => new StandardWebhook(secret, { format: 'raw' }).verify(body, stale)).toThrow();
  });
});

describe('webhook settings', () => {
  it('defaults to Part 3: five retries 1 min, 5 min, 30 min, 2 h, 24 h; 5 s timeout; no private targets', () => {
    const problems: string[] = [];
    expect(parseWebhookSettings({}, problems)).toEqual({
      retrySchedule: [60, 300, 1800, 7200, 86400],
      timeoutMs: 5000,
      allowPrivateTargets: false,
      retentionDays: 30,
      concurrencyPerWebhook: 4,
    });
    expect(problems).toEqual([]);
    expect(DEFAULT_RETRY_SCHEDULE).toHaveLength(5);
  });

  it('reads a schedule of whole seconds and names a bad one', () => {
    const problems: string[] = [];
    expect(parseSchedule('1, 2,3', problems)).toEqual([1, 2, 3]);
    expect(parseSchedule('', problems)).toEqual(DEFAULT_RETRY_SCHEDULE);
    expect(problems).toEqual([]);
    parseSchedule('1,x', problems);
    parseSchedule('0', problems);
    parseWebhookSettings({ WEBHOOK_TIMEOUT_MS: 'soon', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, problems);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/WEBHOOK_RETRY_SCHEDULE[\s\S]*WEBHOOK_TIMEOUT_MS[\s\S]*WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });
});

/** The public events of every domain's surface, by internal type. */
const PUBLIC_EVENTS = Object.fromEntries(platformSurface().publicEvents.map((event) => [event.internal, event]));
/** Part 3's event types and the platform's own beyond it (issue 29: held points activated, referrals), the names a webhook may subscribe to. */
const WEBHOOK_EVENT_TYPES = [
  'points.activated',
  'referral.created',
  'referral.completed',
  'customer.created',
  'customer.updated',
  'customer.tier_changed',
  'customer.deleted',
  'points.earned',
  'points.redeemed',
  'points.expired',
  'reward.claimed',
  'reward.redeemed',
  'campaign.created',
  'campaign.started',
  'campaign.ended',
  'campaign.participant.joined',
  'campaign.participant.completed',
  'transaction.completed',
  'transaction.refunded',
  'notification.sent',
  'notification.delivered',
  'notification.failed',
];
const noLookup: PublicEventLookup = () => Promise.reject(new Error('no lookup expected'));
const dataOf = (internal: string, payload: unknown) => PUBLIC_EVENTS[internal].data(payload, noLookup);

describe('the event table', () => {
  it("maps only to Part 3's types and the platform's own, and gives points.earned exactly Part 3's fields in whole points", async () => {
    for (const mapping of Object.values(PUBLIC_EVENTS)) expect(WEBHOOK_EVENT_TYPES).toContain(mapping.type);
    const data = await dataOf('points.earned', {
      transactionId: 't1',
      memberId: 'm1',
      actionType: 'EARN',
      amount: '12.50',
      purchaseAmount: '0',
      shopId: null,
      categoryId: null,
      sourceBy: null,
      balanceAfter: '112.50',
      createdAt: '2026-11-23T06:36:33.120Z',
      note: 'Birthday',
      referenceId: 'order-9',
    });
    expect(data).toEqual({ customer_id: 'm1', points: 12, reason: 'Birthday', transaction_id: 'order-9', new_balance: 112 });
  });

  it('gives the other producers\' events their documented data', async () => {
    expect(
      await dataOf('reward.claimed', {
        memberId: 'm1',
        rewardId: 'r1',
        rewardCatalogId: 'c1',
        rewardCodeId: 'code1',
        pointUsage: '150.00',
        expiredAt: '2026-12-31T00:00:00.000Z',
        claimedAt: '2026-11-23T06:36:33.500Z',
      }),
    ).toEqual({ customer_id: 'm1', reward_id: 'c1', claim_id: 'code1', points_spent: 150, expires_at: '2026-12-31T00:00:00Z', claimed_at: '2026-11-23T06:36:33Z' });
    expect(
      await dataOf('transaction.refunded', {
        transactionId: 't1',
        refundId: 'f1',
        customerId: 'm1',
        amount: '4.00',
        refundedAmount: '6.50',
        status: 'partially_refunded',
        pointsReversed: '4.00',
        pointsUnrecovered: '0.00',
        refundedAt: '2026-11-23T06:36:33.000Z',
      }),
    ).toEqual({
      transaction: { id: 't1', customer_id: 'm1', refunded_amount: 6.5, status: 'partially_refunded' },
      refund: { id: 'f1', amount: 4, points_reversed: 4, points_unrecovered: 0, refunded_at: '2026-11-23T06:36:33Z' },
    });
    expect(
      await dataOf('customer.tier_changed', { memberId: 'm1', fromTierId: 'a', toTierId: 'b', changeType: 'upgrade', source: 'automatic', tierEndAt: null, snapshot: {}, historyId: 'h' }),
    ).toEqual({ customer_id: 'm1', from_tier_id: 'a', to_tier_id: 'b', change_type: 'upgrade', source: 'automatic', tier_end_at: null });
    const created = { customer: { id: 'm1', name: 'A', email: null, phone: null, tier: 'Silver', points_balance: 0, created_at: '2026-11-23T06:36:33Z' } };
    const silverEntryTier: PublicEventLookup = async <T,>() => ({ entryTier: { name_en: 'Silver', name_th: null, name_cn: null } }) as T;
    const payload = { memberId: 'm1', name: 'A', email: null, phone: null, createdAt: '2026-11-23T06:36:33.120Z', startsInEntryTier: true };
    expect(await PUBLIC_EVENTS['customer.created'].data(payload, silverEntryTier)).toEqual(created);
    // Written in Part 3's shape before the event carried auth's vocabulary: delivered as it was.
    expect(await dataOf('customer.created', created)).toEqual(created);
    const referral = { referralId: 'r1', referrerId: 'm1', referredId: 'm2', code: 'ABCD2345', purchaseId: null, createdAt: '2026-11-23T06:36:33.120Z', completedAt: null };
    expect(await dataOf('referral.created', referral)).toEqual({
      referral: { id: 'r1', code: 'ABCD2345', referrer_id: 'm1', customer_id: 'm2', status: 'pending', purchase_id: null, created_at: '2026-11-23T06:36:33Z', completed_at: null },
    });
    expect((await dataOf('referral.completed', { ...referral, purchaseId: 'p1', completedAt: '2026-11-24T08:00:00.900Z' })).referral).toMatchObject({
      status: 'completed',
      purchase_id: 'p1',
      completed_at: '2026-11-24T08:00:00Z',
    });
  });
});
