import { POINT } from '../../subgraphs/point/contract';
import { memberOnly, RouteInput, withPermission } from '../../core/rest/route';
import { LegacyRoute } from './legacy';

const BASE = '/point/api';
/** Earn and spend take an optional Idempotency-Key header. */
const movement = ({ body, headers }: RouteInput) => ({ input: body, idempotencyKey: headers['idempotency-key'] });

/** The receipt image of the receipt verification uploads. */
const RECEIPT_IMAGE = { name: 'image', required: true };

/** Spec Part 2, point service. */
export const POINT_ROUTES: LegacyRoute[] = [
  { method: 'get', path: `${BASE}/balance/me`, operation: 'MyPointBalance', envelope: 'data' },
  { method: 'get', path: `${BASE}/balance/:memberId`, operation: 'PointBalance', envelope: 'data' },
  { method: 'post', path: `${BASE}/earn`, operation: 'EarnPoints', variables: movement, envelope: 'message', message: 'Points earned' },
  { method: 'post', path: `${BASE}/spend`, operation: 'SpendPoints', variables: movement, envelope: 'message', message: 'Points spent' },
  { method: 'get', path: `${BASE}/history`, operation: 'PointHistory', envelope: 'data' },
  { method: 'get', path: `${BASE}/history/me`, operation: 'MyPointHistory', envelope: 'nested', message: 'Point history' },
  { method: 'get', path: `${BASE}/summary/daily`, operation: 'PointDailySummary', envelope: 'data' },
  // Point request tickets
  { method: 'post', path: `${BASE}/request/earn`, operation: 'RequestEarnPoints', variables: movement, envelope: 'message', message: 'Point request created' },
  { method: 'post', path: `${BASE}/request/spend`, operation: 'RequestSpendPoints', variables: movement, envelope: 'message', message: 'Point request created' },
  { method: 'patch', path: `${BASE}/request/:id/review`, operation: 'ReviewPointRequest', envelope: 'message', message: 'Point request reviewed' },
  { method: 'get', path: `${BASE}/request`, operation: 'PointRequestTickets', envelope: 'data' },
  { method: 'get', path: `${BASE}/request/:id`, operation: 'PointRequestTicket', envelope: 'data' },
  // Receipt verification: literal segments (me, stats) before :id. Answers carry `message` beside `data`.
  {
    method: 'post',
    path: `${BASE}/receipt/verify/me`,
    operation: 'SubmitMyReceiptVerification',
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
    operation: 'SubmitReceiptVerification',
    authorize: withPermission(POINT.permissions.manage),
    upload: [RECEIPT_IMAGE],
    variables: ({ body, uploads }) => ({ memberId: body.memberId, imageUrl: uploads.image }),
    envelope: 'dataWithMessage',
    message: 'Receipt submitted for verification',
    status: 201,
  },
  { method: 'get', path: `${BASE}/receipt/verify`, operation: 'ReceiptVerifications', envelope: 'nested', message: 'Receipt verifications' },
  { method: 'get', path: `${BASE}/receipt/verify/me`, operation: 'MyReceiptVerifications', envelope: 'nested', message: 'Receipt verifications' },
  { method: 'get', path: `${BASE}/receipt/verify/stats`, operation: 'ReceiptVerificationStats', envelope: 'dataWithMessage', message: 'Receipt verification statistics' },
  { method: 'get', path: `${BASE}/receipt/verify/:id`, operation: 'ReceiptVerification', envelope: 'dataWithMessage', message: 'Receipt verification found' },
  { method: 'post', path: `${BASE}/receipt/verify/:id`, operation: 'VerifyReceiptAutomatically', envelope: 'dataWithMessage', message: 'Receipt verified' },
  { method: 'post', path: `${BASE}/receipt/verify/:id/manual`, operation: 'ReviewReceiptVerification', envelope: 'dataWithMessage', message: 'Receipt reviewed' },
  { method: 'put', path: `${BASE}/receipt/verify/:id/manual`, operation: 'ReviewReceiptVerification', envelope: 'dataWithMessage', message: 'Receipt verification updated' },
  // Shop point rules: /default before :id.
  { method: 'get', path: `${BASE}/point-rules/shop`, operation: 'PointShopRules', envelope: 'data' },
  { method: 'get', path: `${BASE}/point-rules/shop/default`, operation: 'DefaultPointShopRule', envelope: 'data' },
  { method: 'get', path: `${BASE}/point-rules/shop/:id`, operation: 'PointShopRule', envelope: 'data' },
  { method: 'post', path: `${BASE}/point-rules/shop`, operation: 'CreatePointShopRule', envelope: 'data', status: 201 },
  { method: 'put', path: `${BASE}/point-rules/shop/:id`, operation: 'UpdatePointShopRule', envelope: 'data' },
  { method: 'delete', path: `${BASE}/point-rules/shop/:id`, operation: 'DeletePointShopRule', envelope: 'data' },
];
