import { SeedContext } from './context';
import { idsBy } from './ensure';
import { GraphqlClient } from './graphql-client';
import { DemoPerson } from './people';
import { MemberPlan, PlannedPurchase, PlannedRedemption } from './plan';
import { MEMBER_EMAIL_DOMAIN } from './program';

/** A demo member on the platform, with what it holds already. */
export interface SeededMember {
  person: DemoPerson;
  plan: MemberPlan;
  id: string;
  /** The external ids of its purchases. */
  purchases: Set<string>;
}

interface HeldCode {
  id: string;
  code: string;
  status: string;
  rewardCatalogId: string;
}

/** The demo's members already on the platform: their ids by e-mail address. */
export async function existingMembers(client: GraphqlClient): Promise<Map<string, string>> {
  const search = JSON.stringify(`@${MEMBER_EMAIL_DOMAIN}`);
  const members = await client.listAll<{ id: string; email: string | null }>('members', 'id email', `search: ${search}`);
  return idsBy(members, 'email');
}

async function createMember(client: GraphqlClient, person: DemoPerson): Promise<string> {
  const { name, email, phone, dateOfBirth, gender, address, language } = person;
  const { createCustomer } = await client.request<{ createCustomer: { member: { id: string } } }>(
    `mutation DemoMember($input: CreateCustomerInput!) { createCustomer(input: $input) { member { id } } }`,
    { input: { name, email, phone, dateOfBirth, gender, address, language } },
  );
  return createCustomer.member.id;
}

/** The purchases and reward codes a member holds (a demo member has fewer than a page of each). */
async function holdingsOf(client: GraphqlClient, memberId: string): Promise<{ purchases: Set<string>; codes: HeldCode[] }> {
  const { purchases, rewardCodes } = await client.request<{ purchases: { data: Array<{ externalId: string | null }> }; rewardCodes: { data: HeldCode[] } }>(
    `query DemoHoldings($id: ID!) {
      purchases(customerId: $id, limit: 100) { data { externalId } }
      rewardCodes(memberId: $id, limit: 100) { data { id code status rewardCatalogId } } }`,
    { id: memberId },
  );
  return { purchases: new Set(purchases.data.flatMap(({ externalId }) => externalId ?? [])), codes: rewardCodes.data };
}

/** Records a purchase unless the member holds it; its points are earned by the store's rule. */
export async function ensurePurchase({ client, tally }: SeedContext, member: SeededMember, purchase: PlannedPurchase): Promise<void> {
  if (member.purchases.has(purchase.externalId)) return tally.note('purchases', 'present');
  await client.request(`mutation DemoPurchase($key: String, $input: RecordPurchaseInput!) { recordPurchase(idempotencyKey: $key, input: $input) { id } }`, {
    key: purchase.externalId,
    // GraphQL's Float: the decimal text of the amount, which the point domain fixes to 2 decimals exactly.
    input: { customerId: member.id, ...purchase, amount: Number(purchase.amount) },
  });
  member.purchases.add(purchase.externalId);
  tally.note('purchases', 'created');
}

/** Redeems the reward's catalog entry for the member unless it holds a code of it; then uses the code at the till when planned. */
async function ensureRedemption({ client, staff, tally }: SeedContext, member: SeededMember, redemption: PlannedRedemption, catalogId: string, held: HeldCode[]): Promise<void> {
  let code = held.find((candidate) => candidate.rewardCatalogId === catalogId);
  if (code) tally.note('reward codes', 'present');
  else {
    const key = `demo-${member.person.key}-${redemption.reward.name_en.toLowerCase().replace(/\W+/g, '-')}`;
    code = (
      await client.request<{ redeemRewardCatalog: HeldCode }>(
        `mutation DemoRedeem($id: ID!, $memberId: ID!, $key: String!) { redeemRewardCatalog(id: $id, memberId: $memberId, idempotencyKey: $key) { id code status rewardCatalogId } }`,
        { id: catalogId, memberId: member.id, key },
      )
    ).redeemRewardCatalog;
    tally.note('reward codes', 'created');
  }
  if (!redemption.used) return;
  if (code.status !== 'AVAILABLE') return tally.note('codes used', 'present');
  // Only a staff member marks a code used: the admin, at the till.
  await staff.request(`mutation DemoUse($id: ID!, $code: String!) { useRewardCode(id: $id, code: $code) { id } }`, { id: code.id, code: code.code });
  tally.note('codes used', 'created');
}

/**
 * The member (found by e-mail or created in the entry tier), its months of purchases, then the rewards
 * it redeems with their points, each checked against what it holds first.
 */
export async function seedMember(context: SeedContext, person: DemoPerson, plan: MemberPlan, knownId: string | undefined, catalogs: Map<string, string>): Promise<SeededMember> {
  const id = knownId ?? (await createMember(context.client, person));
  context.tally.note('members', knownId ? 'present' : 'created');
  const holdings = knownId ? await holdingsOf(context.client, id) : { purchases: new Set<string>(), codes: [] };
  const member: SeededMember = { person, plan, id, purchases: holdings.purchases };
  for (const purchase of plan.purchases) await ensurePurchase(context, member, purchase);
  for (const redemption of plan.redemptions) await ensureRedemption(context, member, redemption, catalogs.get(redemption.reward.name_en)!, holdings.codes);
  return member;
}
