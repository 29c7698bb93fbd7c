import { DomainSurface } from '../../../core/rest/surface';
import { BOOKING_COMPONENTS } from './components';
import { V1_BOOKING_ROUTES } from './v1-routes';

/** The booking domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const BOOKING_SURFACE: DomainSurface = { routes: [...V1_BOOKING_ROUTES], components: BOOKING_COMPONENTS };
