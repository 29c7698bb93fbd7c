import { DomainSurface } from '../../../core/rest/surface';
import { NOTIFICATION_PUBLIC_EVENTS } from './public-events';

/** The notification domain's outside: its REST routes and its public events. */
export const NOTIFICATION_SURFACE: DomainSurface = {
  routes: [],
  publicEvents: NOTIFICATION_PUBLIC_EVENTS,
};
