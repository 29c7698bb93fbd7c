/** The GraphQL documents behind the /point/api routes; CI validates each against the supergraph. */

const TRANSACTION_FIELDS = `id memberId actionType amount purchaseAmount shopId categoryId note sourceBy balanceAfter createdAt updatedAt`;
const MEMBER_SUMMARY = 'member @include(if: $includeMember) { id name nickName phoneNumber status }';
const PAGE_META = 'meta { page limit total totalPages }';
const REQUEST_TICKET_FIELDS = `id memberId actionType amount purchaseAmount shopId categoryId status requestReason reviewReason
  requestedById reviewedById createdAt updatedAt reviewedAt`;
const HISTORY_FILTERS = '$page: Int, $limit: Int, $startDate: String, $endDate: String, $actionType: PointActionType, $sourceBy: PointSource, $includeMember: Boolean = false';
const HISTORY_ARGS = 'page: $page, limit: $limit, startDate: $startDate, endDate: $endDate, actionType: $actionType, sourceBy: $sourceBy';

const SHOP_RULE_FIELDS = `id shopId name_en name_th name_cn description_en description_th description_cn conversionRate isFixed isActive
  createdAt updatedAt`;
const RECEIPT_FIELDS = `id memberId status receiptImageUrl money pointRuleId reviewReason reviewById shopId categoryId receiptId
  pointTransactionId createdAt updatedAt`;
const RECEIPT_EXTRAS = `${MEMBER_SUMMARY} pointRule(locale: $locale) @include(if: $includeShopRule) { ${SHOP_RULE_FIELDS} }`;
const RECEIPT_EXTRA_FLAGS = '$includeMember: Boolean = false, $includeShopRule: Boolean = false, $locale: Locale';

