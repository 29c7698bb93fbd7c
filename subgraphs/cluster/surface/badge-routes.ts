import { CLUSTER } from '../contract';
import { Route, RouteInput, withPermission } from '../../../core/rest/route';

const BASE = '/cluster/api';

const PAGE_META = 'meta { page limit total totalPages }';
const TIER_SUMMARY = 'id name_en name_th name_cn level';
const MEMBER_SUMMARY = 'member @include(if: $includeMember) { id name nickName phoneNumber status }';
const BADGE_RULE = `rule { type purchaseAmount purchaseCount pointsAmount minSpend withinDays anniversaryYear categoryIdsIncluded categoryIdsExcluded
    shopIdsIncluded shopIdsExcluded window { start end } tierCondition { type tierIds } }`;
const BADGE_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl isActive createdAt updatedAt deletedAt ${BADGE_RULE}`;
const PROGRESS_FIELDS = `id memberId badgeId currentValue goalValue isCompleted completedAt createdAt updatedAt
  badge(locale: $locale) @include(if: $includeBadge) { ${BADGE_FIELDS} } ${MEMBER_SUMMARY}`;
const PROGRESS_FILTERS = '$page: Int, $limit: Int, $badgeId: ID, $isCompleted: Boolean, $includeBadge: Boolean = false, $includeMember: Boolean = false, $locale: Locale';
const PROGRESS_ARGS = 'page: $page, limit: $limit, badgeId: $badgeId, isCompleted: $isCompleted';

/** Badges (reads need a token; writes badge:manage) and members' badge progress; `me` before `:memberId`. */
const BADGE_IMAGE = { name: 'image' };
const BADGE_MANAGE = withPermission(CLUSTER.permissions.badgeManage);
const badgeInput = ({ body, uploads }: RouteInput) => ({ ...body, imageUrl: uploads.image ?? body.imageUrl });
export const BADGE_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/badges`,
    document: `query Badges($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean, $includeMemberCount: Boolean = false, $locale: Locale) {
    badges(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, locale: $locale) {
      ${PAGE_META} data { ${BADGE_FIELDS} memberCount @include(if: $includeMemberCount) } } }`,
    envelope: 'nested',
    message: 'Badge list',
  },
  {
    method: 'get',
    path: `${BASE}/badges/:id`,
    document: `query Badge($id: ID!, $locale: Locale, $includeTierInfo: Boolean = false, $includeTotalAchievers: Boolean = false) {
    badge(id: $id, locale: $locale) { ${BADGE_FIELDS} totalAchievers @include(if: $includeTotalAchievers)
      tiers(locale: $locale) @include(if: $includeTierInfo) { ${TIER_SUMMARY} } } }`,
    envelope: 'nested',
    message: 'Badge found',
  },
  {
    method: 'post',
    path: `${BASE}/badges`,
    document: `mutation CreateBadge($input: CreateBadgeInput!) { createBadge(input: $input) { id name_en ${BADGE_RULE} isActive imageUrl } }`,
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
    document: `mutation UpdateBadge($id: ID!, $input: UpdateBadgeInput!) { updateBadge(id: $id, input: $input) { ${BADGE_FIELDS} } }`,
    authorize: BADGE_MANAGE,
    upload: [BADGE_IMAGE],
    variables: (input) => ({ id: input.params.id, input: badgeInput(input) }),
    envelope: 'nested',
    message: 'Badge updated',
  },
  {
    method: 'delete',
    path: `${BASE}/badges/:id`,
    document: `mutation DeleteBadge($id: ID!) { deleteBadge(id: $id) { id } }`,
    envelope: 'message',
    message: 'Badge deleted',
  },
  {
    method: 'patch',
    path: `${BASE}/badges/:id/set-active`,
    document: `mutation SetBadgeActive($id: ID!, $isActive: Boolean!) { setBadgeActive(id: $id, isActive: $isActive) { id } }`,
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'message',
    message: 'Badge status updated',
  },
  {
    method: 'get',
    path: `${BASE}/badge-member-progress/members/me`,
    document: `query MyBadgeProgress(${PROGRESS_FILTERS}) { myBadgeProgress(${PROGRESS_ARGS}) { ${PAGE_META} data { ${PROGRESS_FIELDS} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/badge-member-progress/members/:memberId`,
    document: `query BadgeProgress($memberId: ID!, ${PROGRESS_FILTERS}) {
    badgeProgress(memberId: $memberId, ${PROGRESS_ARGS}) { ${PAGE_META} data { ${PROGRESS_FIELDS} } } }`,
    envelope: 'data',
  },
];
