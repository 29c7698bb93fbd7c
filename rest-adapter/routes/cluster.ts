import { Route, RouteInput } from '../route';

const BASE = '/cluster/api';
const query = ({ query }: RouteInput) => query;
const idAndQuery = ({ params, query }: RouteInput) => ({ ...query, id: params.id });
const id = ({ params }: RouteInput) => ({ id: params.id });

/** The tier uploads: the logo (stored as the tier's imageUrl) and the benefit logos (see docs/decisions.md). */
const TIER_LOGO = { name: 'tierLogo', accept: /^image\// };
const BENEFIT_LOGOS = { name: 'benefitLogos', maxCount: 19, accept: /^image\// };
const tierInput = ({ body, uploads }: RouteInput) => ({
  ...body,
  imageUrl: uploads.tierLogo ?? body.imageUrl,
  benefitLogoUrls: uploads.benefitLogos,
});

/** Members' tiers (projections): `me`, `history/*` and `summary/yearly` are matched before `:memberId`. */
const TIER_PROJECTION_ROUTES: Route[] = [
  { method: 'post', path: `${BASE}/tiers/assign`, operation: 'AssignTier', variables: ({ body }) => ({ input: body }), envelope: 'nested', message: 'Tier assigned', status: 201 },
  { method: 'get', path: `${BASE}/tier-projections/me`, operation: 'MyTierProjection', variables: query, envelope: 'data' },
  { method: 'get', path: `${BASE}/tier-projections/history/me`, operation: 'MyTierHistory', variables: query, envelope: 'nested', message: 'Tier history' },
  {
    method: 'get',
    path: `${BASE}/tier-projections/history/:memberId`,
    operation: 'TierHistory',
    variables: ({ params, query }) => ({ ...query, memberId: params.memberId }),
    envelope: 'nested',
    message: 'Tier history',
  },
  { method: 'get', path: `${BASE}/tier-projections/summary/yearly`, operation: 'TierYearlySummary', variables: query, envelope: 'nested', message: 'Yearly tier summary' },
  { method: 'get', path: `${BASE}/tier-projections`, operation: 'TierProjections', variables: query, envelope: 'data' },
  {
    method: 'get',
    path: `${BASE}/tier-projections/:memberId`,
    operation: 'TierProjection',
    variables: ({ params, query }) => ({ ...query, memberId: params.memberId }),
    envelope: 'data',
  },
  {
    method: 'put',
    path: `${BASE}/tier-projections/:memberId`,
    operation: 'UpdateTierProjection',
    variables: ({ params, body }) => ({ memberId: params.memberId, input: body }),
    envelope: 'nested',
    message: 'Tier projection updated',
  },
];

/** Spec Part 2, cluster service. Tier reads are public; literal segments (bulk, level, members) before :id. */
export const CLUSTER_ROUTES: Route[] = [
  // Tiers
  { method: 'get', path: `${BASE}/tiers`, operation: 'Tiers', variables: query, envelope: 'nested', message: 'Tier list', public: true },
  { method: 'post', path: `${BASE}/tiers/bulk`, operation: 'TiersByIds', variables: ({ body, query }) => ({ ...query, ids: body.ids }), envelope: 'nested', message: 'Tiers found' },
  { method: 'get', path: `${BASE}/tiers/members/counts`, operation: 'TierMemberCounts', envelope: 'nested', message: 'Member counts per tier' },
  {
    method: 'get',
    path: `${BASE}/tiers/level/:level`,
    operation: 'TierByLevel',
    variables: ({ params, query }) => ({ ...query, level: params.level }),
    envelope: 'nested',
    message: 'Tier found',
    public: true,
  },
  { method: 'get', path: `${BASE}/tiers/:id`, operation: 'Tier', variables: idAndQuery, envelope: 'nested', message: 'Tier found', public: true },
  {
    method: 'post',
    path: `${BASE}/tiers`,
    operation: 'CreateTier',
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
    upload: [TIER_LOGO, BENEFIT_LOGOS],
    variables: (input) => ({ id: input.params.id, input: tierInput(input) }),
    envelope: 'nested',
    message: 'Tier updated',
  },
  { method: 'delete', path: `${BASE}/tiers/:id`, operation: 'DeleteTier', variables: id, envelope: 'message', message: 'Tier deleted' },
  {
    method: 'patch',
    path: `${BASE}/tiers/:id/set-active`,
    operation: 'SetTierActive',
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'message',
    message: 'Tier status updated',
  },
  { method: 'get', path: `${BASE}/tiers/:id/members/count`, operation: 'TierMemberCount', variables: id, envelope: 'nested', message: 'Member count' },
  ...TIER_PROJECTION_ROUTES,
];
