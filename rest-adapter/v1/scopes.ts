import { Principal } from '../../core/auth/principal';
import { API_SCOPES, ApiScope, DEFAULT_KEY_SCOPES } from '../../core/auth/scopes';

/** The scopes of the v1 surface (contract section 2). */
export const V1_SCOPES = API_SCOPES;
export type V1Scope = ApiScope;

/** Staff roles → scopes, as the contract fixes them; a role it does not name reads only. */
const SCOPES_BY_ROLE: Record<string, V1Scope[]> = {
  admin: ['read', 'write', 'admin', 'analytics'],
  marketing: ['read', 'write', 'analytics'],
  tenant: ['read'],
};
const roleScopes = (role: string): V1Scope[] => SCOPES_BY_ROLE[role] ?? ['read'];

/**
 * The scopes a caller holds on /api/v1. Staff: by role. Members (role `customer`): `read write`, on
 * their own data only (routes say which they may call). API keys: the scopes the key was created with
 * (`read` by default), narrowed to those of its role.
 */
export function scopesOf(principal: Principal): V1Scope[] {
  if (principal.kind === 'member') return ['read', 'write'];
  if (principal.kind === 'service') {
    const granted = principal.scopes ?? DEFAULT_KEY_SCOPES;
    return roleScopes(principal.role).filter((scope) => granted.includes(scope));
  }
  return roleScopes(principal.role);
}

/** The scope a v1 route needs unless it names one: `read` for GET, `write` for the rest. */
export const defaultScope = (method: string): V1Scope => (method === 'get' ? 'read' : 'write');
