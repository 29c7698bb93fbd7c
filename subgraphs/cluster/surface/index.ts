import { DomainSurface } from '../../../core/rest/surface';
import { BADGE_ROUTES } from './badge-routes';
import { CLUSTER_COMPONENTS } from './components';
import { CUSTOMER_SEGMENT_ROUTES } from './customer-segment-routes';
import { SEGMENT_ROUTES } from './segment-routes';
import { TIER_PROJECTION_ROUTES, TIER_ROUTES } from './tier-routes';
import { V1_TIER_ROUTES } from './v1-routes';
import { CLUSTER_PUBLIC_EVENTS } from './public-events';

/** The cluster domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const CLUSTER_SURFACE: DomainSurface = {
  routes: [...TIER_ROUTES, ...TIER_PROJECTION_ROUTES, ...SEGMENT_ROUTES, ...BADGE_ROUTES, ...V1_TIER_ROUTES, ...CUSTOMER_SEGMENT_ROUTES],
  components: CLUSTER_COMPONENTS,
  publicEvents: CLUSTER_PUBLIC_EVENTS,
};
