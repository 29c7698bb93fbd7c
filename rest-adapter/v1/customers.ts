import { isISO8601 } from 'class-validator';
import { FieldError, validationError } from '../../core/errors';

/** What a v1 customer is made of: the auth member with its point balance and tier (contract section 5). */
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

/** A joined campaign as `include=campaigns` shows it: the campaign, and the customer's participation in it. */
const joinedCampaignOf = (participation: ParticipationRecord) => ({
  id: participation.campaign.id,
  name: participation.campaign.name,
  type: participation.campaign.type,
  status: participation.campaign.status,
  participation: { id: participation.id, status: participation.status, joinedAt: participation.joinedAt, progress: participation.progress },
});

/** A reward code (a claim) as `include=rewards` reads it. */
export interface RewardCodeRecord {
  id: string;
  status: string;
  reward: { id: string; name_en: string | null; name_th: string | null; name_cn: string | null } | null;
}

/** What `include` may ask for, and what this version of the surface serves. */
const INCLUDES = ['points', 'tier', 'rewards', 'campaigns'] as const;
const SERVED_INCLUDES = new Set<string>(INCLUDES);
/** A list includes the tier object only: point totals and rewards are read per customer (docs/decisions.md). */
export const LIST_INCLUDES = new Set(['tier']);
export type CustomerInclude = (typeof INCLUDES)[number];

/** `include=points,tier`: 400 on `include` naming anything else (or what is not served yet, or on lists). */
export function customerIncludes(raw: unknown, served: ReadonlySet<string> = SERVED_INCLUDES): Set<CustomerInclude> {
  if (raw === undefined || raw === '') return new Set();
  const names = (Array.isArray(raw) ? raw.join(',') : String(raw)).split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !served.has(name));
  if (unknown.length > 0) throw validationError([{ field: 'include', message: `include takes ${[...served].join(', ')}; not ${unknown.join(', ')}` }]);
  return new Set(names as CustomerInclude[]);
}

const SORTABLE: Record<string, string> = { created_at: 'createdAt', updated_at: 'updatedAt', name: 'name' };
/** v1 `status` → the member statuses it covers: every status but INACTIVE is active. */
const STATUSES: Record<string, string[]> = { active: ['PENDING', 'CHATAPP_INFO_SYNCED', 'ACTIVE'], inactive: ['INACTIVE'] };

/** A query parameter spelled `filter[name]`, whether the query parser kept the brackets or made an object. */
function filterOf(query: Record<string, unknown>, name: string): unknown {
  const nested = query.filter;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) return (nested as Record<string, unknown>)[name];
  return query[`filter[${name}]`];
}

/**
 * The members query's variables from a v1 customer list request (query keys already camelCase):
 * `sort=field:asc|desc`, `filter[status]`, `filter[tier]` (a tier's name or id), `search`, `date_from`/`date_to`
 * (creation), `page`, `limit`.
 * Every bad parameter is reported at once (400).
 */
export function customerListVariables(query: Record<string, unknown>): Record<string, unknown> {
  const errors: FieldError[] = [];
  const variables: Record<string, unknown> = { page: query.page, limit: query.limit, search: query.search, createdFrom: query.dateFrom, createdTo: query.dateTo };
  if (query.sort !== undefined) {
    const [field, order = 'asc', ...rest] = String(query.sort).split(':');
    if (!SORTABLE[field] || !['asc', 'desc'].includes(order) || rest.length > 0) {
      errors.push({ field: 'sort', message: `sort is field:asc or field:desc, field one of ${Object.keys(SORTABLE).join(', ')}` });
    } else Object.assign(variables, { sortBy: SORTABLE[field], sortOrder: order });
  }
  const status = filterOf(query, 'status');
  if (status !== undefined) {
    if (typeof status === 'string' && STATUSES[status]) variables.statusIn = STATUSES[status];
    else errors.push({ field: 'filter[status]', message: 'filter[status] is active or inactive' });
  }
  for (const [field, value] of [['date_from', query.dateFrom], ['date_to', query.dateTo]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !isISO8601(value, { strict: true }))) errors.push({ field, message: `${field} is an ISO 8601 date or timestamp` });
  }
  const tier = filterOf(query, 'tier');
  if (tier !== undefined) {
    if (typeof tier === 'string' && tier.trim().length > 0 && tier.length <= 256) variables.tier = tier.trim();
    else errors.push({ field: 'filter[tier]', message: 'filter[tier] is a tier name or id' });
  }
  try {
    customerIncludes(query.include, LIST_INCLUDES);
  } catch (error) {
    errors.push(...((error as { fieldErrors: FieldError[] }).fieldErrors ?? []));
  }
  if (errors.length > 0) throw validationError(errors);
  return variables;
}

/** The point service's lifetime sums of a customer (`include=points`). */
export interface PointTotals {
  earned?: { pointAmount: number } | null;
  redeemed?: { pointAmount: number } | null;
}
const wholePoints = (sum: { pointAmount: number } | null | undefined): number | null => (sum ? Math.floor(Number(sum.pointAmount)) : null);

const dateOf = (timestamp: string | null): string | null => (timestamp ? timestamp.slice(0, 10) : null);
const tierName = (tier: NonNullable<MemberRecord['tier']>): string | null => tier.name_en ?? tier.name_th ?? tier.name_cn;

/** A claim as `include=rewards` shows it: `{id, name, status}`, the id the claim's (reward code's), the name its reward's. */
const rewardOf = (code: RewardCodeRecord) => ({
  id: code.id,
  name: code.reward ? (code.reward.name_en ?? code.reward.name_th ?? code.reward.name_cn) : null,
  status: code.status.toLowerCase(),
});

/** A segment of the cluster service as v1 shows it: `manual` (picked by staff) or `ai` (computed by the platform: our rule segments). */
export const segmentOf = (segment: { id: string; name_en: string | null; name_th: string | null; name_cn: string | null; type: string }) => ({
  id: segment.id,
  name: segment.name_en ?? segment.name_th ?? segment.name_cn,
  type: segment.type === 'manual' ? 'manual' : 'ai',
});

/**
 * A member as a v1 customer (camelCase here; the adapter spells it snake_case). `tier` is the tier's name, or `{id, name, level}` with
 * `include=tier`; `points`, `rewards` and `campaigns` come with their `include`.
 */
export function customerOf(member: MemberRecord, includes: Set<CustomerInclude>, totals: PointTotals = {}): Record<string, unknown> {
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
