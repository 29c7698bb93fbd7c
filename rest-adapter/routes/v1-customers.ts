import { Route } from '../route';
import { customerIncludes, customerListVariables, customerOf, LIST_INCLUDES, MemberRecord } from '../v1/customers';
import { V1_BASE } from '../v1/envelope';
import { dateQuery, oneOf, ref, string } from '../v1/openapi-schemas';

const INCLUDE = string({ description: 'comma list of points, tier' });

const BASE = `${V1_BASE}/customers`;

/** Spec Part 3, customers (reads). `/me` before `/:id`. */
export const V1_CUSTOMER_ROUTES: Route[] = [
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
        search: string({ description: 'name, phone or chat-app nickname' }),
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
    variables: ({ query }) => ({ includePoints: customerIncludes(query.include).has('points') }),
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
    variables: ({ params, query }) => ({ id: params.id, includePoints: customerIncludes(query.include).has('points') }),
    payload: ({ member, earned, redeemed }, { query }) => customerOf(member, customerIncludes(query.include), { earned, redeemed }),
  },
];
