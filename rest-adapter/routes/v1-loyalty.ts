import { Route } from '../route';
import { V1_BASE } from '../v1/envelope';
import { dateQuery, oneOf, ref } from '../v1/openapi-schemas';
import { BalanceRecord, customerIdOf, LedgerEntry, pointBalanceOf, pointHistoryVariables, pointsTransactionOf } from '../v1/points';

const BASE = `${V1_BASE}/customers/:id/points`;

/** Spec Part 3, loyalty (point reads): a customer token reads its own, staff and API keys need `read`. */
export const V1_LOYALTY_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/balance`,
    operation: 'V1PointBalance',
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'A customer\'s point balance, lifetime sums and next expiry', response: ref('PointBalance') },
    variables: ({ params }) => ({ id: customerIdOf(params) }),
    payload: (data) => pointBalanceOf(data as BalanceRecord),
  },
  {
    method: 'get',
    path: `${BASE}/history`,
    operation: 'V1PointHistory',
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: 'A customer\'s points transactions, newest first',
      query: { type: oneOf('earned', 'redeemed', 'expired'), date_from: dateQuery('at or after'), date_to: dateQuery('at or before (a bare date covers its day)') },
      response: ref('PointsTransaction'),
    },
    variables: ({ params, query }) => pointHistoryVariables(params, query),
    payload: ({ history }) => ({ ...history, data: history.data.map((entry: LedgerEntry) => pointsTransactionOf(entry)) }),
  },
];
