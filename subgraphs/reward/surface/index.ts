import { DomainSurface } from '../../../core/rest/surface';
import { REWARD_CODE_ROUTES } from './code-routes';
import { REWARD_COMPONENTS } from './components';
import { REWARD_CATALOG_ROUTES, REWARD_ROUTES } from './routes';
import { V1_REWARD_ROUTES } from './v1-routes';
import { REWARD_PUBLIC_EVENTS } from './public-events';

/** The reward domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const REWARD_SURFACE: DomainSurface = {
  routes: [...REWARD_ROUTES, ...REWARD_CATALOG_ROUTES, ...REWARD_CODE_ROUTES, ...V1_REWARD_ROUTES],
  components: REWARD_COMPONENTS,
  publicEvents: REWARD_PUBLIC_EVENTS,
};
