import { Route } from '../../core/rest/route';

/** A route not yet moved to its domain's surface: its document named in rest-adapter/operations. */
export type LegacyRoute = Omit<Route, 'document'> & { operation: string };
