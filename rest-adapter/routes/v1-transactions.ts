import { Route } from '../route';
import { V1_BASE } from '../v1/envelope';
import { InteractionRecord, interactionOf, interactionVariables, PurchaseRecord, transactionIdOf, transactionListVariables, transactionOf } from '../v1/transactions';

const BASE = `${V1_BASE}/transactions`;

/**
 * Contract section 5, transactions (purchases), and Part 3's customer interactions. Recording and
 * refunding need `write` (customer tokens 403); a customer token reads its own interactions.
 */
export const V1_TRANSACTION_ROUTES: Route[] = [
  {
    method: 'post',
    path: BASE,
    operation: 'V1RecordTransaction',
    envelope: 'v1',
    status: 201,
    notFound: 'CUSTOMER_NOT_FOUND',
    variables: ({ body }) => ({ input: body }),
    payload: ({ recordPurchase }) => transactionOf(recordPurchase as PurchaseRecord),
  },
  {
    method: 'post',
    path: `${BASE}/:id/refund`,
    operation: 'V1RefundTransaction',
    envelope: 'v1',
    notFound: 'TRANSACTION_NOT_FOUND',
    variables: ({ params, body }) => ({ id: transactionIdOf(params), input: body }),
    payload: ({ refundPurchase }) => transactionOf(refundPurchase as PurchaseRecord),
  },
  {
    method: 'get',
    path: BASE,
    operation: 'V1Transactions',
    envelope: 'v1List',
    variables: ({ query }) => transactionListVariables(query),
    payload: ({ purchases }) => ({ ...purchases, data: purchases.data.map((purchase: PurchaseRecord) => transactionOf(purchase)) }),
  },
  {
    method: 'get',
    path: `${BASE}/:id`,
    operation: 'V1Transaction',
    envelope: 'v1',
    notFound: 'TRANSACTION_NOT_FOUND',
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
    variables: ({ params, query }) => interactionVariables(params, query),
    payload: ({ interactions }) => ({ ...interactions, data: interactions.data.map((interaction: InteractionRecord) => interactionOf(interaction)) }),
  },
];
