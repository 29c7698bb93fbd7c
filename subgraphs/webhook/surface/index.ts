import { DomainSurface } from '../../../core/rest/surface';
import { V1_WEBHOOK_ROUTES } from './v1-routes';

/** The webhook domain's outside: its v1 routes (webhook management and the delivery log). */
export const WEBHOOK_SURFACE: DomainSurface = { routes: V1_WEBHOOK_ROUTES };
