import { DomainSurface } from '../../../core/rest/surface';
import { REPORT_FILE_DOWNLOAD } from './report-download';
import { V1_ANALYTICS_ROUTES } from './v1-routes';

/** The analytics domain's outside: its REST routes and its reports' signed downloads. */
export const ANALYTICS_SURFACE: DomainSurface = { routes: [...V1_ANALYTICS_ROUTES], downloads: [REPORT_FILE_DOWNLOAD] };
