import { randomInt, randomUUID } from 'node:crypto';
import { PublishedEvent } from '../core/events/outbox-event';
import { supergraphAs } from '../core/supergraph-client';
import { AUTH } from '../subgraphs/auth/contract';
import { CLUSTER } from '../subgraphs/cluster/contract';
import { pointModule } from '../subgraphs/point/module';
import { MemberFacts } from '../subgraphs/point/services/member-facts';
import { MEMBER_PROFILE_QUEUE } from '../subgraphs/point/services/member-profile';
import { POINT_SERVICE_PRINCIPAL } from '../subgraphs/point/services/point-members';
import { TestMember, unique } from './support/test-platform';
import { useModuleJobs } from './support/module-jobs';
import { usePlatform } from './support/use-platform';
import { sendAndWait, waitFor } from './support/wait-for';

// The member facts of the point domain's earning rules: tier and birth month from point's projection
// (`point.member_profile`, kept from the cluster's customer.tier_changed and auth's member.profile_changed),
// segments asked of the cluster through the supergraph as the point service.
const { platform, marketing } = usePlatform({ staff: ['marketing'] });
const point = useModuleJobs(pointModule);
/** As the point module builds it: the point service's own client of the platform's gateway. */
const facts = () => new MemberFacts(supergraphAs(POINT_SERVICE_PRINCIPAL, platform.config, platform.executors.gateway));

const graphql = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
  const response = await platform.graphql(query, variables, marketing.token);
  expect(response.body.errors).toBeUndefined();
  return response.body.data as T;
};
const createTier = async () =>
  (
    await graphql<{ createTier: { id: string } }>(`mutation ($input: CreateTierInput!) { createTier(input: $input) { id } }`, {
      input: { name_en: unique('Facts tier '), description_en: 'd', level: randomInt(1_000, 999_000), requirement: { purchaseAmountHit: 999_999_999 } },
    })
  ).createTier.id;
const assignTier = (memberId: string, tierId: string) => graphql(`mutation ($input: AssignTierInput!) { assignTier(input: $input) { id } }`, { input: { memberId, tierId } });
const setBirthDate = async (member: TestMember, birthDate: string | null) =>
  expect((await platform.api('PUT', '/auth/api/members/me', { token: member.token, body: { birthDate } })).status).toBe(200);

interface ProfileRow {
  tier_id: string | null;
  tier_at: Date | null;
  birth_month: number | null;
  profile_at: Date | null;
}
const rowOf = async (memberId: string): Promise<ProfileRow | undefined> =>
  (await platform.sql.query('select tier_id, tier_at, birth_month, profile_at from point.member_profile where member_id = $1', [memberId])).rows[0];

/** An event as a relay would publish it, without a stream position: applied once per id, in whatever order it comes. */
const eventOf = (type: string, data: Record<string, unknown>): PublishedEvent => ({ id: randomUUID(), type, occurredAt: new Date().toISOString(), data });
const tierChange = (memberId: string, toTierId: string | null, at: Date) =>
  eventOf(CLUSTER.events.tierChanged, { memberId, fromTierId: null, toTierId, changeType: 'manual', source: 'manual', tierEndAt: null, snapshot: {}, historyId: null, customer_id: memberId, changed_at: at.toISOString() });
const profileChange = (memberId: string, birthDate: string | null, at: Date) =>
  eventOf(AUTH.events.memberProfileChanged, { memberId, birthDate, status: 'ACTIVE', updatedAt: at.toISOString() });
const deliver = (event: PublishedEvent) => sendAndWait(point.boss(), MEMBER_PROFILE_QUEUE, event);

let member: TestMember;
let tierId: string;
beforeAll(async () => {
  member = await platform.loginMember();
  tierId = await createTier();
});

describe('point.member_profile, from the cluster and auth events', () => {
  it('holds the tier assigned in the cluster and the birth month set in auth; MemberFacts.profile reads it', async () => {
    expect(await facts().profile(point.em(), member.id)).toEqual({ tierId: null, birthMonth: null });
    await assignTier(member.id, tierId);
    await setBirthDate(member, '1990-05-17');
    const row = await waitFor(async () => {
      const found = await rowOf(member.id);
      return found?.tier_id === tierId && found.birth_month === 5 && found;
    }, "the member's tier and birth month in point.member_profile");
    expect(row).toEqual({ tier_id: tierId, tier_at: expect.any(Date), birth_month: 5, profile_at: expect.any(Date) });
    expect(await facts().profile(point.em(), member.id)).toEqual({ tierId, birthMonth: 5 });
    expect(await facts().profile(point.em(), randomUUID())).toEqual({ tierId: null, birthMonth: null });
  });

  it('never lets an older event overwrite a newer one, each part on its own time', async () => {
    const held = await waitFor(async () => {
      const found = await rowOf(member.id);
      return found?.tier_at && found.profile_at && found;
    }, 'the projected member');
    const before = (at: Date) => new Date(at.getTime() - 3_600_000);
    const after = (at: Date) => new Date(at.getTime() + 1);

    // Late arrivals (older than what the row holds) change nothing.
    await Promise.all([deliver(tierChange(member.id, randomUUID(), before(held.tier_at!))), deliver(profileChange(member.id, '1990-01-01', before(held.profile_at!)))]);
    expect(await rowOf(member.id)).toEqual(held);

    // Newer ones are applied: a move to no tier, a birth date cleared.
    const newerTier = after(held.tier_at!);
    const newerProfile = after(held.profile_at!);
    await Promise.all([deliver(tierChange(member.id, null, newerTier)), deliver(profileChange(member.id, null, newerProfile))]);
    expect(await rowOf(member.id)).toEqual({ tier_id: null, tier_at: newerTier, birth_month: null, profile_at: newerProfile });

    // The same old tier event again (a redelivery under another id) still does not move the tier back.
    await deliver(tierChange(member.id, tierId, held.tier_at!));
    expect(await facts().profile(point.em(), member.id)).toEqual({ tierId: null, birthMonth: null });
  });
});

describe('MemberFacts.segmentIds, asked of the cluster', () => {
  it('answers the manual segments the member was added to, and not the others', async () => {
    const createSegment = async () =>
      (await graphql<{ createSegment: { id: string } }>(`mutation ($input: CreateSegmentInput!) { createSegment(input: $input) { id } }`, { input: { name_en: unique('Facts '), type: 'manual' } }))
        .createSegment.id;
    const [joined, other] = [await createSegment(), await createSegment()];
    await graphql(`mutation ($id: ID!, $memberIds: [ID!]!) { addSegmentMembers(id: $id, memberIds: $memberIds) { changed } }`, { id: joined, memberIds: [member.id] });
    const ids = await facts().segmentIds(member.id);
    expect(ids).toContain(joined);
    expect(ids).not.toContain(other);
    expect(await facts().segmentIds(randomUUID())).toEqual([]);
  });
});
