import { DomainSurface } from '../../../core/rest/surface';
import { CLUSTER_COMPONENTS } from './components';
import { CLUSTER_PUBLIC_EVENTS } from './public-events';

/** The cluster domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const CLUSTER_SURFACE: DomainSurface = {
  routes: [],
  components: CLUSTER_COMPONENTS,
  publicEvents: CLUSTER_PUBLIC_EVENTS,
};
