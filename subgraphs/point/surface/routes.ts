import { memberOnly, Route, RouteInput, withPermission } from '../../../core/rest/route';
import { POINT } from '../contract';

const BASE = '/point/api';
/** Earn and spend take an optional Idempotency-Key header. */
const movement = ({ body, headers }: RouteInput) => ({ input: body, idempotencyKey: headers['idempotency-key'] });

/** The receipt image of the receipt verification uploads. */
const RECEIPT_IMAGE = { name: 'image', required: true };

const BALANCE_FIELDS = 'memberId pointAmount purchaseAmount pendingAmount';
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

const REVIEW_RECEIPT = `mutation ReviewReceiptVerification($id: ID!, $input: ManualReceiptReviewInput!) {
    reviewReceiptVerification(id: $id, input: $input) { ${RECEIPT_FIELDS} } }`;

/** Spec Part 2, point service: balances, earning and spending, history, point request tickets. */
export const POINT_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/balance/me`,
    document: `query MyPointBalance($start: String, $end: String, $format: BalanceFormat) {
    myPointBalance(start: $start, end: $end, format: $format) { ${BALANCE_FIELDS} } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/balance/:memberId`,
    document: `query PointBalance($memberId: ID!, $start: String, $end: String, $format: BalanceFormat) {
    pointBalance(memberId: $memberId, start: $start, end: $end, format: $format) { ${BALANCE_FIELDS} } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${BASE}/earn`,
    document: `mutation EarnPoints($input: PointMovementInput!, $idempotencyKey: String) {
    earnPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
    variables: movement,
    envelope: 'message',
    message: 'Points earned',
  },
  {
    method: 'post',
    path: `${BASE}/spend`,
    document: `mutation SpendPoints($input: PointMovementInput!, $idempotencyKey: String) {
    spendPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
    variables: movement,
    envelope: 'message',
    message: 'Points spent',
  },
  {
    method: 'get',
    path: `${BASE}/history`,
    document: `query PointHistory($memberIds: [ID!], ${HISTORY_FILTERS}) {
    pointHistory(memberIds: $memberIds, ${HISTORY_ARGS}) { ${PAGE_META} data { ${TRANSACTION_FIELDS} ${MEMBER_SUMMARY} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/history/me`,
    document: `query MyPointHistory(${HISTORY_FILTERS}) {
    myPointHistory(${HISTORY_ARGS}) { ${PAGE_META} data { ${TRANSACTION_FIELDS} ${MEMBER_SUMMARY} } } }`,
    envelope: 'nested',
    message: 'Point history',
  },
  {
    method: 'get',
    path: `${BASE}/summary/daily`,
    document: `query PointDailySummary($startDate: String, $endDate: String) {
    pointDailySummary(startDate: $startDate, endDate: $endDate) { date earned spent expired netChange } }`,
    envelope: 'data',
  },
  // Point request tickets
  {
    method: 'post',
    path: `${BASE}/request/earn`,
    document: `mutation RequestEarnPoints($input: PointRequestInput!, $idempotencyKey: String) {
    requestEarnPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
    variables: movement,
    envelope: 'message',
    message: 'Point request created',
  },
  {
    method: 'post',
    path: `${BASE}/request/spend`,
    document: `mutation RequestSpendPoints($input: PointRequestInput!, $idempotencyKey: String) {
    requestSpendPoints(input: $input, idempotencyKey: $idempotencyKey) { id } }`,
    variables: movement,
    envelope: 'message',
    message: 'Point request created',
  },
  {
    method: 'patch',
    path: `${BASE}/request/:id/review`,
    document: `mutation ReviewPointRequest($id: ID!, $input: PointRequestReviewInput!) {
    reviewPointRequest(id: $id, input: $input) { id } }`,
    envelope: 'message',
    message: 'Point request reviewed',
  },
  {
    method: 'get',
    path: `${BASE}/request`,
    document: `query PointRequestTickets($page: Int, $limit: Int, $status: PointRequestStatus, $actionType: PointRequestActionType) {
    pointRequestTickets(page: $page, limit: $limit, status: $status, actionType: $actionType) { ${PAGE_META} data { ${REQUEST_TICKET_FIELDS} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/request/:id`,
    document: `query PointRequestTicket($id: ID!) { pointRequestTicket(id: $id) { ${REQUEST_TICKET_FIELDS} } }`,
    envelope: 'data',
  },
];

/** Spec Part 2, receipt verification: literal segments (me, stats) before :id. Answers carry `message` beside `data`. */
export const RECEIPT_ROUTES: Route[] = [
  {
    method: 'post',
    path: `${BASE}/receipt/verify/me`,
    document: `mutation SubmitMyReceiptVerification($imageUrl: String!) {
    submitMyReceiptVerification(imageUrl: $imageUrl) { ${RECEIPT_FIELDS} } }`,
    authorize: memberOnly,
    upload: [RECEIPT_IMAGE],
    variables: ({ uploads }) => ({ imageUrl: uploads.image }),
    envelope: 'dataWithMessage',
    message: 'Receipt submitted for verification',
    status: 201,
  },
  {
    method: 'post',
    path: `${BASE}/receipt/verify`,
    document: `mutation SubmitReceiptVerification($memberId: ID!, $imageUrl: String!) {
    submitReceiptVerification(memberId: $memberId, imageUrl: $imageUrl) { ${RECEIPT_FIELDS} } }`,
    authorize: withPermission(POINT.permissions.manage),
    upload: [RECEIPT_IMAGE],
    variables: ({ body, uploads }) => ({ memberId: body.memberId, imageUrl: uploads.image }),
    envelope: 'dataWithMessage',
    message: 'Receipt submitted for verification',
    status: 201,
  },
  {
    method: 'get',
    path: `${BASE}/receipt/verify`,
    document: `query ReceiptVerifications($page: Int, $limit: Int, $memberId: ID, $status: ReceiptVerificationStatus, ${RECEIPT_EXTRA_FLAGS}) {
    receiptVerifications(page: $page, limit: $limit, memberId: $memberId, status: $status) { ${PAGE_META} data { ${RECEIPT_FIELDS} ${RECEIPT_EXTRAS} } } }`,
    envelope: 'nested',
    message: 'Receipt verifications',
  },
  {
    method: 'get',
    path: `${BASE}/receipt/verify/me`,
    document: `query MyReceiptVerifications($page: Int, $limit: Int, $status: ReceiptVerificationStatus, ${RECEIPT_EXTRA_FLAGS}) {
    myReceiptVerifications(page: $page, limit: $limit, status: $status) { ${PAGE_META} data { ${RECEIPT_FIELDS} ${RECEIPT_EXTRAS} } } }`,
    envelope: 'nested',
    message: 'Receipt verifications',
  },
  {
    method: 'get',
    path: `${BASE}/receipt/verify/stats`,
    document: `query ReceiptVerificationStats { receiptVerificationStats { total pending processing approved rejected } }`,
    envelope: 'dataWithMessage',
    message: 'Receipt verification statistics',
  },
  {
    method: 'get',
    path: `${BASE}/receipt/verify/:id`,
    document: `query ReceiptVerification($id: ID!, ${RECEIPT_EXTRA_FLAGS}) {
    receiptVerification(id: $id) { ${RECEIPT_FIELDS} ${RECEIPT_EXTRAS} } }`,
    envelope: 'dataWithMessage',
    message: 'Receipt verification found',
  },
  {
    method: 'post',
    path: `${BASE}/receipt/verify/:id`,
    document: `mutation VerifyReceiptAutomatically($id: ID!, $input: AutomaticReceiptVerificationInput!) {
    verifyReceiptAutomatically(id: $id, input: $input) { ${RECEIPT_FIELDS} } }`,
    envelope: 'dataWithMessage',
    message: 'Receipt verified',
  },
  { method: 'post', path: `${BASE}/receipt/verify/:id/manual`, document: REVIEW_RECEIPT, envelope: 'dataWithMessage', message: 'Receipt reviewed' },
  { method: 'put', path: `${BASE}/receipt/verify/:id/manual`, document: REVIEW_RECEIPT, envelope: 'dataWithMessage', message: 'Receipt verification updated' },
];

/** Spec Part 2, shop point rules: /default before :id. */
export const SHOP_RULE_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${BASE}/point-rules/shop`,
    document: `query PointShopRules($page: Int, $limit: Int, $search: String, $locale: Locale) {
    pointShopRules(page: $page, limit: $limit, search: $search, locale: $locale) { ${PAGE_META} data { ${SHOP_RULE_FIELDS} } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/point-rules/shop/default`,
    document: `query DefaultPointShopRule($locale: Locale) { defaultPointShopRule(locale: $locale) { ${SHOP_RULE_FIELDS} } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/point-rules/shop/:id`,
    document: `query PointShopRule($id: ID!, $locale: Locale) { pointShopRule(id: $id, locale: $locale) { ${SHOP_RULE_FIELDS} } }`,
    envelope: 'data',
  },
  {
    method: 'post',
    path: `${BASE}/point-rules/shop`,
    document: `mutation CreatePointShopRule($input: CreatePointShopRuleInput!) { createPointShopRule(input: $input) { ${SHOP_RULE_FIELDS} } }`,
    envelope: 'data',
    status: 201,
  },
  {
    method: 'put',
    path: `${BASE}/point-rules/shop/:id`,
    document: `mutation UpdatePointShopRule($id: ID!, $input: UpdatePointShopRuleInput!) {
    updatePointShopRule(id: $id, input: $input) { ${SHOP_RULE_FIELDS} } }`,
    envelope: 'data',
  },
  {
    method: 'delete',
    path: `${BASE}/point-rules/shop/:id`,
    document: `mutation DeletePointShopRule($id: ID!) { deletePointShopRule(id: $id) { ${SHOP_RULE_FIELDS} } }`,
    envelope: 'data',
  },
];
