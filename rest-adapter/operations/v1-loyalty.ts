/** The GraphQL documents behind the /api/v1 loyalty routes; CI validates each against the supergraph. */

const LEDGER_ENTRY = 'id memberId actionType amount note balanceAfter createdAt';

export const V1_LOYALTY_OPERATIONS = {
  V1PointBalance: `query V1PointBalance($id: ID!) { member(id: $id) { id pointBalance }
    earned: pointBalance(memberId: $id, format: earn) { pointAmount }
    redeemed: pointBalance(memberId: $id, format: burn) { pointAmount }
    expiration: nextPointExpiration(memberId: $id) { points expiresAt } }`,
  V1PointHistory: `query V1PointHistory($id: ID!, $page: Int, $limit: Int, $startDate: String, $endDate: String, $actionType: PointActionType) {
    member(id: $id) { id }
    history: memberPointHistory(memberId: $id, page: $page, limit: $limit, startDate: $startDate, endDate: $endDate, actionType: $actionType) {
      meta { page limit total } data { ${LEDGER_ENTRY} } } }`,
  V1AwardPoints: `mutation V1AwardPoints($input: PointAwardInput!, $idempotencyKey: String) {
    awardPoints(input: $input, idempotencyKey: $idempotencyKey) { ${LEDGER_ENTRY} } }`,
  V1BatchAwardPoints: `mutation V1BatchAwardPoints($input: PointBatchAwardInput!, $idempotencyKey: String) {
    awardPointsBatch(input: $input, idempotencyKey: $idempotencyKey) { processed failed results { memberId success transactionId error { code message } } } }`,
};
