import { SeedContext } from './context';
import { ensureNamed, idsBy } from './ensure';
import { GraphqlClient } from './graphql-client';
import { SeededMember } from './members';
import { SEGMENTS } from './program';

/** addSegmentMembers takes at most this many ids a call. */
const MEMBERS_PER_CALL = 100;
/** segmentMemberIds answers at most this many ids a call. */
const IDS_PER_PAGE = 5000;

async function segmentMemberIds(client: GraphqlClient, segmentId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let after: string | undefined; ; ) {
    const { segmentMemberIds: page } = await client.request<{ segmentMemberIds: string[] }>(
      `query DemoSegmentMembers($id: ID!, $after: ID, $limit: Int!) { segmentMemberIds(id: $id, after: $after, limit: $limit) }`,
      { id: segmentId, after, limit: IDS_PER_PAGE },
    );
    for (const id of page) ids.add(id);
    if (page.length < IDS_PER_PAGE) return ids;
    after = page[page.length - 1];
  }
}

/** Adds the members who asked for the newsletter to the manual segment, those it lacks only. */
async function fillNewsletter({ client, tally }: SeedContext, segmentId: string, members: SeededMember[]): Promise<void> {
  const inside = await segmentMemberIds(client, segmentId);
  const subscribers = members.filter((member) => member.plan.newsletter).map((member) => member.id);
  const missing = subscribers.filter((id) => !inside.has(id));
  tally.note('newsletter subscribers', 'present', subscribers.length - missing.length);
  for (let start = 0; start < missing.length; start += MEMBERS_PER_CALL) {
    const memberIds = missing.slice(start, start + MEMBERS_PER_CALL);
    await client.request(`mutation DemoSubscribe($id: ID!, $memberIds: [ID!]!) { addSegmentMembers(id: $id, memberIds: $memberIds) { changed } }`, { id: segmentId, memberIds });
    tally.note('newsletter subscribers', 'created', memberIds.length);
  }
}

/**
 * A segment by rule (the two highest tiers: members enter it as they move up) and a manual one, the
 * newsletter's, with its subscribers; answers the newsletter segment's id.
 */
export async function seedSegments(context: SeedContext, tiers: Map<string, string>, members: SeededMember[]): Promise<string> {
  const { client, tally } = context;
  const existing = idsBy(await client.listAll<{ id: string; name_en: string | null }>('segments', 'id name_en'), 'name_en');
  const inputs = [
    { name_en: SEGMENTS.gold.name_en, description_en: SEGMENTS.gold.description_en, type: 'rule', rule: { tierIds: SEGMENTS.gold.tiers.map((name) => tiers.get(name)) } },
    { name_en: SEGMENTS.newsletter.name_en, description_en: SEGMENTS.newsletter.description_en, type: 'manual' },
  ];
  const ids = await ensureNamed(tally, 'segments', inputs, (input) => input.name_en, existing, (input) => client.create('createSegment', 'CreateSegmentInput', input));
  const newsletter = ids.get(SEGMENTS.newsletter.name_en)!;
  await fillNewsletter(context, newsletter, members);
  return newsletter;
}
