import { isUUID } from 'class-validator';
import { validationError } from '../errors';

/**
 * The path's `id` when it is an id at all (a UUID), naming what it is (`customer`): one that is not is a 400
 * on `id` alone, which a v1 route answers as its 404 (`Route.notFound`).
 */
export function pathIdOf(params: Record<string, string>, what: string): string {
  if (!isUUID(params.id)) throw validationError([{ field: 'id', message: `id is a ${what} id` }]);
  return params.id;
}

/** The path's customer id (`/customers/:id/...`). */
export const customerIdOf = (params: Record<string, string>): string => pathIdOf(params, 'customer');
