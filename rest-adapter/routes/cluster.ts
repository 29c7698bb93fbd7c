import { CLUSTER } from '../../subgraphs/cluster/contract';
import { RouteInput, withPermission } from '../../core/rest/route';
import { LegacyRoute } from './legacy';

const BASE = '/cluster/api';

/** The tier uploads: the logo (stored as the tier's imageUrl) and the benefit logos (see docs/decisions.md). */
const TIER_LOGO = { name: 'tierLogo' };
const BENEFIT_LOGOS = { name: 'benefitLogos', maxCount: 19 };
const TIER_MANAGE = withPermission(CLUSTER.permissions.tierManage);
const tierInput = ({ body, uploads }: RouteInput) => ({
  ...body,
  imageUrl: uploads.tierLogo ?? body.imageUrl,
  benefitLogoUrls: uploads.benefitLogos,
});

/** Members' tiers (projections): `me`, `history/*` and `summary/yearly` are matched before `:memberId`. */
const TIER_PROJECTION_ROUTES: LegacyRoute[] = [
  { method: 'post', path: `${BASE}/tiers/assign`, operation: 'AssignTier', envelope: 'nested', message: 'Tier assigned', status: 201 },
  { method: 'get', path: `${BASE}/tier-projections/me`, operation: 'MyTierProjection', envelope: 'data' },
  { method: 'get', path: `${BASE}/tier-projections/history/me`, operation: 'MyTierHistory', envelope: 'nested', message: 'Tier history' },
  { method: 'get', path: `${BASE}/tier-projections/history/:memberId`, operation: 'TierHistory', envelope: 'nested', message: 'Tier history' },
  { method: 'get', path: `${BASE}/tier-projections/summary/yearly`, operation: 'TierYearlySummary', envelope: 'nested', message: 'Yearly tier summary' },
  { method: 'get', path: `${BASE}/tier-projections`, operation: 'TierProjections', envelope: 'data' },
  { method: 'get', path: `${BASE}/tier-projections/:memberId`, operation: 'TierProjection', envelope: 'data' },
  { method: 'put', path: `${BASE}/tier-projections/:memberId`, operation: 'UpdateTierProjection', envelope: 'nested', message: 'Tier projection updated' },
];

/** Badges (reads need a token; writes badge:manage) and members' badge progress; `me` before `:memberId`. */
const BADGE_IMAGE = { name: 'image' };
const BADGE_MANAGE = withPermission(CLUSTER.permissions.badgeManage);
const badgeInput = ({ body, uploads }: RouteInput) => ({ ...body, imageUrl: uploads.image ?? body.imageUrl });
const BADGE_ROUTES: LegacyRoute[] = [
  { method: 'get', path: `${BASE}/badges`, operation: 'Badges', envelope: 'nested', message: 'Badge list' },
  { method: 'get', path: `${BASE}/badges/:id`, operation: 'Badge', envelope: 'nested', message: 'Badge found' },
  {
    method: 'post',
    path: `${BASE}/badges`,
    operation: 'CreateBadge',
    authorize: BADGE_MANAGE,
    upload: [BADGE_IMAGE],
    variables: (input) => ({ input: badgeInput(input) }),
    envelope: 'nested',
    message: 'Badge created',
    status: 201,
  },
  {
    method: 'put',
    path: `${BASE}/badges/:id`,
    operation: 'UpdateBadge',
    authorize: BADGE_MANAGE,
    upload: [BADGE_IMAGE],
    variables: (input) => ({ id: input.params.id, input: badgeInput(input) }),
    envelope: 'nested',
    message: 'Badge updated',
  },
  { method: 'delete', path: `${BASE}/badges/:id`, operation: 'DeleteBadge', envelope: 'message', message: 'Badge deleted' },
  {
    method: 'patch',
    path: `${BASE}/badges/:id/set-active`,
    operation: 'SetBadgeActive',
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'message',
    message: 'Badge status updated',
  },
  { method: 'get', path: `${BASE}/badge-member-progress/members/me`, operation: 'MyBadgeProgress', envelope: 'data' },
  { method: 'get', path: `${BASE}/badge-member-progress/members/:memberId`, operation: 'BadgeProgress', envelope: 'data' },
];

