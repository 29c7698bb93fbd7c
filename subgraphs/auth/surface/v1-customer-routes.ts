import { Route, V1_BASE } from '../../../core/rest/route';
import { CUSTOMER_FIELDS, CUSTOMER_FIELDS_BESIDE_POINTS, customerOf, MemberRecord, withBalance } from './v1-customer';
import { conflictOnField, notFoundByField } from '../../../core/rest/failures';
import { dateQuery, oneOf, ref, string } from '../../../core/rest/json-schema';
import { CHATAPP_CODE_BODY } from './components';
import { customerIncludes, customerListVariables, LIST_INCLUDES } from './v1-customers';

/** `include=rewards`: the member's newest 100 reward codes (claims) with their reward's names. */
const REWARDS = `rewardCodes(page: 1, limit: 100) @include(if: $includeRewards) { data { id status reward { id name_en name_th name_cn } } }`;

/** `include=campaigns`: the member's newest 100 participations with their campaigns (campaign subgraph). */
const CAMPAIGNS = `campaignParticipations @include(if: $includeCampaigns) { id status joinedAt progress { current target percentage } campaign { id name type status } }`;

const INCLUDE = string({ description: 'comma list of points, tier, rewards, campaigns' });

const BASE = `${V1_BASE}/customers`;
/** A 409 naming a field: an email, phone or chat-app identity another customer holds. */
const duplicate = conflictOnField('DUPLICATE');

/** A single customer's include flags: what the operation fetches only when asked. */
const includeFlags = (raw: unknown) => {
  const includes = customerIncludes(raw);
  return { includePoints: includes.has('points'), includeRewards: includes.has('rewards'), includeCampaigns: includes.has('campaigns') };
};

