/** The GraphQL documents behind the /api/v1 transaction and interaction routes; CI validates each against the supergraph. */

const PURCHASE = 'id memberId amount storeId category externalId occurredAt status pointsEarned refundedAmount pointsReversed pointsUnrecovered createdAt';

export const V1_TRANSACTION_OPERATIONS = {
  V1RecordTransaction: `mutation V1RecordTransaction($input: RecordPurchaseInput!, $idempotencyKey: String) { recordPurchase(input: $input, idempotencyKey: $idempotencyKey) { ${PURCHASE} } }`,
  V1RefundTransaction: `mutation V1RefundTransaction($id: ID!, $input: RefundPurchaseInput, $idempotencyKey: String) {
    refundPurchase(id: $id, input: $input, idempotencyKey: $idempotencyKey) { ${PURCHASE} } }`,
  V1Transaction: `query V1Transaction($id: ID!) { purchase(id: $id) { ${PURCHASE} } }`,
  V1Transactions: `query V1Transactions($page: Int, $limit: Int, $customerId: ID, $status: PurchaseStatus, $storeId: String, $dateFrom: String, $dateTo: String) {
    purchases(page: $page, limit: $limit, customerId: $customerId, status: $status, storeId: $storeId, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { ${PURCHASE} } } }`,
  V1CustomerInteractions: `query V1CustomerInteractions($id: ID!, $page: Int, $limit: Int, $type: String, $dateFrom: String, $dateTo: String) {
    member(id: $id) { id }
    interactions: memberInteractions(memberId: $id, page: $page, limit: $limit, type: $type, dateFrom: $dateFrom, dateTo: $dateTo) {
      meta { page limit total } data { id type channel description amount pointsEarned createdAt } } }`,
};
