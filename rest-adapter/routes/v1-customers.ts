import { Route } from '../route';
import { customerIncludes, customerListVariables, customerOf, LIST_INCLUDES, MemberRecord } from '../v1/customers';
import { V1_BASE } from '../v1/envelope';

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
    variables: ({ params, query }) => ({ id: params.id, includePoints: customerIncludes(query.include).has('points') }),
    payload: ({ member, earned, redeemed }, { query }) => customerOf(member, customerIncludes(query.include), { earned, redeemed }),
  },
];
