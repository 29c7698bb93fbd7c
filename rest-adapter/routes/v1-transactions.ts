import { LegacyRoute } from './legacy';
import { V1_BASE } from '../../core/rest/route';
import { dateQuery, id, oneOf, ref, string } from '../../core/rest/json-schema';
import { InteractionRecord, interactionOf, interactionVariables, PurchaseRecord, transactionIdOf, transactionListVariables, transactionOf } from '../v1/transactions';

const BASE = `${V1_BASE}/transactions`;

/**
 * Contract section 5, transactions (purchases), and Part 3's customer interactions. Recording and
 * refunding need `write` (customer tokens 403); a customer token reads its own interactions.
 */
export const V1_TRANSACTION_ROUTES: LegacyRoute[] = [
  {
    method: 'post',
    path: BASE,
    operation: 'V1RecordTransaction',
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
    operation: 'V1RefundTransaction',
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
    operation: 'V1Transactions',
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
    operation: 'V1Transaction',
    envelope: 'v1',
    notFound: 'TRANSACTION_NOT_FOUND',
    doc: { summary: 'One transaction', response: ref('Transaction') },
    variables: ({ params }) => ({ id: transactionIdOf(params) }),
    payload: ({ purchase }) => transactionOf(purchase as PurchaseRecord),
  },
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/interactions`,
    operation: 'V1CustomerInteractions',
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
