import { LegacyRoute } from './legacy';
import { awardVariables, batchAwardFailure, batchAwardVariables, batchOutcomeOf } from '../v1/awards';
import { V1_BASE } from '../../core/rest/route';
import { dateQuery, oneOf, ref } from '../../core/rest/json-schema';
import { MAX_BATCH_AWARDS } from '../v1/awards';
import { BalanceRecord, customerIdOf, LedgerEntry, pointBalanceOf, pointHistoryVariables, pointsTransactionOf } from '../v1/points';

const BASE = `${V1_BASE}/customers/:id/points`;

/**
 * Spec Part 3, loyalty: point reads (a customer token reads its own, staff and API keys need `read`),
 * awards (`write`; batch `admin`; customers never).
 */
export const V1_LOYALTY_ROUTES: LegacyRoute[] = [
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
  {
    method: 'post',
    path: `${BASE}/award`,
    operation: 'V1AwardPoints',
    envelope: 'v1',
    doc: {
      summary: 'Award points (a repeated `transaction_id` answers the first award and awards nothing)',
      input: { omit: ['memberId'] },
      response: ref('PointsTransaction'),
    },
    idempotent: true,
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ params, body, rawBody }) => awardVariables(params, body, rawBody),
    payload: ({ awardPoints }) => pointsTransactionOf(awardPoints),
  },
  {
    method: 'post',
    path: `${V1_BASE}/points/batch-award`,
    operation: 'V1BatchAwardPoints',
    envelope: 'v1',
    doc: {
      summary: `Award points to up to ${MAX_BATCH_AWARDS} customers, each row on its own`,
      input: { rename: { memberId: 'customerId' } },
      response: ref('BatchAwardReport'),
    },
    scope: 'admin',
    idempotent: true,
    variables: ({ body }) => batchAwardVariables(body),
    payload: ({ awardPointsBatch }) => batchOutcomeOf(awardPointsBatch),
    v1Failure: batchAwardFailure,
  },
];
