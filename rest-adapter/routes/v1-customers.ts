import { LegacyRoute } from './legacy';
import { CHATAPP_CODE_BODY } from '../../subgraphs/auth/surface/components';
import { validationError } from '../../core/errors';
import { isRecordId } from '../../core/ids';
import { customerIncludes, customerListVariables, customerOf, LIST_INCLUDES, MemberRecord, segmentOf } from '../v1/customers';
import { V1_BASE } from '../../core/rest/route';
import { conflictOnField, notFoundByField } from '../../core/rest/failures';
import { arrayOf, dateQuery, oneOf, ref, string } from '../../core/rest/json-schema';

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
export const V1_CUSTOMER_ROUTES: LegacyRoute[] = [
  {
    method: 'get',
    path: BASE,
    operation: 'V1Customers',
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
    operation: 'V1CurrentCustomer',
    envelope: 'v1',
    customer: 'self',
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'The calling customer', query: { include: INCLUDE }, response: ref('Customer') },
    variables: ({ query }) => includeFlags(query.include),
    payload: ({ currentMember, earned, redeemed }, { query }) => customerOf(currentMember, customerIncludes(query.include), { earned, redeemed }),
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    operation: 'V1Customer',
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'One customer', query: { include: INCLUDE }, response: ref('Customer') },
    variables: ({ params, query }) => ({ id: params.id, ...includeFlags(query.include) }),
    payload: ({ member, earned, redeemed }, { query }) => customerOf(member, customerIncludes(query.include), { earned, redeemed }),
  },
  {
    method: 'post',
    path: BASE,
    operation: 'V1CreateCustomer',
    envelope: 'v1',
    // 200, as Part 3's table answers it (Part 3 wins over the contract's general 201 for creations).
    doc: { summary: 'Create a customer (in the lowest active tier; `chatapp.code` links the chat-app identity)', response: ref('Customer') },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: duplicate,
    // The tier the customer starts in is the one the creation read; the cluster places the customer there on customer.created.
    payload: ({ createCustomer }) => customerOf(createCustomer.member, new Set()),
  },
  {
    method: 'patch',
    path: `${BASE}/:id`,
    operation: 'V1UpdateCustomer',
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
    operation: 'V1DeleteCustomer',
    envelope: 'v1',
    doc: { summary: 'Delete a customer: its personal data is erased, its sessions end, customer.deleted is sent (a second delete is 404)' },
    status: 204,
    scope: 'admin',
    notFound: 'CUSTOMER_NOT_FOUND',
  },
  {
    // Both variants of Part 3: `tier` (a name, customers table) or `tier_id` (loyalty table); staff only.
    method: 'patch',
    path: `${BASE}/:id/tier`,
    operation: 'V1ChangeCustomerTier',
    envelope: 'v1',
    doc: { summary: 'Change a customer\'s tier by name (`tier`) or id (`tier_id`), with the `reason` kept in its history', response: ref('Customer') },
    notFound: 'CUSTOMER_NOT_FOUND',
    v1Failure: notFoundByField({ tier: 'TIER_NOT_FOUND', tierId: 'TIER_NOT_FOUND' }),
    payload: ({ changeCustomerTier }) => customerOf(changeCustomerTier.member, new Set(['tier'])),
  },
  {
    method: 'post',
    path: `${BASE}/:id/chatapp/link`,
    operation: 'V1LinkCustomerChatapp',
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
    // Staff and keys with segment:read; a customer its own (contract section 2: `/customers/{own id}/...`).
    method: 'get',
    path: `${BASE}/:id/segments`,
    operation: 'V1CustomerSegments',
    envelope: 'v1',
    customer: { param: 'id' },
    doc: { summary: 'The segments a customer belongs to', response: arrayOf(ref('Segment')) },
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params }) => {
      // Checked here: the segment query would name its own argument, not the path's id.
      if (!isRecordId(params.id)) throw validationError([{ field: 'id', message: 'id is not a customer id' }]);
      return { id: params.id };
    },
    payload: ({ memberSegments }) => memberSegments.map(segmentOf),
  },
];
