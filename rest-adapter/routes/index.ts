import { Route } from '../route';
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
import { V1_BOOKING_ROUTES } from './v1-bookings';
import { V1_CAMPAIGN_ROUTES } from './v1-campaigns';
import { V1_ANALYTICS_ROUTES } from './v1-analytics';
import { V1_NOTIFICATION_ROUTES } from './v1-notifications';

/** Every REST route, by domain. */
export const ROUTES: Route[] = [...AUTH_ROUTES, ...POINT_ROUTES, ...CLUSTER_ROUTES, ...REWARD_ROUTES, ...NOTIFICATION_ROUTES, ...MAIL_TEMPLATE_ROUTES, ...V1_CUSTOMER_ROUTES, ...V1_LOYALTY_ROUTES, ...V1_AUTH_ROUTES, ...V1_TRANSACTION_ROUTES, ...V1_WEBHOOK_ROUTES, ...V1_BOOKING_ROUTES, ...V1_CAMPAIGN_ROUTES, ...V1_NOTIFICATION_ROUTES, ...V1_ANALYTICS_ROUTES];
