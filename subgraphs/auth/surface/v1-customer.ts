/**
 * A member as the v1 surface shows a customer (contract section 5): the auth member with its point balance,
 * tier, and what `include` asks for. Every route that answers a customer is auth's (the cluster's tier change
 * included), so the shape is written once here.
 */

/** The auth fields of a v1 customer. */
const MEMBER_FIELDS = `id openId unionId nickName avatarUrl name phoneNumber email language gender birthDate status createdAt updatedAt
  address { address district province postCode }`;
const TIER_FIELDS = 'tier { id name_en name_th name_cn level }';

/** A member's fields as a v1 customer needs them (a `MemberRecord`): the auth fields, its point balance (point) and tier (cluster). */
export const CUSTOMER_FIELDS = `${MEMBER_FIELDS} pointBalance ${TIER_FIELDS}`;

/**
 * The same for a read that may ask the point service for the customer's lifetime sums (`$includePoints`):
 * then its balance comes with them at the root (`balance`, see `withBalance`), so that the point service is
 * asked once, and `Member.pointBalance` only without them.
 */
export const CUSTOMER_FIELDS_BESIDE_POINTS = `${MEMBER_FIELDS} pointBalance @skip(if: $includePoints) ${TIER_FIELDS}`;

/** The member with the balance read beside it at the root (CUSTOMER_FIELDS_BESIDE_POINTS), when it was. */
export const withBalance = (member: MemberRecord, balance: { pointAmount: number } | null | undefined): MemberRecord =>
  balance ? { ...member, pointBalance: balance.pointAmount } : member;

/** What a v1 customer is made of: the auth member with its point balance and tier. */
export interface MemberRecord {
  id: string;
  openId: string | null;
  unionId: string | null;
  nickName: string | null;
  avatarUrl: string | null;
  name: string | null;
  phoneNumber: string | null;
  email?: string | null;
  language?: string | null;
  gender: string | null;
  birthDate: string | null;
  status: string;
  address: { address?: string | null; district?: string | null; province?: string | null; postCode?: string | null } | null;
  pointBalance?: number | null;
  tier?: { id: string; name_en: string | null; name_th: string | null; name_cn: string | null; level: number } | null;
  createdAt: string;
  updatedAt: string;
  /** The reward service's codes of the member (`include=rewards`). */
  rewardCodes?: { data: RewardCodeRecord[] } | null;
  /** The campaign service's participations of the member (`include=campaigns`). */
  campaignParticipations?: ParticipationRecord[] | null;
}

/** A participation as `include=campaigns` reads it. */
export interface ParticipationRecord {
  id: string;
  status: string;
  joinedAt: string;
  progress: { current: number; target: number; percentage: number };
  campaign: { id: string; name: string; type: string; status: string };
}

/** A reward code (a claim) as `include=rewards` reads it. */
export interface RewardCodeRecord {
  id: string;
  status: string;
  reward: { id: string; name_en: string | null; name_th: string | null; name_cn: string | null } | null;
}

/** What `include` may ask for of a customer. */
export const CUSTOMER_INCLUDES = ['points', 'tier', 'rewards', 'campaigns'] as const;
export type CustomerInclude = (typeof CUSTOMER_INCLUDES)[number];

/** The point service's lifetime sums of a customer (`include=points`). */
export interface PointTotals {
  earned?: { pointAmount: number } | null;
  redeemed?: { pointAmount: number } | null;
}
const wholePoints = (sum: { pointAmount: number } | null | undefined): number | null => (sum ? Math.floor(Number(sum.pointAmount)) : null);

const dateOf = (timestamp: string | null): string | null => (timestamp ? timestamp.slice(0, 10) : null);
const tierName = (tier: NonNullable<MemberRecord['tier']>): string | null => tier.name_en ?? tier.name_th ?? tier.name_cn;

/** A joined campaign as `include=campaigns` shows it: the campaign, and the customer's participation in it. */
const joinedCampaignOf = (participation: ParticipationRecord) => ({
  id: participation.campaign.id,
  name: participation.campaign.name,
  type: participation.campaign.type,
  status: participation.campaign.status,
  participation: { id: participation.id, status: participation.status, joinedAt: participation.joinedAt, progress: participation.progress },
});

/** A claim as `include=rewards` shows it: `{id, name, status}`, the id the claim's (reward code's), the name its reward's. */
const rewardOf = (code: RewardCodeRecord) => ({
  id: code.id,
  name: code.reward ? (code.reward.name_en ?? code.reward.name_th ?? code.reward.name_cn) : null,
  status: code.status.toLowerCase(),
});

/**
 * A member as a v1 customer (camelCase here; the adapter spells it snake_case). `tier` is the tier's name, or `{id, name, level}` with
 * `include=tier`; `points`, `rewards` and `campaigns` come with their `include`.
 */
export function customerOf(member: MemberRecord, includes: ReadonlySet<CustomerInclude>, totals: PointTotals = {}): Record<string, unknown> {
  const balance = Math.floor(member.pointBalance ?? 0);
  const tier = member.tier ? (includes.has('tier') ? { id: member.tier.id, name: tierName(member.tier), level: member.tier.level } : tierName(member.tier)) : null;
  return {
    id: member.id,
    name: member.name ?? member.nickName,
    email: member.email ?? null,
    phone: member.phoneNumber,
    dateOfBirth: dateOf(member.birthDate),
    gender: member.gender?.toLowerCase() ?? null,
    address: member.address ? { street: member.address.address ?? null, city: member.address.province ?? member.address.district ?? null, postalCode: member.address.postCode ?? null } : null,
    language: member.language ?? null,
    tier,
    pointsBalance: balance,
    status: member.status === 'INACTIVE' ? 'inactive' : 'active',
    ...(includes.has('points') ? { points: { balance, lifetimeEarned: wholePoints(totals.earned), lifetimeRedeemed: wholePoints(totals.redeemed) } } : {}),
    ...(includes.has('rewards') ? { rewards: (member.rewardCodes?.data ?? []).map(rewardOf) } : {}),
    ...(includes.has('campaigns') ? { campaigns: (member.campaignParticipations ?? []).map(joinedCampaignOf) } : {}),
    chatapp: { openid: member.openId, unionid: member.unionId, nickname: member.nickName, avatar: member.avatarUrl },
    createdAt: member.createdAt,
    updatedAt: member.updatedAt,
  };
}
