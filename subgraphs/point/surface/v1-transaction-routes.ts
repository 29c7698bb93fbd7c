import { Route, V1_BASE } from '../../../core/rest/route';
import { dateQuery, id, oneOf, ref, string } from '../../../core/rest/json-schema';
import { InteractionRecord, interactionOf, interactionVariables, PurchaseRecord, transactionIdOf, transactionListVariables, transactionOf } from './v1-transactions';

const BASE = `${V1_BASE}/transactions`;
const PURCHASE = 'id memberId amount storeId category externalId occurredAt status pointsEarned refundedAmount pointsReversed pointsUnrecovered createdAt';

/**
 * Contract section 5, transactions (purchases), and Part 3's customer interactions. Recording and
 * refunding need `write` (customer tokens 403); a customer token reads its own interactions.
 */
export const V1_TRANSACTION_ROUTES: Route[] = [
  {
    method: 'post',
    path: BASE,
    document: `mutation V1RecordTransaction($input: RecordPurchaseInput!, $idempotencyKey: String) { recordPurchase(input: $input, idempotencyKey: $idempotencyKey) { ${PURCHASE} } }`,
    envelope: 'v1',
    status: 201,
    idempotent: true,
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: "Records a customer's purchase and earns its points by the store's rule; a known external_id answers the first transaction",
      response: ref('Transaction'),
    },
    payload: ({ recordPurchase }) => transactionOf(recordPurchase as PurchaseRecord),
  },
  {
    method: 'post',
    path: `${BASE}/:id/refund`,
    document: `mutation V1RefundTransaction($id: ID!, $input: RefundPurchaseInput, $idempotencyKey: String) {
    refundPurchase(id: $id, input: $input, idempotencyKey: $idempotencyKey) { ${PURCHASE} } }`,
    envelope: 'v1',
    idempotent: true,
    notFound: 'TRANSACTION_NOT_FOUND',
    doc: {
      summary: 'Refunds a transaction in part or in whole; its points are taken back in proportion (409 INVALID_STATE past what remains)',
      response: ref('Transaction'),
    },
    variables: ({ params, body }) => ({ id: transactionIdOf(params), input: body }),
    payload: ({ refundPurchase }) => transactionOf(refundPurchase as PurchaseRecord),
  },
  {
    method: 'get',
    path: BASE,
    document: `query V1Transactions($page: Int, $limit: Int, $customerId: ID, $status: PurchaseStatus, $storeId: String, $dateFrom: String, $dateTo: String) {
    purchases(page: $page, limit: $limit, customerId: $customerId, status: $status, storeId: $storeId, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { ${PURCHASE} } } }`,
    envelope: 'v1List',
    doc: {
      summary: 'Transactions, newest purchase first',
      query: {
        customer_id: id(),
        status: oneOf('completed', 'partially_refunded', 'refunded'),
        store_id: string(),
        date_from: dateQuery('purchases at or after'),
        date_to: dateQuery('purchases at or before (a bare date covers its day)'),
      },
      response: ref('Transaction'),
    },
    variables: ({ query }) => transactionListVariables(query),
    payload: ({ purchases }) => ({ ...purchases, data: purchases.data.map((purchase: PurchaseRecord) => transactionOf(purchase)) }),
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    document: `query V1Transaction($id: ID!) { purchase(id: $id) { ${PURCHASE} } }`,
    envelope: 'v1',
    notFound: 'TRANSACTION_NOT_FOUND',
    doc: { summary: 'One transaction', response: ref('Transaction') },
    variables: ({ params }) => ({ id: transactionIdOf(params) }),
    payload: ({ purchase }) => transactionOf(purchase as PurchaseRecord),
  },
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/interactions`,
    document: `query V1CustomerInteractions($id: ID!, $page: Int, $limit: Int, $type: String, $dateFrom: String, $dateTo: String) {
    member(id: $id) { id }
    interactions: memberInteractions(memberId: $id, page: $page, limit: $limit, type: $type, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { id type channel description amount pointsEarned createdAt } } }`,
    envelope: 'v1List',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: {
      summary: "A customer's purchases (through the API or approved receipts), refunds, bookings, visits (check-ins) and campaign joins, newest first",
      query: {
        type: oneOf('purchase', 'refund', 'booking', 'visit', 'click', 'campaign_joined'),
        date_from: dateQuery('at or after'),
        date_to: dateQuery('at or before (a bare date covers its day)'),
      },
      response: ref('Interaction'),
    },
    variables: ({ params, query }) => interactionVariables(params, query),
    payload: ({ interactions }) => ({ ...interactions, data: interactions.data.map((interaction: InteractionRecord) => interactionOf(interaction)) }),
  },
];
