import { DomainSurface } from '../../../core/rest/surface';
import { CAMPAIGN_COMPONENTS } from './components';
import { CAMPAIGN_PUBLIC_EVENTS } from './public-events';
import { V1_CAMPAIGN_ROUTES } from './v1-routes';

/** The campaign domain's outside: its REST routes, the v1 resources they answer and its public events. */
export const CAMPAIGN_SURFACE: DomainSurface = {
  routes: [...V1_CAMPAIGN_ROUTES],
  components: CAMPAIGN_COMPONENTS,
  publicEvents: CAMPAIGN_PUBLIC_EVENTS,
};
