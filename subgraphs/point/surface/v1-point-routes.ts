import { Route, V1_BASE } from '../../../core/rest/route';
import { customerIdOf, pathIdOf } from '../../../core/rest/path-ids';
import { dateQuery, oneOf, ref } from '../../../core/rest/json-schema';
import { MAX_BATCH_AWARDS } from '../types/award.types';
import { awardVariables, batchAwardFailure, batchAwardVariables, batchOutcomeOf } from './v1-awards';
import { BalanceRecord, HeldRecord, LedgerEntry, pendingPointsOf, pointBalanceOf, pointHistoryVariables, pointsTransactionOf } from './v1-points';

const BASE = `${V1_BASE}/customers/:id/points`;
const LEDGER_ENTRY = 'id memberId actionType amount note balanceAfter createdAt';
const HELD = 'id memberId amount originalAmount sourceType sourceId referenceId activatesAt status earnEntryId createdAt settledAt';

/** A route that runs one mutation of a hold named by the path and answers the hold. */
const pendingChange = (path: string, mutation: string, summary: string): Route => ({
  method: 'post',
  path: `${V1_BASE}/points/pending/:id/${path}`,
  document: `mutation V1${mutation[0].toUpperCase()}${mutation.slice(1)}($id: ID!) { ${mutation}(id: $id) { ${HELD} } }`,
  envelope: 'v1',
  notFound: 'PENDING_POINTS_NOT_FOUND',
  doc: { summary, response: ref('PendingPoints') },
  variables: ({ params }) => ({ id: pathIdOf(params, 'pending points') }),
  payload: (data) => pendingPointsOf(data[mutation] as HeldRecord),
});

/**
 * Spec Part 3, loyalty points: point reads (a customer token reads its own, staff and API keys need `read`)
 * and awards (`write`; batch `admin`; customers never).
 */
export const V1_POINT_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/balance`,
    document: `query V1PointBalance($id: ID!) { member(id: $id) { id pointBalance }
    current: pointBalance(memberId: $id) { pendingAmount }
    earned: pointBalance(memberId: $id, format: earn) { pointAmount }
    redeemed: pointBalance(memberId: $id, format: burn) { pointAmount }
    expiration: nextPointExpiration(memberId: $id) { points expiresAt } }`,
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: 'A customer\'s point balance, points held (pending), lifetime sums and next expiry', response: ref('PointBalance') },
    variables: ({ params }) => ({ id: customerIdOf(params) }),
    payload: (data) => pointBalanceOf(data as BalanceRecord),
  },
  {
    method: 'get',
    path: `${BASE}/history`,
    document: `query V1PointHistory($id: ID!, $page: Int, $limit: Int, $startDate: String, $endDate: String, $actionType: PointActionType) {
    member(id: $id) { id }
    history: memberPointHistory(memberId: $id, page: $page, limit: $limit, startDate: $startDate, endDate: $endDate, actionType: $actionType) {
      meta { page limit total } data { ${LEDGER_ENTRY} } } }`,
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
    document: `mutation V1AwardPoints($input: PointAwardInput!, $idempotencyKey: String) {
    awardPoints(input: $input, idempotencyKey: $idempotencyKey) { ${LEDGER_ENTRY} } }`,
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
    method: 'get',
    path: `${BASE}/pending`,
    document: `query V1PendingPoints($memberId: ID!, $page: Int, $limit: Int, $status: PendingPointsStatus) {
    member(id: $memberId) { id }
    pending: memberPendingPoints(memberId: $memberId, page: $page, limit: $limit, status: $status) { meta { page limit total } data { ${HELD} } } }`,
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: "A customer's held points, newest first", query: { status: oneOf('pending', 'activated', 'cancelled') }, response: ref('PendingPoints') },
    variables: ({ params, query }) => ({ memberId: customerIdOf(params), page: query.page, limit: query.limit, status: query.status }),
    payload: ({ pending }) => ({ ...pending, data: pending.data.map((held: HeldRecord) => pendingPointsOf(held)) }),
  },
  pendingChange('activate', 'activatePendingPoints', 'Activates held points now (early): they become spendable and count toward tiers (409 INVALID_STATE unless pending)'),
  pendingChange('cancel', 'cancelPendingPoints', 'Cancels held points (409 INVALID_STATE unless pending)'),
  {
    method: 'post',
    path: `${V1_BASE}/points/batch-award`,
    document: `mutation V1BatchAwardPoints($input: PointBatchAwardInput!, $idempotencyKey: String) {
    awardPointsBatch(input: $input, idempotencyKey: $idempotencyKey) { processed failed results { memberId success transactionId error { code message } } } }`,
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
