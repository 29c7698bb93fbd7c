import { Route } from '../route';
import { AUTH_ROUTES } from './auth';

/** Every REST route, by domain. */
export const ROUTES: Route[] = [...AUTH_ROUTES];
