import { REWARD } from '../contract';
import { Principal } from '../../../core/auth/principal';
import { Route } from '../../../core/rest/route';

const BASE = '/reward/api';
const CATALOG = `${BASE}/reward-catalogs`;
const CODE = `${BASE}/reward-codes`;

const PAGE_META = 'meta { page limit total totalPages }';
const CODE_FIELDS = `id code rewardId rewardCatalogId memberId staffId usedAt expiredAt expirationNotifiedAt createdAt updatedAt status
  reward(locale: $locale) { id name_en name_th name_cn type discountType benefitValue imageUrl }`;
const CODE_LINKS = `rewardCatalog(locale: $locale) @include(if: $includeLink) { id name_en name_th name_cn imageUrl redeemRule { pointUsage limitPerUser } }
  member @include(if: $includeMember) { id name nickName phoneNumber status }`;
const CODE_FILTERS = `$page: Int, $limit: Int, $rewardId: ID, $rewardCatalogId: ID, $staffId: ID, $search: String, $start: DateTimeISO,
  $end: DateTimeISO, $status: RewardCodeStatus, $includeMember: Boolean = false, $includeLink: Boolean = false, $locale: Locale`;
const CODE_FILTER_ARGS = 'page: $page, limit: $limit, rewardId: $rewardId, rewardCatalogId: $rewardCatalogId, staffId: $staffId, search: $search, start: $start, end: $end, status: $status';

/** Redemption: members for themselves, reward:manage for the member named in the body. */
const REDEEMER = (principal: Principal) => principal.kind === 'member' || principal.can(REWARD.permissions.manage);

/** Spec Part 1, reward service, reward codes and redemption: `me` and `check` before `:id`. */
export const REWARD_CODE_ROUTES: Route[] = [
  {
    method: 'get',
    path: CODE,
    document: `query RewardCodes(${CODE_FILTERS}, $memberId: ID) {
    rewardCodes(${CODE_FILTER_ARGS}, memberId: $memberId) { ${PAGE_META} data { ${CODE_FIELDS} ${CODE_LINKS} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${CODE}/me`,
    document: `query MyRewardCodes(${CODE_FILTERS}) { myRewardCodes(${CODE_FILTER_ARGS}) { ${PAGE_META} data { ${CODE_FIELDS} ${CODE_LINKS} } } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${CODE}/check`,
    document: `query CheckRewardCode($code: String!) {
    checkRewardCode(code: $code) { valid message rewardCode { id code rewardId expiredAt } reward { id name_en type } } }`,
    variables: ({ body }) => ({ code: body.code }),
    payload: ({ checkRewardCode: { message: _message, ...check } }) => check,
    envelope: 'dataWithMessage',
    message: (data) => data.checkRewardCode.message,
  },
  {
    method: 'get',
    path: `${CODE}/:id`,
    document: `query RewardCode($id: ID!, $includeMember: Boolean = false, $includeLink: Boolean = false, $locale: Locale) {
    rewardCode(id: $id) { ${CODE_FIELDS} ${CODE_LINKS} } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${CODE}/:id/use`,
    document: `mutation UseRewardCode($id: ID!, $code: String!, $locale: Locale) { useRewardCode(id: $id, code: $code) { ${CODE_FIELDS} } }`,
    variables: ({ params, body, query }) => ({ id: params.id, code: body.code, locale: query.locale }),
    envelope: 'dataWithMessage',
    message: 'Reward code used',
  },
  {
    method: 'get',
    path: `${CATALOG}/:id/can-redeem`,
    document: `query CanRedeemRewardCatalog($id: ID!, $memberId: ID) { canRedeemRewardCatalog(id: $id, memberId: $memberId) { canRedeem reasons { code message } } }`,
    authorize: REDEEMER,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${CATALOG}/:id/redeem`,
    document: `mutation RedeemRewardCatalog($id: ID!, $memberId: ID, $idempotencyKey: String!, $locale: Locale) {
    redeemRewardCatalog(id: $id, memberId: $memberId, idempotencyKey: $idempotencyKey) { ${CODE_FIELDS} } }`,
    authorize: REDEEMER,
    variables: ({ params, body, headers, query }) => ({ id: params.id, memberId: body.memberId, idempotencyKey: headers['idempotency-key'], locale: query.locale }),
    envelope: 'dataWithMessage',
    message: 'Reward redeemed',
    status: 201,
  },
];