/** Spec Part 3, customers. `/me` before `/:id`. */
export const V1_CUSTOMER_ROUTES: Route[] = [
  {
    method: 'get',
    path: BASE,
    document: `query V1Customers($page: Int, $limit: Int, $search: String, $statusIn: [MemberStatus!], $createdFrom: String,
      $createdTo: String, $sortBy: MemberSortBy, $sortOrder: MemberSortOrder, $tier: String) {
      members(page: $page, limit: $limit, search: $search, statusIn: $statusIn, createdFrom: $createdFrom, createdTo: $createdTo,
        sortBy: $sortBy, sortOrder: $sortOrder, tier: $tier) { meta { page limit total totalPages } data { ${CUSTOMER_FIELDS} } } }`,
    envelope: 'v1List',
    pageCounts: true,
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: 'List customers',
      query: {
        sort: string({ description: 'field:asc or field:desc; field one of created_at, updated_at, name (default created_at:desc)' }),
        'filter[status]': oneOf('active', 'inactive'),
        'filter[tier]': string({ description: 'a tier name (any language) or id' }),
        search: string({ description: 'name, e-mail, phone or chat-app nickname' }),
        date_from: dateQuery('created at or after'),
        date_to: dateQuery('created at or before (a bare date covers its day)'),
        include: string({ description: 'tier' }),
      },
      response: ref('Customer'),
    },
    variables: ({ query }) => customerListVariables(query),
    payload: ({ members }, { query }) => ({ ...members, data: members.data.map((member: MemberRecord) => customerOf(member, customerIncludes(query.include, LIST_INCLUDES))) }),
  },
  {
    method: 'get',
    path: `${BASE}/me`,
    document: `query V1CurrentCustomer($includePoints: Boolean = false, $includeRewards: Boolean = false, $includeCampaigns: Boolean = false) {
      currentMember { ${CUSTOMER_FIELDS_BESIDE_POINTS} ${REWARDS} ${CAMPAIGNS} }
      balance: myPointBalance @include(if: $includePoints) { pointAmount }
      earned: myPointBalance(format: earn) @include(if: $includePoints) { pointAmount }
      redeemed: myPointBalance(format: burn) @include(if: $includePoints) { pointAmount } }`,
    envelope: 'v1',
    customer: 'self',
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'The calling customer', query: { include: INCLUDE }, response: ref('Customer') },
    variables: ({ query }) => includeFlags(query.include),
    payload: ({ currentMember, balance, earned, redeemed }, { query }) => customerOf(withBalance(currentMember, balance), customerIncludes(query.include), { earned, redeemed }),
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    document: `query V1Customer($id: ID!, $includePoints: Boolean = false, $includeRewards: Boolean = false, $includeCampaigns: Boolean = false) {
      member(id: $id) { ${CUSTOMER_FIELDS_BESIDE_POINTS} ${REWARDS} ${CAMPAIGNS} }
      balance: pointBalance(memberId: $id) @include(if: $includePoints) { pointAmount }
      earned: pointBalance(memberId: $id, format: earn) @include(if: $includePoints) { pointAmount }
      redeemed: pointBalance(memberId: $id, format: burn) @include(if: $includePoints) { pointAmount } }`,
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'One customer', query: { include: INCLUDE }, response: ref('Customer') },
    variables: ({ params, query }) => ({ id: params.id, ...includeFlags(query.include) }),
    payload: ({ member, balance, earned, redeemed }, { query }) => customerOf(withBalance(member, balance), customerIncludes(query.include), { earned, redeemed }),
  },
  {
    method: 'post',
    path: BASE,
    document: `mutation V1CreateCustomer($input: CreateCustomerInput!) {
      createCustomer(input: $input) { member { ${CUSTOMER_FIELDS} } } }`,
    envelope: 'v1',
    // 200, as Part 3's table answers it (Part 3 wins over the contract's general 201 for creations).
    doc: { summary: 'Create a customer (in the lowest active tier; `chatapp.code` links the chat-app identity)', response: ref('Customer') },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: duplicate,
    // The tier is the cluster's entry tier until the cluster places the customer on customer.created.
    payload: ({ createCustomer }) => customerOf(createCustomer.member, new Set()),
  },
  {
    method: 'patch',
    path: `${BASE}/:id`,
    document: `mutation V1UpdateCustomer($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(id: $id, input: $input) { ${CUSTOMER_FIELDS} } }`,
    envelope: 'v1',
    doc: { summary: 'Update a customer\'s profile (fields left out stay, null clears)', response: ref('Customer') },
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: duplicate,
    payload: ({ updateCustomer }) => customerOf(updateCustomer, new Set()),
  },
  {
    method: 'delete',
    path: `${BASE}/:id`,
    document: 'mutation V1DeleteCustomer($id: ID!) { deleteCustomer(id: $id) { id deletedAt } }',
    envelope: 'v1',
    doc: { summary: 'Delete a customer: its personal data is erased, its sessions end, customer.deleted is sent (a second delete is 404)' },
    status: 204,
    scope: 'admin',
    notFound: 'CUSTOMER_NOT_FOUND',
  },
  {
    method: 'post',
    path: `${BASE}/:id/chatapp/link`,
    document: `mutation V1LinkCustomerChatapp($id: ID!, $code: String, $appId: String) {
      linkCustomerChatapp(id: $id, code: $code, appId: $appId) { ${CUSTOMER_FIELDS} } }`,
    envelope: 'v1',
    doc: {
      summary: 'Link a chat-app identity to the customer',
      bodyVariables: CHATAPP_CODE_BODY,
      response: ref('Customer'),
      errors: { 503: { SERVICE_UNAVAILABLE: 'the chat-app provider did not answer' } },
    },
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: duplicate,
    unauthenticated: 'INVALID_CODE',
    variables: ({ params, body }) => ({ id: params.id, code: body.code, appId: body.appId }),
    payload: ({ linkCustomerChatapp }) => customerOf(linkCustomerChatapp, new Set()),
  },
  {
    // The cluster's tier change, answered as the customer it changed. Both variants of Part 3: `tier` (a name, customers table) or `tier_id` (loyalty table); staff only.
    method: 'patch',
    path: `${BASE}/:id/tier`,
    document: `mutation V1ChangeCustomerTier($id: ID!, $input: ChangeCustomerTierInput!) {
      changeCustomerTier(id: $id, input: $input) { member { ${CUSTOMER_FIELDS} } } }`,
    envelope: 'v1',
    doc: { summary: 'Change a customer\'s tier by name (`tier`) or id (`tier_id`), with the `reason` kept in its history', response: ref('Customer') },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: notFoundByField({ tier: 'TIER_NOT_FOUND', tierId: 'TIER_NOT_FOUND' }),
    payload: ({ changeCustomerTier }) => customerOf(changeCustomerTier.member, new Set(['tier'])),
  },
];
