import { Route } from '../../core/rest/route';
import { OPERATIONS } from '../operations';
import { LegacyRoute } from './legacy';
import { AUTH_ROUTES } from './auth';
import { CLUSTER_ROUTES } from './cluster';
import { NOTIFICATION_ROUTES } from './notification';
import { MAIL_TEMPLATE_ROUTES } from './notification-mail-templates';
import { POINT_ROUTES } from './point';
import { REWARD_ROUTES } from './reward';
import { V1_CUSTOMER_ROUTES } from './v1-customers';
import { V1_LOYALTY_ROUTES } from './v1-loyalty';
import { V1_AUTH_ROUTES } from './v1-auth';
import { V1_TRANSACTION_ROUTES } from './v1-transactions';
import { V1_WEBHOOK_ROUTES } from './v1-webhooks';
import { V1_NOTIFICATION_ROUTES } from './v1-notifications';

/** The REST routes not yet in a domain's surface, by domain. */
const LEGACY: LegacyRoute[] = [...AUTH_ROUTES, ...POINT_ROUTES, ...CLUSTER_ROUTES, ...REWARD_ROUTES, ...NOTIFICATION_ROUTES, ...MAIL_TEMPLATE_ROUTES, ...V1_CUSTOMER_ROUTES, ...V1_LOYALTY_ROUTES, ...V1_AUTH_ROUTES, ...V1_TRANSACTION_ROUTES, ...V1_WEBHOOK_ROUTES, ...V1_NOTIFICATION_ROUTES];

/** Them with their documents, as the registry merges them with the domains' surfaces. */
export const LEGACY_ROUTES: Route[] = LEGACY.map(({ operation, ...route }) => {
  const document = OPERATIONS[operation];
  if (!document) throw new Error(`Route ${route.method.toUpperCase()} ${route.path} names unknown operation ${operation}`);
  return { ...route, document };
});
