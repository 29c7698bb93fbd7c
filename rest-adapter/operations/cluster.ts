/** The GraphQL documents behind the /cluster/api routes; CI validates each against the supergraph. */

const PAGE_META = 'meta { page limit total totalPages }';
const TIER_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl background level
  requirement { purchaseAmountHit }
  benefit { name_en name_th name_cn description_en description_th description_cn condition_en condition_th condition_cn type imageUrl }
  isActive isSpecial createdAt updatedAt deletedAt`;

// Members' tiers (projections and history)
const PROJECTION_FIELDS = 'id memberId tierId tierEndAt createdAt updatedAt';
const TIER_SUMMARY = 'id name_en name_th name_cn level';
const MEMBER_SUMMARY = 'member @include(if: $includeMember) { id name nickName phoneNumber status }';
const HISTORY_FIELDS = `id memberId changeType snapshot createdAt
  fromTier(locale: $locale) { id name_en name_th name_cn } toTier(locale: $locale) { id name_en name_th name_cn }`;
const HISTORY_FILTERS = '$page: Int, $limit: Int, $start: String, $end: String, $actionType: TierChangeType, $locale: Locale';
const HISTORY_ARGS = 'page: $page, limit: $limit, start: $start, end: $end, actionType: $actionType';

const TIER_PROJECTION_OPERATIONS = {
  AssignTier: `mutation AssignTier($input: AssignTierInput!) { assignTier(input: $input) { id memberId tierId tierEndAt createdAt } }`,
  MyTierProjection: `query MyTierProjection($locale: Locale) { myTierProjection { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } } }`,
  TierProjection: `query TierProjection($memberId: ID!, $locale: Locale) {
    tierProjection(memberId: $memberId) { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } } }`,
  TierProjections: `query TierProjections($page: Int, $limit: Int, $search: String, $tierId: ID, $includeInActive: Boolean, $includeDeletedAt: Boolean,
    $includeMember: Boolean = false, $locale: Locale) {
    tierProjections(page: $page, limit: $limit, search: $search, tierId: $tierId, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt) {
      ${PAGE_META} data { ${PROJECTION_FIELDS} tier(locale: $locale) { ${TIER_SUMMARY} } ${MEMBER_SUMMARY} } } }`,
  UpdateTierProjection: `mutation UpdateTierProjection($memberId: ID!, $input: UpdateTierProjectionInput!) {
    updateTierProjection(memberId: $memberId, input: $input) { success projection { ${PROJECTION_FIELDS} tier { ${TIER_SUMMARY} } } } }`,
  MyTierHistory: `query MyTierHistory(${HISTORY_FILTERS}) { myTierHistory(${HISTORY_ARGS}) { ${PAGE_META} data { ${HISTORY_FIELDS} } } }`,
  TierHistory: `query TierHistory($memberId: ID!, ${HISTORY_FILTERS}) {
    tierHistory(memberId: $memberId, ${HISTORY_ARGS}) { ${PAGE_META} data { ${HISTORY_FIELDS} } } }`,
  TierYearlySummary: `query TierYearlySummary($year: Int) {
    tierYearlySummary(year: $year) { year tierDistribution { tierId tierName_en memberCount } upgrades downgrades expiries } }`,
};

// Badges and members' badge progress
const BADGE_RULE = `rule { type purchaseAmount purchaseCount pointsAmount minSpend withinDays anniversaryYear categoryIdsIncluded categoryIdsExcluded
    shopIdsIncluded shopIdsExcluded window { start end } tierCondition { type tierIds } }`;
const BADGE_FIELDS = `id name_en name_th name_cn description_en description_th description_cn imageUrl isActive createdAt updatedAt deletedAt ${BADGE_RULE}`;
const PROGRESS_FIELDS = `id memberId badgeId currentValue goalValue isCompleted completedAt createdAt updatedAt
  badge(locale: $locale) @include(if: $includeBadge) { ${BADGE_FIELDS} } ${MEMBER_SUMMARY}`;
const PROGRESS_FILTERS = '$page: Int, $limit: Int, $badgeId: ID, $isCompleted: Boolean, $includeBadge: Boolean = false, $includeMember: Boolean = false, $locale: Locale';
const PROGRESS_ARGS = 'page: $page, limit: $limit, badgeId: $badgeId, isCompleted: $isCompleted';

const BADGE_OPERATIONS = {
  Badges: `query Badges($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean, $includeMemberCount: Boolean = false, $locale: Locale) {
    badges(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, locale: $locale) {
      ${PAGE_META} data { ${BADGE_FIELDS} memberCount @include(if: $includeMemberCount) } } }`,
  Badge: `query Badge($id: ID!, $locale: Locale, $includeTierInfo: Boolean = false, $includeTotalAchievers: Boolean = false) {
    badge(id: $id, locale: $locale) { ${BADGE_FIELDS} totalAchievers @include(if: $includeTotalAchievers)
      tiers(locale: $locale) @include(if: $includeTierInfo) { ${TIER_SUMMARY} } } }`,
  CreateBadge: `mutation CreateBadge($input: CreateBadgeInput!) { createBadge(input: $input) { id name_en ${BADGE_RULE} isActive imageUrl } }`,
  UpdateBadge: `mutation UpdateBadge($id: ID!, $input: UpdateBadgeInput!) { updateBadge(id: $id, input: $input) { ${BADGE_FIELDS} } }`,
  DeleteBadge: `mutation DeleteBadge($id: ID!) { deleteBadge(id: $id) { id } }`,
  SetBadgeActive: `mutation SetBadgeActive($id: ID!, $isActive: Boolean!) { setBadgeActive(id: $id, isActive: $isActive) { id } }`,
  MyBadgeProgress: `query MyBadgeProgress(${PROGRESS_FILTERS}) { myBadgeProgress(${PROGRESS_ARGS}) { ${PAGE_META} data { ${PROGRESS_FIELDS} } } }`,
  BadgeProgress: `query BadgeProgress($memberId: ID!, ${PROGRESS_FILTERS}) {
    badgeProgress(memberId: $memberId, ${PROGRESS_ARGS}) { ${PAGE_META} data { ${PROGRESS_FIELDS} } } }`,
};

// Segments and interests
const SEGMENT_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type
  rule { tierIds minPoints maxPoints activeWithinDays } createdAt updatedAt`;
