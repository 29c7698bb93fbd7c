import { DomainSurface } from '../../../core/rest/surface';
import { AUTH_COMPONENTS } from './components';
import { AUTH_ROUTES } from './routes';
import { V1_AUTH_ROUTES } from './v1-auth-routes';
import { V1_CUSTOMER_ROUTES } from './v1-customer-routes';
import { AUTH_PUBLIC_EVENTS } from './public-events';

/** The auth domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const AUTH_SURFACE: DomainSurface = {
  routes: [...AUTH_ROUTES, ...V1_CUSTOMER_ROUTES, ...V1_AUTH_ROUTES],
  components: AUTH_COMPONENTS,
  publicEvents: AUTH_PUBLIC_EVENTS,
};
