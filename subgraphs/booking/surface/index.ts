import { DomainSurface } from '../../../core/rest/surface';
import { BOOKING_COMPONENTS } from './components';

/** The booking domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const BOOKING_SURFACE: DomainSurface = { routes: [], components: BOOKING_COMPONENTS };
