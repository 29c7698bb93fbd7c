import { DomainSurface } from '../../../core/rest/surface';
import { AUTH_COMPONENTS } from './components';
import { AUTH_PUBLIC_EVENTS } from './public-events';

/** The auth domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const AUTH_SURFACE: DomainSurface = {
  routes: [],
  components: AUTH_COMPONENTS,
  publicEvents: AUTH_PUBLIC_EVENTS,
};
