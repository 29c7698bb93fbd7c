import { DomainSurface } from '../../../core/rest/surface';
import { AUTH_COMPONENTS } from './components';

/** The auth domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const AUTH_SURFACE: DomainSurface = { routes: [], components: AUTH_COMPONENTS };