/** Segments and interests (docs/decisions.md, Cluster): literal paths (members/:memberId, me, categories) before :id. */
const SEGMENT_ROUTES: LegacyRoute[] = [
  { method: 'get', path: `${BASE}/segments`, operation: 'Segments', envelope: 'data' },
  { method: 'post', path: `${BASE}/segments`, operation: 'CreateSegment', envelope: 'nested', message: 'Segment created', status: 201 },
  { method: 'get', path: `${BASE}/segments/members/:memberId`, operation: 'MemberSegments', envelope: 'nested', message: "Member's segments" },
  { method: 'get', path: `${BASE}/segments/:id`, operation: 'Segment', envelope: 'nested', message: 'Segment found' },
  { method: 'put', path: `${BASE}/segments/:id`, operation: 'UpdateSegment', envelope: 'nested', message: 'Segment updated' },
  { method: 'delete', path: `${BASE}/segments/:id`, operation: 'DeleteSegment', envelope: 'message', message: 'Segment deleted' },
  { method: 'get', path: `${BASE}/segments/:id/members`, operation: 'SegmentMembers', envelope: 'data' },
  {
    method: 'post',
    path: `${BASE}/segments/:id/members`,
    operation: 'AddSegmentMembers',
    variables: ({ params, body }) => ({ id: params.id, memberIds: body.memberIds }),
    envelope: 'nested',
    message: 'Segment members added',
  },
  {
    method: 'post',
    path: `${BASE}/segments/:id/members/remove`,
    operation: 'RemoveSegmentMembers',
    variables: ({ params, body }) => ({ id: params.id, memberIds: body.memberIds }),
    envelope: 'nested',
    message: 'Segment members removed',
  },
  { method: 'get', path: `${BASE}/interests/categories`, operation: 'InterestCategories', envelope: 'nested', message: 'Interest categories' },
  { method: 'post', path: `${BASE}/interests/categories`, operation: 'CreateInterestCategory', envelope: 'nested', message: 'Interest category created', status: 201 },
  { method: 'put', path: `${BASE}/interests/categories/:id`, operation: 'UpdateInterestCategory', envelope: 'nested', message: 'Interest category updated' },
  { method: 'delete', path: `${BASE}/interests/categories/:id`, operation: 'DeleteInterestCategory', envelope: 'message', message: 'Interest category deleted' },
  { method: 'get', path: `${BASE}/interests/me`, operation: 'MyInterests', envelope: 'nested', message: 'Interests' },
  {
    method: 'put',
    path: `${BASE}/interests/me`,
    operation: 'SetMyInterests',
    variables: ({ body, query }) => ({ ...query, categoryIds: body.categoryIds }),
    envelope: 'nested',
    message: 'Interests updated',
  },
  { method: 'get', path: `${BASE}/interests/members/:memberId`, operation: 'MemberInterests', envelope: 'nested', message: "Member's interests" },
];

/** Spec Part 2, cluster service. Tier reads are public; literal segments (bulk, level, members) before :id. */
export const CLUSTER_ROUTES: LegacyRoute[] = [
  // Tiers
  { method: 'get', path: `${BASE}/tiers`, operation: 'Tiers', envelope: 'nested', message: 'Tier list', public: true },
  { method: 'post', path: `${BASE}/tiers/bulk`, operation: 'TiersByIds', variables: ({ body, query }) => ({ ...query, ids: body.ids }), envelope: 'nested', message: 'Tiers found' },
  { method: 'get', path: `${BASE}/tiers/members/counts`, operation: 'TierMemberCounts', envelope: 'nested', message: 'Member counts per tier' },
  { method: 'get', path: `${BASE}/tiers/level/:level`, operation: 'TierByLevel', envelope: 'nested', message: 'Tier found', public: true },
  { method: 'get', path: `${BASE}/tiers/:id`, operation: 'Tier', envelope: 'nested', message: 'Tier found', public: true },
  {
    method: 'post',
    path: `${BASE}/tiers`,
    operation: 'CreateTier',
    authorize: TIER_MANAGE,
    upload: [{ ...TIER_LOGO, required: true }, BENEFIT_LOGOS],
    variables: (input) => ({ input: tierInput(input) }),
    envelope: 'nested',
    message: 'Tier created',
    status: 201,
  },
  {
    method: 'put',
    path: `${BASE}/tiers/:id`,
    operation: 'UpdateTier',
    authorize: TIER_MANAGE,
    upload: [TIER_LOGO, BENEFIT_LOGOS],
    variables: (input) => ({ id: input.params.id, input: tierInput(input) }),
    envelope: 'nested',
    message: 'Tier updated',
  },
  { method: 'delete', path: `${BASE}/tiers/:id`, operation: 'DeleteTier', envelope: 'message', message: 'Tier deleted' },
  {
    method: 'patch',
    path: `${BASE}/tiers/:id/set-active`,
    operation: 'SetTierActive',
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'message',
    message: 'Tier status updated',
  },
  { method: 'get', path: `${BASE}/tiers/:id/members/count`, operation: 'TierMemberCount', envelope: 'nested', message: 'Member count' },
  ...TIER_PROJECTION_ROUTES,
  ...SEGMENT_ROUTES,
  ...BADGE_ROUTES,
];
