import { SeedContext } from './context';
import { DAY_MS } from './days';
import { ensureNamed, idsBy } from './ensure';
import { GraphqlClient } from './graphql-client';
import { ensurePurchase, SeededMember } from './members';
import { CAMPAIGN } from './program';

/** How long the seeder waits for the platform to complete the participations its purchases earned. */
const COMPLETION_TIMEOUT_MS = 120_000;
const POLL_MS = 250;

/** The campaign, found by name or created, then activated while it is a draft. */
async function ensureCampaign({ client, tally }: SeedContext): Promise<string> {
  const campaigns = await client.listAll<{ id: string; name: string; status: string }>('campaigns', 'id name status');
  const now = Date.now();
  const ids = await ensureNamed(tally, 'campaigns', [CAMPAIGN], (campaign) => campaign.name, idsBy(campaigns, 'name'), (campaign) =>
    client.create('createCampaign', 'CreateCampaignInput', {
      name: campaign.name,
      description: campaign.description,
      type: campaign.type,
      startDate: new Date(now - campaign.startedDaysAgo * DAY_MS).toISOString(),
      endDate: new Date(now + campaign.endsInDays * DAY_MS).toISOString(),
      reward: campaign.reward,
      rules: campaign.rules,
      content: campaign.content,
    }),
  );
  const id = ids.get(CAMPAIGN.name)!;
  if ((campaigns.find((campaign) => campaign.id === id)?.status ?? 'draft') === 'draft') {
    await client.request(`mutation DemoActivate($id: ID!) { activateCampaign(id: $id) { id } }`, { id });
  }
  return id;
}

async function completedCount(client: GraphqlClient, campaignId: string): Promise<number> {
  const { campaignParticipants } = await client.request<{ campaignParticipants: { meta: { total: number } } }>(
    `query DemoCompleted($id: ID!) { campaignParticipants(campaignId: $id, status: "completed", limit: 1) { meta { total } } }`,
    { id: campaignId },
  );
  return campaignParticipants.meta.total;
}

/**
 * Waits until the platform has completed (and rewarded) the participations the campaign purchases earned:
 * the campaign domain applies purchases from their events, a moment after they were recorded.
 */
async function awaitCompletions({ client, log }: SeedContext, campaignId: string, expected: number): Promise<void> {
  const deadline = Date.now() + COMPLETION_TIMEOUT_MS;
  let completed = await completedCount(client, campaignId);
  while (completed < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    completed = await completedCount(client, campaignId);
  }
  log(`campaign: ${completed} of ${expected} expected participations completed${completed < expected ? ' so far (the platform completes the rest shortly)' : ''}`);
}

/**
 * The running campaign: members who take part join it, and some of them then shop once, which
 * completes their participation and earns them its bonus points (awarded by the platform).
 */
export async function seedCampaign(context: SeedContext, members: SeededMember[]): Promise<void> {
  const { client, tally } = context;
  const campaignId = await ensureCampaign(context);
  const joined = new Set((await client.listAll<{ customerId: string }>('campaignParticipants', 'customerId', `campaignId: ${JSON.stringify(campaignId)}`)).map((participant) => participant.customerId));
  const participants = members.filter((member) => member.plan.joinsCampaign);
  for (const member of participants) {
    if (joined.has(member.id)) {
      tally.note('campaign participants', 'present');
      continue;
    }
    await client.request(`mutation DemoJoin($campaignId: ID!, $customerId: ID!) { joinCampaign(campaignId: $campaignId, customerId: $customerId) { id } }`, { campaignId, customerId: member.id });
    tally.note('campaign participants', 'created');
  }
  const buyers = participants.filter((member) => member.plan.campaignPurchase);
  for (const member of buyers) await ensurePurchase(context, member, member.plan.campaignPurchase!);
  await awaitCompletions(context, campaignId, buyers.length);
}
