import { isISO8601 } from 'class-validator';
import { FieldError, validationError } from '../../../core/errors';
import { CUSTOMER_INCLUDES, CustomerInclude } from './v1-customer';
import { MAX_TIER_FILTER_LENGTH } from '../types/member.inputs';

/** What this version of the surface serves of `include`. */
const SERVED_INCLUDES = new Set<string>(CUSTOMER_INCLUDES);
/** A list includes the tier object only: point totals and rewards are read per customer (subgraphs/auth/DECISIONS.md). */
export const LIST_INCLUDES = new Set(['tier']);

/** `include=points,tier`: 400 on `include` naming anything else (or what is not served yet, or on lists). */
export function customerIncludes(raw: unknown, served: ReadonlySet<string> = SERVED_INCLUDES): Set<CustomerInclude> {
  if (raw === undefined || raw === '') return new Set();
  const names = (Array.isArray(raw) ? raw.join(',') : String(raw)).split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !served.has(name));
  if (unknown.length > 0) throw validationError([{ field: 'include', message: `include takes ${[...served].join(', ')}; not ${unknown.join(', ')}` }]);
  return new Set(names as CustomerInclude[]);
}

const SORTABLE: Record<string, string> = { created_at: 'createdAt', updated_at: 'updatedAt', name: 'name' };
/** v1 `status` → the member statuses it covers: every status but INACTIVE is active. */
const STATUSES: Record<string, string[]> = { active: ['PENDING', 'CHATAPP_INFO_SYNCED', 'ACTIVE'], inactive: ['INACTIVE'] };

/** A query parameter spelled `filter[name]`, whether the query parser kept the brackets or made an object. */
function filterOf(query: Record<string, unknown>, name: string): unknown {
  const nested = query.filter;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) return (nested as Record<string, unknown>)[name];
  return query[`filter[${name}]`];
}

/**
 * The members query's variables from a v1 customer list request (query keys already camelCase):
 * `sort=field:asc|desc`, `filter[status]`, `filter[tier]` (a tier's name or id), `search`, `date_from`/`date_to`
 * (creation), `page`, `limit`.
 * Every bad parameter is reported at once (400).
 */
export function customerListVariables(query: Record<string, unknown>): Record<string, unknown> {
  const errors: FieldError[] = [];
  const variables: Record<string, unknown> = { page: query.page, limit: query.limit, search: query.search, createdFrom: query.dateFrom, createdTo: query.dateTo };
  if (query.sort !== undefined) {
    const [field, order = 'asc', ...rest] = String(query.sort).split(':');
    if (!SORTABLE[field] || !['asc', 'desc'].includes(order) || rest.length > 0) {
      errors.push({ field: 'sort', message: `sort is field:asc or field:desc, field one of ${Object.keys(SORTABLE).join(', ')}` });
    } else Object.assign(variables, { sortBy: SORTABLE[field], sortOrder: order });
  }
  const status = filterOf(query, 'status');
  if (status !== undefined) {
    if (typeof status === 'string' && STATUSES[status]) variables.statusIn = STATUSES[status];
    else errors.push({ field: 'filter[status]', message: 'filter[status] is active or inactive' });
  }
  for (const [field, value] of [['date_from', query.dateFrom], ['date_to', query.dateTo]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !isISO8601(value, { strict: true }))) errors.push({ field, message: `${field} is an ISO 8601 date or timestamp` });
  }
  const tier = filterOf(query, 'tier');
  if (tier !== undefined) {
    if (typeof tier === 'string' && tier.trim().length > 0 && tier.length <= MAX_TIER_FILTER_LENGTH) variables.tier = tier.trim();
    else errors.push({ field: 'filter[tier]', message: 'filter[tier] is a tier name or id' });
  }
  try {
    customerIncludes(query.include, LIST_INCLUDES);
  } catch (error) {
    errors.push(...((error as { fieldErrors: FieldError[] }).fieldErrors ?? []));
  }
  if (errors.length > 0) throw validationError(errors);
  return variables;
}
