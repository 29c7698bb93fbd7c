import { Principal } from '../../core/auth/principal';
import { API_SCOPES, ApiScope, DEFAULT_KEY_SCOPES, narrowToRole, roleScopes } from '../../core/auth/scopes';

/** The scopes of the v1 surface (contract section 2). */
export const V1_SCOPES = API_SCOPES;
export type V1Scope = ApiScope;

/**
 * The scopes a caller holds on /api/v1. Staff: by role. Members (role `customer`): `read write`, on
 * their own data only (routes say which they may call). API keys: the scopes the key was created with
 * (`read` by default), narrowed to those of its role. OAuth access tokens (staff principals carrying
 * the scopes granted to the client): the granted scopes, narrowed to those of the user's role.
 */
export function scopesOf(principal: Principal): V1Scope[] {
  if (principal.kind === 'member') return ['read', 'write'];
  if (principal.kind === 'service') {
    return narrowToRole(principal.role, principal.scopes ?? DEFAULT_KEY_SCOPES);
  }
  return principal.scopes ? narrowToRole(principal.role, principal.scopes) : roleScopes(principal.role);
}

/** The scope a v1 route needs unless it names one: `read` for GET, `write` for the rest. */
export const defaultScope = (method: string): V1Scope => (method === 'get' ? 'read' : 'write');

/** Every scope a v1 route needs (its own, or the default for its method). */
export const routeScopes = (route: { method: string; scope?: V1Scope | V1Scope[] }): V1Scope[] => [route.scope ?? defaultScope(route.method)].flat();
