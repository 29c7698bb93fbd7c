import { Route } from '../../core/rest/route';
import { OPERATIONS } from '../operations';
import { LegacyRoute } from './legacy';
import { V1_ANALYTICS_ROUTES } from './v1-analytics';
import { V1_BOOKING_ROUTES } from './v1-bookings';
import { V1_CAMPAIGN_ROUTES } from './v1-campaigns';

/** The REST routes not yet in a domain's surface, by domain. */
const LEGACY: LegacyRoute[] = [...V1_ANALYTICS_ROUTES, ...V1_BOOKING_ROUTES, ...V1_CAMPAIGN_ROUTES];

/** Them with their documents, as the registry merges them with the domains' surfaces. */
export const LEGACY_ROUTES: Route[] = LEGACY.map(({ operation, ...route }) => {
  const document = OPERATIONS[operation];
  if (!document) throw new Error(`Route ${route.method.toUpperCase()} ${route.path} names unknown operation ${operation}`);
  return { ...route, document };
});