const CATEGORY_FIELDS = 'id name_en name_th name_cn createdAt updatedAt';
const SEGMENT_OPERATIONS = {
  Segments: `query Segments($page: Int, $limit: Int, $search: String, $type: SegmentType, $locale: Locale) {
    segments(page: $page, limit: $limit, search: $search, type: $type, locale: $locale) { ${PAGE_META} data { ${SEGMENT_FIELDS} } } }`,
  Segment: `query Segment($id: ID!, $locale: Locale) { segment(id: $id, locale: $locale) { ${SEGMENT_FIELDS} memberCount } }`,
  CreateSegment: `mutation CreateSegment($input: CreateSegmentInput!) { createSegment(input: $input) { ${SEGMENT_FIELDS} } }`,
  UpdateSegment: `mutation UpdateSegment($id: ID!, $input: UpdateSegmentInput!) { updateSegment(id: $id, input: $input) { ${SEGMENT_FIELDS} } }`,
  DeleteSegment: `mutation DeleteSegment($id: ID!) { deleteSegment(id: $id) { id } }`,
  SegmentMembers: `query SegmentMembers($id: ID!, $page: Int, $limit: Int, $includeMember: Boolean = false) {
    segmentMembers(id: $id, page: $page, limit: $limit) { ${PAGE_META} data { memberId addedAt ${MEMBER_SUMMARY} } } }`,
  AddSegmentMembers: `mutation AddSegmentMembers($id: ID!, $memberIds: [ID!]!) { addSegmentMembers(id: $id, memberIds: $memberIds) { segmentId changed memberCount } }`,
  RemoveSegmentMembers: `mutation RemoveSegmentMembers($id: ID!, $memberIds: [ID!]!) {
    removeSegmentMembers(id: $id, memberIds: $memberIds) { segmentId changed memberCount } }`,
  MemberSegments: `query MemberSegments($memberId: ID!, $locale: Locale) { memberSegments(memberId: $memberId, locale: $locale) { id name_en name_th name_cn type } }`,
  InterestCategories: `query InterestCategories($locale: Locale) { interestCategories(locale: $locale) { ${CATEGORY_FIELDS} } }`,
  CreateInterestCategory: `mutation CreateInterestCategory($input: InterestCategoryInput!) { createInterestCategory(input: $input) { ${CATEGORY_FIELDS} } }`,
  UpdateInterestCategory: `mutation UpdateInterestCategory($id: ID!, $input: UpdateInterestCategoryInput!) {
    updateInterestCategory(id: $id, input: $input) { ${CATEGORY_FIELDS} } }`,
  DeleteInterestCategory: `mutation DeleteInterestCategory($id: ID!) { deleteInterestCategory(id: $id) { id } }`,
  MyInterests: `query MyInterests($locale: Locale) { myInterests(locale: $locale) { id name_en name_th name_cn } }`,
  SetMyInterests: `mutation SetMyInterests($categoryIds: [ID!]!, $locale: Locale) { setMyInterests(categoryIds: $categoryIds, locale: $locale) { id name_en name_th name_cn } }`,
  MemberInterests: `query MemberInterests($memberId: ID!, $locale: Locale) { memberInterests(memberId: $memberId, locale: $locale) { id name_en name_th name_cn } }`,
};

export const CLUSTER_OPERATIONS = {
  // Tiers
  Tiers: `query Tiers($page: Int, $limit: Int, $search: String, $includeInActive: Boolean, $includeDeletedAt: Boolean, $locale: Locale) {
    tiers(page: $page, limit: $limit, search: $search, includeInActive: $includeInActive, includeDeletedAt: $includeDeletedAt, locale: $locale) {
      ${PAGE_META} data { ${TIER_FIELDS} } } }`,
  TiersByIds: `query TiersByIds($ids: [ID!]!, $locale: Locale) { tiersByIds(ids: $ids, locale: $locale) { ${TIER_FIELDS} } }`,
  TierByLevel: `query TierByLevel($level: Int!, $locale: Locale) { tierByLevel(level: $level, locale: $locale) { ${TIER_FIELDS} } }`,
  Tier: `query Tier($id: ID!, $locale: Locale) { tier(id: $id, locale: $locale) { ${TIER_FIELDS} } }`,
  CreateTier: `mutation CreateTier($input: CreateTierInput!) { createTier(input: $input) { id name_en level isActive } }`,
  UpdateTier: `mutation UpdateTier($id: ID!, $input: UpdateTierInput!) { updateTier(id: $id, input: $input) { ${TIER_FIELDS} } }`,
  DeleteTier: `mutation DeleteTier($id: ID!) { deleteTier(id: $id) { id } }`,
  SetTierActive: `mutation SetTierActive($id: ID!, $isActive: Boolean!) { setTierActive(id: $id, isActive: $isActive) { id } }`,
  TierMemberCount: `query TierMemberCount($id: ID!) { tierMemberCount(id: $id) { tierId count } }`,
  TierMemberCounts: `query TierMemberCounts { tierMemberCounts { tierId count } }`,
  ...TIER_PROJECTION_OPERATIONS,
  ...SEGMENT_OPERATIONS,
  ...BADGE_OPERATIONS,
};
