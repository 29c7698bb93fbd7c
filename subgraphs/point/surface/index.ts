import { DomainSurface } from '../../../core/rest/surface';
import { POINT_COMPONENTS } from './components';
import { POINT_PUBLIC_EVENTS } from './public-events';

/** The point domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const POINT_SURFACE: DomainSurface = {
  routes: [],
  components: POINT_COMPONENTS,
  publicEvents: POINT_PUBLIC_EVENTS,
};
