import { Route } from '../../../core/rest/route';

const BASE = '/cluster/api';

const PAGE_META = 'meta { page limit total totalPages }';
const MEMBER_SUMMARY = 'member @include(if: $includeMember) { id name nickName phoneNumber status }';
const SEGMENT_FIELDS = `id name_en name_th name_cn description_en description_th description_cn type
  rule { tierIds minPoints maxPoints activeWithinDays } createdAt updatedAt`;
const CATEGORY_FIELDS = 'id name_en name_th name_cn createdAt updatedAt';

/** Segments and interests (subgraphs/cluster/DECISIONS.md, Cluster): literal paths (members/:memberId, me, categories) before :id. */
export const SEGMENT_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/segments`,
    document: `query Segments($page: Int, $limit: Int, $search: String, $type: SegmentType, $locale: Locale) {
    segments(page: $page, limit: $limit, search: $search, type: $type, locale: $locale) { ${PAGE_META} data { ${SEGMENT_FIELDS} } } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${BASE}/segments`,
    document: `mutation CreateSegment($input: CreateSegmentInput!) { createSegment(input: $input) { ${SEGMENT_FIELDS} } }`,
    envelope: 'nested',
    message: 'Segment created',
    status: 201,
  },
  {
    method: 'get',
    path: `${BASE}/segments/members/:memberId`,
    document: `query MemberSegments($memberId: ID!, $locale: Locale) { memberSegments(memberId: $memberId, locale: $locale) { id name_en name_th name_cn type } }`,
    envelope: 'nested',
    message: "Member's segments",
  },
  {
    method: 'get',
    path: `${BASE}/segments/:id`,
    document: `query Segment($id: ID!, $locale: Locale) { segment(id: $id, locale: $locale) { ${SEGMENT_FIELDS} memberCount } }`,
    envelope: 'nested',
    message: 'Segment found',
  },
  {
    method: 'put',
    path: `${BASE}/segments/:id`,
    document: `mutation UpdateSegment($id: ID!, $input: UpdateSegmentInput!) { updateSegment(id: $id, input: $input) { ${SEGMENT_FIELDS} } }`,
    envelope: 'nested',
    message: 'Segment updated',
  },
  {
    method: 'delete',
    path: `${BASE}/segments/:id`,
    document: `mutation DeleteSegment($id: ID!) { deleteSegment(id: $id) { id } }`,
    envelope: 'message',
    message: 'Segment deleted',
  },
  {
    method: 'get',
    path: `${BASE}/segments/:id/members`,
    document: `query SegmentMembers($id: ID!, $page: Int, $limit: Int, $includeMember: Boolean = false) {
    segmentMembers(id: $id, page: $page, limit: $limit) { ${PAGE_META} data { memberId addedAt ${MEMBER_SUMMARY} } } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${BASE}/segments/:id/members`,
    document: `mutation AddSegmentMembers($id: ID!, $memberIds: [ID!]!) { addSegmentMembers(id: $id, memberIds: $memberIds) { segmentId changed memberCount } }`,
    variables: ({ params, body }) => ({ id: params.id, memberIds: body.memberIds }),
    envelope: 'nested',
    message: 'Segment members added',
  },
  {
    method: 'post',
    path: `${BASE}/segments/:id/members/remove`,
    document: `mutation RemoveSegmentMembers($id: ID!, $memberIds: [ID!]!) {
    removeSegmentMembers(id: $id, memberIds: $memberIds) { segmentId changed memberCount } }`,
    variables: ({ params, body }) => ({ id: params.id, memberIds: body.memberIds }),
    envelope: 'nested',
    message: 'Segment members removed',
  },
  {
    method: 'get',
    path: `${BASE}/interests/categories`,
    document: `query InterestCategories($locale: Locale) { interestCategories(locale: $locale) { ${CATEGORY_FIELDS} } }`,
    envelope: 'nested',
    message: 'Interest categories',
  },
  {
    method: 'post',
    path: `${BASE}/interests/categories`,
    document: `mutation CreateInterestCategory($input: InterestCategoryInput!) { createInterestCategory(input: $input) { ${CATEGORY_FIELDS} } }`,
    envelope: 'nested',
    message: 'Interest category created',
    status: 201,
  },
  {
    method: 'put',
    path: `${BASE}/interests/categories/:id`,
    document: `mutation UpdateInterestCategory($id: ID!, $input: UpdateInterestCategoryInput!) {
    updateInterestCategory(id: $id, input: $input) { ${CATEGORY_FIELDS} } }`,
    envelope: 'nested',
    message: 'Interest category updated',
  },
  {
    method: 'delete',
    path: `${BASE}/interests/categories/:id`,
    document: `mutation DeleteInterestCategory($id: ID!) { deleteInterestCategory(id: $id) { id } }`,
    envelope: 'message',
    message: 'Interest category deleted',
  },
  {
    method: 'get',
    path: `${BASE}/interests/me`,
    document: `query MyInterests($locale: Locale) { myInterests(locale: $locale) { id name_en name_th name_cn } }`,
    envelope: 'nested',
    message: 'Interests',
  },
  {
    method: 'put',
    path: `${BASE}/interests/me`,
    document: `mutation SetMyInterests($categoryIds: [ID!]!, $locale: Locale) { setMyInterests(categoryIds: $categoryIds, locale: $locale) { id name_en name_th name_cn } }`,
    variables: ({ body, query }) => ({ ...query, categoryIds: body.categoryIds }),
    envelope: 'nested',
    message: 'Interests updated',
  },
  {
    method: 'get',
    path: `${BASE}/interests/members/:memberId`,
    document: `query MemberInterests($memberId: ID!, $locale: Locale) { memberInterests(memberId: $memberId, locale: $locale) { id name_en name_th name_cn } }`,
    envelope: 'nested',
    message: "Member's interests",
  },
];