export const POINT_OPERATIONS = {
  MyPointBalance: `query MyPointBalance($start: String, $end: String, $format: BalanceFormat) {
    myPointBalance(start: $start, end: $end, format: $format) { memberId pointAmount purchaseAmount } }`,
  PointBalance: `query PointBalance($memberId: ID!, $start: String, $end: String, $format: BalanceFormat) {
    pointBalance(memberId: $memberId, start: $start, end: $end, format: $format) { memberId pointAmount purchaseAmount } }`,
  EarnPoints: `mutation EarnPoints($input: PointMovementInput!, $idempotencyKey: String) {
    earnPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
  SpendPoints: `mutation SpendPoints($input: PointMovementInput!, $idempotencyKey: String) {
    spendPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
  PointHistory: `query PointHistory($memberIds: [ID!], ${HISTORY_FILTERS}) {
    pointHistory(memberIds: $memberIds, ${HISTORY_ARGS}) { ${PAGE_META} data { ${TRANSACTION_FIELDS} ${MEMBER_SUMMARY} } } }`,
  MyPointHistory: `query MyPointHistory(${HISTORY_FILTERS}) {
    myPointHistory(${HISTORY_ARGS}) { ${PAGE_META} data { ${TRANSACTION_FIELDS} ${MEMBER_SUMMARY} } } }`,
  PointDailySummary: `query PointDailySummary($startDate: String, $endDate: String) {
    pointDailySummary(startDate: $startDate, endDate: $endDate) { date earned spent expired netChange } }`,
  RequestEarnPoints: `mutation RequestEarnPoints($input: PointRequestInput!, $idempotencyKey: String) {
    requestEarnPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
  RequestSpendPoints: `mutation RequestSpendPoints($input: PointRequestInput!, $idempotencyKey: String) {
    requestSpendPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
  ReviewPointRequest: `mutation ReviewPointRequest($id: ID!, $input: PointRequestReviewInput!) {
    reviewPointRequest(id: $id, input: $input) { id } }`,
  PointRequestTickets: `query PointRequestTickets($page: Int, $limit: Int, $status: PointRequestStatus, $actionType: PointRequestActionType) {
    pointRequestTickets(page: $page, limit: $limit, status: $status, actionType: $actionType) { ${PAGE_META} data { ${REQUEST_TICKET_FIELDS} } } }`,
  PointRequestTicket: `query PointRequestTicket($id: ID!) { pointRequestTicket(id: $id) { ${REQUEST_TICKET_FIELDS} } }`,
  // Shop point rules
  PointShopRules: `query PointShopRules($page: Int, $limit: Int, $search: String, $locale: Locale) {
    pointShopRules(page: $page, limit: $limit, search: $search, locale: $locale) { ${PAGE_META} data { ${SHOP_RULE_FIELDS} } } }`,
  DefaultPointShopRule: `query DefaultPointShopRule($locale: Locale) { defaultPointShopRule(locale: $locale) { ${SHOP_RULE_FIELDS} } }`,
  PointShopRule: `query PointShopRule($id: ID!, $locale: Locale) { pointShopRule(id: $id, locale: $locale) { ${SHOP_RULE_FIELDS} } }`,
  CreatePointShopRule: `mutation CreatePointShopRule($input: CreatePointShopRuleInput!) { createPointShopRule(input: $input) { ${SHOP_RULE_FIELDS} } }`,
  UpdatePointShopRule: `mutation UpdatePointShopRule($id: ID!, $input: UpdatePointShopRuleInput!) {
    updatePointShopRule(id: $id, input: $input) { ${SHOP_RULE_FIELDS} } }`,
  DeletePointShopRule: `mutation DeletePointShopRule($id: ID!) { deletePointShopRule(id: $id) { ${SHOP_RULE_FIELDS} } }`,
  // Receipt verification
  SubmitReceiptVerification: `mutation SubmitReceiptVerification($memberId: ID!, $imageUrl: String!) {
    submitReceiptVerification(memberId: $memberId, imageUrl: $imageUrl) { ${RECEIPT_FIELDS} } }`,
  SubmitMyReceiptVerification: `mutation SubmitMyReceiptVerification($imageUrl: String!) {
    submitMyReceiptVerification(imageUrl: $imageUrl) { ${RECEIPT_FIELDS} } }`,
  ReceiptVerifications: `query ReceiptVerifications($page: Int, $limit: Int, $memberId: ID, $status: ReceiptVerificationStatus, ${RECEIPT_EXTRA_FLAGS}) {
    receiptVerifications(page: $page, limit: $limit, memberId: $memberId, status: $status) { ${PAGE_META} data { ${RECEIPT_FIELDS} ${RECEIPT_EXTRAS} } } }`,
  MyReceiptVerifications: `query MyReceiptVerifications($page: Int, $limit: Int, $status: ReceiptVerificationStatus, ${RECEIPT_EXTRA_FLAGS}) {
    myReceiptVerifications(page: $page, limit: $limit, status: $status) { ${PAGE_META} data { ${RECEIPT_FIELDS} ${RECEIPT_EXTRAS} } } }`,
  ReceiptVerificationStats: `query ReceiptVerificationStats { receiptVerificationStats { total pending processing approved rejected } }`,
  ReceiptVerification: `query ReceiptVerification($id: ID!, ${RECEIPT_EXTRA_FLAGS}) {
    receiptVerification(id: $id) { ${RECEIPT_FIELDS} ${RECEIPT_EXTRAS} } }`,
  VerifyReceiptAutomatically: `mutation VerifyReceiptAutomatically($id: ID!, $input: AutomaticReceiptVerificationInput!) {
    verifyReceiptAutomatically(id: $id, input: $input) { ${RECEIPT_FIELDS} } }`,
  ReviewReceiptVerification: `mutation ReviewReceiptVerification($id: ID!, $input: ManualReceiptReviewInput!) {
    reviewReceiptVerification(id: $id, input: $input) { ${RECEIPT_FIELDS} } }`,
};
