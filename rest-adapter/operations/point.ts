/** The GraphQL documents behind the /point/api routes; CI validates each against the supergraph. */

const TRANSACTION_FIELDS = `id memberId actionType amount purchaseAmount shopId categoryId note sourceBy balanceAfter createdAt updatedAt`;
const MEMBER_SUMMARY = 'member @include(if: $includeMember) { id name nickName phoneNumber status }';
const PAGE_META = 'meta { page limit total totalPages }';
const HISTORY_FILTERS = '$page: Int, $limit: Int, $startDate: String, $endDate: String, $actionType: PointActionType, $sourceBy: PointSource, $includeMember: Boolean = false';
const HISTORY_ARGS = 'page: $page, limit: $limit, startDate: $startDate, endDate: $endDate, actionType: $actionType, sourceBy: $sourceBy';

export const POINT_OPERATIONS = {
  MyPointBalance: `query MyPointBalance($start: String, $end: String, $format: BalanceFormat) {
    myPointBalance(start: $start, end: $end, format: $format) { memberId pointAmount purchaseAmount } }`,
  PointBalance: `query PointBalance($memberId: ID!, $start: String, $end: String, $format: BalanceFormat) {
    pointBalance(memberId: $memberId, start: $start, end: $end, format: $format) { memberId pointAmount purchaseAmount } }`,
  EarnPoints: `mutation EarnPoints($input: PointMovementInput!, $idempotencyKey: String) {
    earnPoints(input: $input, idempotencyKey: $idempotencyKey) { ${TRANSACTION_FIELDS} } }`,
  SpendPoints: `mutation SpendPoints($input: PointMovementInput!, $idempotencyKey: String) {
    spendPoints(input: $input, idempotencyKey: $idempotencyKey) { ${TRANSACTION_FIELDS} } }`,
  PointHistory: `query PointHistory($memberIds: [ID!], ${HISTORY_FILTERS}) {
    pointHistory(memberIds: $memberIds, ${HISTORY_ARGS}) { ${PAGE_META} data { ${TRANSACTION_FIELDS} ${MEMBER_SUMMARY} } } }`,
  MyPointHistory: `query MyPointHistory(${HISTORY_FILTERS}) {
    myPointHistory(${HISTORY_ARGS}) { ${PAGE_META} data { ${TRANSACTION_FIELDS} ${MEMBER_SUMMARY} } } }`,
  PointDailySummary: `query PointDailySummary($startDate: String, $endDate: String) {
    pointDailySummary(startDate: $startDate, endDate: $endDate) { date earned spent expired netChange } }`,
};
