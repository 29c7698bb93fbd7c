import { DomainSurface } from '../../../core/rest/surface';
import { REWARD_COMPONENTS } from './components';
import { REWARD_PUBLIC_EVENTS } from './public-events';

/** The reward domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const REWARD_SURFACE: DomainSurface = {
  routes: [],
  components: REWARD_COMPONENTS,
  publicEvents: REWARD_PUBLIC_EVENTS,
};
