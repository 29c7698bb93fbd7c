import { DAY_MS } from '../seed/days';
import { exampleQuery } from '../seed/example-query';
import { demoPerson } from '../seed/people';
import { memberPlan } from '../seed/plan';
import { BADGES, CAMPAIGN, MEMBER_EMAIL_DOMAIN, REWARDS, TIERS, VENUES } from '../seed/program';
import { DemoOptions, seedDemo } from '../seed/seed-demo';
import { Tally } from '../seed/tally';
import { FakeWebhookReceiver, startFakeWebhookReceiver } from './support/fake-webhook-receiver';
import { usePlatform } from './support/use-platform';

const MEMBERS = 20;
const SEED_TIMEOUT_MS = 120_000;

// Loopback webhook targets for the test's receiver; points expire a year after they are earned.
const { platform, admin } = usePlatform({ staff: ['admin'], env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', POINT_EXPIRY: 'days:365' } });
let receiver: FakeWebhookReceiver;
beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
});
afterAll(() => receiver.close());

const options = (): DemoOptions => ({
  graphqlUrl: platform.gatewayUrl,
  adminEmail: admin.email,
  adminPassword: admin.password,
  members: MEMBERS,
  webhookUrl: `${receiver.url}/demo-webhook`,
  concurrency: 8,
  log: () => undefined,
});

/** The data of a GraphQL query as the admin; its errors fail the test. */
async function read<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await platform.graphql(query, variables, admin.token);
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

/** A v1 REST read as the admin; anything but 200 fails the test. */
async function v1<T = any>(path: string): Promise<T> {
  const response = await platform.api('GET', path, { token: admin.token });
  expect([path, response.status]).toEqual([path, 200]);
  return response.body;
}

/** The members whose plan is to shop once after joining the campaign (the plan does not depend on the day). */
const plannedBuyers = () => Array.from({ length: MEMBERS }, (_, index) => demoPerson(index + 1)).filter((person) => memberPlan(person, new Date()).campaignPurchase).length;

/** What the demo holds, counted through the API: equal before and after a second run. */
function holdings() {
  return read(`query DemoHoldings($search: String!) {
    members(search: $search, limit: 100, sortBy: createdAt, sortOrder: asc) { meta { total } data { id pointBalance } }
    purchases(limit: 1) { meta { total } }
    pointHistory(limit: 1) { meta { total } }
    rewardCodes(limit: 1) { meta { total } }
    used: rewardCodes(limit: 1, status: USED) { meta { total } }
    bookings(limit: 1) { meta { total } }
    webhooks(limit: 1) { meta { total } }
    v1Notifications(limit: 1) { meta { total } }
    v1NotificationTemplates(limit: 1) { meta { total } }
    tiers(limit: 1) { meta { total } }
    badges(limit: 1) { meta { total } }
    rewardCatalogs(limit: 1) { meta { total } }
    segments(limit: 1) { meta { total } }
    venues(limit: 1) { meta { total } }
    campaigns(limit: 10) { data { id name status participantCount } }
  }`, { search: `@${MEMBER_EMAIL_DOMAIN}` });
}

/** A member's v1 balance, and the sum of the points of its v1 history (signed: redemptions negative). */
async function ledgerOf(memberId: string): Promise<{ balance: number; historySum: number; entries: number; expiresAt: string | null }> {
  const balance = (await v1(`/api/v1/customers/${memberId}/points/balance`)).data;
  const history = await v1(`/api/v1/customers/${memberId}/points/history?limit=100`);
  expect(history.pagination.total).toBe(history.data.length);
  return {
    balance: balance.balance,
    historySum: history.data.reduce((sum: number, entry: { points: number }) => sum + entry.points, 0),
    entries: history.data.length,
    expiresAt: balance.pending_expiration?.expires_at ?? null,
  };
}

