import { Route, RouteInput } from '../route';

const BASE = '/point/api';
const query = ({ query }: RouteInput) => query;
/** Earn and spend take an optional Idempotency-Key header. */
const movement = ({ body, headers }: RouteInput) => ({ input: body, idempotencyKey: headers['idempotency-key'] });

/** Spec Part 2, point service. */
export const POINT_ROUTES: Route[] = [
  { method: 'get', path: `${BASE}/balance/me`, operation: 'MyPointBalance', variables: query, envelope: 'data' },
  {
    method: 'get',
    path: `${BASE}/balance/:memberId`,
    operation: 'PointBalance',
    variables: ({ params, query }) => ({ ...query, memberId: params.memberId }),
    envelope: 'data',
  },
  { method: 'post', path: `${BASE}/earn`, operation: 'EarnPoints', variables: movement, envelope: 'message', message: 'Points earned' },
  { method: 'post', path: `${BASE}/spend`, operation: 'SpendPoints', variables: movement, envelope: 'message', message: 'Points spent' },
  { method: 'get', path: `${BASE}/history`, operation: 'PointHistory', variables: query, envelope: 'data' },
  { method: 'get', path: `${BASE}/history/me`, operation: 'MyPointHistory', variables: query, envelope: 'nested', message: 'Point history' },
  { method: 'get', path: `${BASE}/summary/daily`, operation: 'PointDailySummary', variables: query, envelope: 'data' },
];
