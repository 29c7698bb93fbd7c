import { DomainSurface } from '../../../core/rest/surface';
import { IN_APP_ROUTES } from './in-app-routes';
import { IN_APP_STREAM } from './in-app-stream';
import { MAIL_TEMPLATE_ROUTES } from './mail-template-routes';
import { V1_PREFERENCE_ROUTES } from './v1-preference-routes';
import { V1_NOTIFICATION_ROUTES } from './v1-routes';
import { NOTIFICATION_PUBLIC_EVENTS } from './public-events';

/** The notification domain's outside: its REST routes (Part 2 in-app and mail templates, v1 sends and preferences) and the member's live stream. */
export const NOTIFICATION_SURFACE: DomainSurface = {
  routes: [...IN_APP_ROUTES, ...MAIL_TEMPLATE_ROUTES, ...V1_NOTIFICATION_ROUTES, ...V1_PREFERENCE_ROUTES],
  streams: [IN_APP_STREAM],
  publicEvents: NOTIFICATION_PUBLIC_EVENTS,
};