describe('npm run seed:demo', () => {
  let first: Tally;
  let before: Awaited<ReturnType<typeof holdings>>;
  beforeAll(async () => {
    first = await seedDemo(options());
    before = await holdings();
  }, SEED_TIMEOUT_MS);

  it('creates the members, each in a tier, with months of purchases and points that expire', async () => {
    expect(first.of('members')).toEqual({ created: MEMBERS, present: 0, refused: 0 });
    expect(before.members.meta.total).toBe(MEMBERS);
    const memberId = before.members.data[0].id;
    const { purchases } = await read(`query ($id: ID!) { purchases(customerId: $id, limit: 100) { data { occurredAt amount pointsEarned } } }`, { id: memberId });
    expect(purchases.data.length).toBeGreaterThan(0);
    const oldest = Math.min(...purchases.data.map((purchase: { occurredAt: string }) => Date.parse(purchase.occurredAt)));
    expect(Date.now() - oldest).toBeGreaterThan(DAY_MS);
    expect(purchases.data.every((purchase: { pointsEarned: number }) => purchase.pointsEarned > 0)).toBe(true);
    const all = await read(`query { purchases(limit: 100) { meta { total } data { occurredAt } } }`);
    expect(all.purchases.meta.total).toBe(first.of('purchases').created);
    const spanDays = (Math.max(...all.purchases.data.map((purchase: { occurredAt: string }) => Date.parse(purchase.occurredAt))) - Math.min(...all.purchases.data.map((purchase: { occurredAt: string }) => Date.parse(purchase.occurredAt)))) / DAY_MS;
    expect(spanDays).toBeGreaterThan(60);
    const ledger = await ledgerOf(memberId);
    expect(ledger.expiresAt).not.toBeNull();
    expect(Date.parse(ledger.expiresAt!) - Date.now()).toBeGreaterThan(300 * DAY_MS);
  });

  it("gives each member a balance equal to the sum of its ledger history", async () => {
    for (const { id, pointBalance } of before.members.data) {
      const ledger = await ledgerOf(id);
      expect([id, ledger.balance]).toEqual([id, ledger.historySum]);
      expect([id, ledger.balance]).toEqual([id, pointBalance]);
      expect(ledger.entries).toBeGreaterThan(0);
    }
    expect(before.pointHistory.meta.total).toBeGreaterThan(before.purchases.meta.total);
  });

  it('sets up tiers with benefits, rewards in the catalog, badges, segments and reward codes', async () => {
    const { tiers } = await read(`query { tiers(limit: 10) { data { name_en level requirement { purchaseAmountHit } benefit { name_en } } } }`);
    expect(tiers.data.map((tier: { name_en: string }) => tier.name_en)).toEqual(TIERS.map((tier) => tier.name_en));
    expect(tiers.data.every((tier: { benefit: unknown[] }) => tier.benefit.length >= 2)).toBe(true);
    const { rewardCatalogs } = await read(`query { rewardCatalogs(limit: 10, sortBy: createdAt, sortOrder: asc) { data { name_en redeemRule { pointUsage } reward { name_en } } } }`);
    expect(rewardCatalogs.data.map((catalog: { reward: { name_en: string } }) => catalog.reward.name_en)).toEqual(REWARDS.map((reward) => reward.name_en));
    expect(before.badges.meta.total).toBe(BADGES.length);
    expect(before.rewardCodes.meta.total).toBe(first.of('reward codes').created);
    expect(before.rewardCodes.meta.total).toBeGreaterThan(0);
    expect(before.used.meta.total).toBe(first.of('codes used').created);
    const { segments } = await read(`query { segments(limit: 10) { data { name_en type memberCount } } }`);
    const manual = segments.data.find((segment: { type: string }) => segment.type === 'manual');
    expect(segments.data.map((segment: { type: string }) => segment.type).sort()).toEqual(['manual', 'rule']);
    expect(manual.memberCount).toBe(first.of('newsletter subscribers').created);
  });

  it('runs the campaign, with participants who completed it and got its points', async () => {
    const campaign = before.campaigns.data.find((candidate: { name: string }) => candidate.name === CAMPAIGN.name);
    expect(campaign).toMatchObject({ status: 'active', participantCount: first.of('campaign participants').created });
    const { campaignParticipants } = await read(`query ($id: ID!) { campaignParticipants(campaignId: $id, status: "completed", limit: 1) { meta { total } } }`, { id: campaign.id });
    expect(campaignParticipants.meta.total).toBe(plannedBuyers());
    expect(campaignParticipants.meta.total).toBeGreaterThan(0);
    // The campaign's points, awarded by the platform (as awards are) on each completion.
    const { pointHistory } = await read(`query { pointHistory(limit: 1, sourceBy: Manual) { meta { total } } }`);
    expect(pointHistory.meta.total).toBe(campaignParticipants.meta.total);
  });

  it('books members at the two venues, sends notifications and registers the webhook', async () => {
    expect(before.venues.meta.total).toBe(VENUES.length);
    expect(before.bookings.meta.total).toBe(first.of('bookings').created);
    expect(before.bookings.meta.total).toBeGreaterThan(0);
    const { v1Notifications } = await read(`query { v1Notifications(limit: 10) { data { title totalRecipients } } }`);
    expect(v1Notifications.data).toHaveLength(2);
    expect(before.v1NotificationTemplates.meta.total).toBe(1);
    const { webhooks } = await read(`query { webhooks(limit: 10) { data { url events active } } }`);
    expect(webhooks.data).toEqual([{ url: `${receiver.url}/demo-webhook`, events: ['*'], active: true }]);
  });

  it('answers the example query with the demo members, their tier and points', async () => {
    const { members } = await read(exampleQuery);
    expect(members.meta.total).toBe(MEMBERS);
    expect(members.data).toHaveLength(10);
    expect(members.data.every((member: { tier: { name_en: string } | null }) => TIERS.some((tier) => tier.name_en === member.tier?.name_en))).toBe(true);
    expect(members.data.some((member: { pointBalance: number }) => member.pointBalance > 0)).toBe(true);
  });

  it('adds nothing on a second run', async () => {
    const second = await seedDemo(options());
    expect(second.entries().filter(([, counts]) => counts.created > 0 || counts.refused > 0)).toEqual([]);
    expect(second.entries().map(([kind, counts]) => [kind, counts.present])).toEqual(first.entries().map(([kind, counts]) => [kind, counts.created + counts.present]));
    expect(await holdings()).toEqual(before);
  }, SEED_TIMEOUT_MS);
});
