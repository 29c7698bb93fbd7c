import { operationNameOf, Route } from '../../core/rest/route';
import { platformSurface } from '../../subgraphs/registry';

/** Every REST route the platform serves, from the domains' surfaces. */
export const ROUTES: readonly Route[] = platformSurface().routes;

/** The document of the route that runs the operation of this name. */
export function routeDocument(name: string): string {
  const route = ROUTES.find((candidate) => operationNameOf(candidate.document) === name);
  if (!route) throw new Error(`No route runs an operation named ${name}`);
  return route.document;
}
