import { REWARD } from '../contract';
import { Route, RouteInput, withPermission } from '../../../core/rest/route';

const BASE = '/reward/api';
const CATALOG = `${BASE}/reward-catalogs`;

const PAGE_META = 'meta { page limit total totalPages }';
const REWARD_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type discountType benefitValue imageUrl
  stock stockType stockInfinite rewardCatalogId storeIds condition { minimumSpend timeUseWithIn window { start end } }
  isActive createdAt updatedAt deletedAt`;
const REWARD_STATS = 'stats @include(if: $includeStats) { redeemed used total remaining }';
const CATALOG_LINK = `rewardCatalog @include(if: $includeLink) { id name_en name_th name_cn imageUrl redeemRule { pointUsage limitPerUser }
  window { start end } isActive }`;
const CATALOG_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl rewardId
  redeemRule { pointUsage limitPerUser } quota { type numberInPeriod limitPerPeriod } window { start end }
  tierCondition tierRequirement status isActive createdAt updatedAt deletedAt`;
const STOCK_FIELDS = 'id stock stockInfinite stockType';

/** The image upload of a reward or catalog, stored as its imageUrl (it wins over a text imageUrl). */
const REWARD_IMAGE = { name: 'image' };
const REWARD_MANAGE = withPermission(REWARD.permissions.manage);
const stockChange = ({ params, body }: RouteInput) => ({ id: params.id, amount: body.amount });
/** The body of a reward or catalog write, its image upload as imageUrl. */
const withImage = ({ body, uploads }: RouteInput) => ({ ...body, imageUrl: uploads.image ?? body.imageUrl });

/** Spec Part 1, reward service, rewards: reads are public; writes answer `message` beside `data`. */
export const REWARD_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/rewards`,
    document: `query Rewards($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeStats: Boolean = false, $includeLink: Boolean = false, $type: RewardType, $locale: Locale) {
    rewards(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, type: $type, locale: $locale) {
      ${PAGE_META} data { ${REWARD_FIELDS} ${REWARD_STATS} ${CATALOG_LINK} } } }`,
    envelope: 'data',
    public: true,
  },
  {
    method: 'get',
    path: `${BASE}/rewards/:id`,
    document: `query Reward($id: ID!, $locale: Locale, $includeStats: Boolean = false) { reward(id: $id, locale: $locale) { ${REWARD_FIELDS} ${REWARD_STATS} } }`,
    envelope: 'data',
    public: true,
  },
  {
    method: 'post',
    path: `${BASE}/rewards`,
    document: `mutation CreateReward($input: CreateRewardInput!) { createReward(input: $input) { ${REWARD_FIELDS} } }`,
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward created',
  },
  {
    method: 'put',
    path: `${BASE}/rewards/:id`,
    document: `mutation UpdateReward($id: ID!, $input: UpdateRewardInput!) { updateReward(id: $id, input: $input) { ${REWARD_FIELDS} } }`,
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ id: input.params.id, input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward updated',
  },
  {
    method: 'post',
    path: `${BASE}/rewards/:id/increase-stock`,
    document: `mutation IncreaseRewardStock($id: ID!, $amount: Int!) { increaseRewardStock(id: $id, amount: $amount) { ${STOCK_FIELDS} } }`,
    variables: stockChange,
    envelope: 'dataWithMessage',
    message: 'Stock increased',
  },
  {
    method: 'post',
    path: `${BASE}/rewards/:id/decrease-stock`,
    document: `mutation DecreaseRewardStock($id: ID!, $amount: Int!) { decreaseRewardStock(id: $id, amount: $amount) { ${STOCK_FIELDS} } }`,
    variables: stockChange,
    envelope: 'dataWithMessage',
    message: 'Stock decreased',
  },
  {
    method: 'delete',
    path: `${BASE}/rewards/:id`,
    document: `mutation DeleteReward($id: ID!) { deleteReward(id: $id) { id } }`,
    envelope: 'dataWithMessage',
    message: 'Reward deleted',
  },
  {
    method: 'patch',
    path: `${BASE}/rewards/:id/set-active`,
    document: `mutation SetRewardActive($id: ID!, $isActive: Boolean!) { setRewardActive(id: $id, isActive: $isActive) { id isActive } }`,
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'dataWithMessage',
    message: 'Reward status updated',
  },
];

/** Spec Part 1, reward service, reward catalogs: reads are public; writes answer `message` beside `data`. */
export const REWARD_CATALOG_ROUTES: Route[] = [
  {
    method: 'get',
    path: CATALOG,
    document: `query RewardCatalogs($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeStats: Boolean = false, $status: RewardCatalogStatus, $advancedRules: RewardCatalogAdvancedRules, $dateRangeStart: DateTimeISO,
    $dateRangeEnd: DateTimeISO, $tierRequirementIds: [String!], $tierCondition: RewardTierCondition, $sortBy: RewardCatalogSortBy,
    $sortOrder: SortDirection, $pointUsageMin: Float, $pointUsageMax: Float, $storeIds: [String!], $locale: Locale) {
    rewardCatalogs(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt,
      status: $status, advancedRules: $advancedRules, dateRangeStart: $dateRangeStart, dateRangeEnd: $dateRangeEnd,
      tierRequirementIds: $tierRequirementIds, tierCondition: $tierCondition, sortBy: $sortBy, sortOrder: $sortOrder,
      pointUsageMin: $pointUsageMin, pointUsageMax: $pointUsageMax, storeIds: $storeIds, locale: $locale) {
      ${PAGE_META} data { ${CATALOG_FIELDS} ${REWARD_STATS} } } }`,
    envelope: 'data',
    public: true,
  },
  {
    method: 'get',
    path: `${CATALOG}/:id`,
    document: `query RewardCatalog($id: ID!, $locale: Locale, $includeStats: Boolean = false) {
    rewardCatalog(id: $id, locale: $locale) { ${CATALOG_FIELDS} ${REWARD_STATS} } }`,
    envelope: 'data',
    public: true,
  },
  {
    method: 'post',
    path: CATALOG,
    document: `mutation CreateRewardCatalog($input: CreateRewardCatalogInput!) { createRewardCatalog(input: $input) { ${CATALOG_FIELDS} } }`,
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward catalog created',
    status: 201,
  },
  {
    method: 'put',
    path: `${CATALOG}/:id`,
    document: `mutation UpdateRewardCatalog($id: ID!, $input: UpdateRewardCatalogInput!) { updateRewardCatalog(id: $id, input: $input) { ${CATALOG_FIELDS} } }`,
    authorize: REWARD_MANAGE,
    upload: [REWARD_IMAGE],
    variables: (input) => ({ id: input.params.id, input: withImage(input) }),
    envelope: 'dataWithMessage',
    message: 'Reward catalog updated',
  },
  {
    method: 'delete',
    path: `${CATALOG}/:id`,
    document: `mutation DeleteRewardCatalog($id: ID!) { deleteRewardCatalog(id: $id) { id } }`,
    envelope: 'dataWithMessage',
    message: 'Reward catalog deleted',
  },
  {
    method: 'patch',
    path: `${CATALOG}/:id/set-active`,
    document: `mutation SetRewardCatalogActive($id: ID!, $isActive: Boolean!) { setRewardCatalogActive(id: $id, isActive: $isActive) { id isActive } }`,
    variables: ({ params, body }) => ({ id: params.id, isActive: body.isActive }),
    envelope: 'dataWithMessage',
    message: 'Reward catalog status updated',
  },
];
