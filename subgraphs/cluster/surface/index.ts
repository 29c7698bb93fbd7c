import { DomainSurface } from '../../../core/rest/surface';
import { CLUSTER_COMPONENTS } from './components';
import { CUSTOMER_TIER_AND_SEGMENT_ROUTES } from './customer-routes';

/** The cluster domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const CLUSTER_SURFACE: DomainSurface = { routes: [...CUSTOMER_TIER_AND_SEGMENT_ROUTES], components: CLUSTER_COMPONENTS };
