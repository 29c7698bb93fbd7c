import { DomainSurface } from '../../../core/rest/surface';
import { POINT_COMPONENTS } from './components';
import { POINT_ROUTES, RECEIPT_ROUTES, SHOP_RULE_ROUTES } from './routes';
import { V1_POINT_ROUTES } from './v1-point-routes';
import { V1_TRANSACTION_ROUTES } from './v1-transaction-routes';
import { V1_EARNING_RULE_ROUTES } from './v1-earning-rule-routes';
import { V1_CUSTOM_EVENT_ROUTES } from './v1-custom-event-routes';
import { V1_REFERRAL_ROUTES } from './v1-referral-routes';
import { POINT_PUBLIC_EVENTS } from './public-events';

/** The point domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const POINT_SURFACE: DomainSurface = {
  routes: [...POINT_ROUTES, ...RECEIPT_ROUTES, ...SHOP_RULE_ROUTES, ...V1_POINT_ROUTES, ...V1_TRANSACTION_ROUTES, ...V1_EARNING_RULE_ROUTES, ...V1_CUSTOM_EVENT_ROUTES, ...V1_REFERRAL_ROUTES],
  components: POINT_COMPONENTS,
  publicEvents: POINT_PUBLIC_EVENTS,
};
