import { Principal } from '../../core/auth/principal';

/** The scopes of the v1 surface (contract section 2). */
export const V1_SCOPES = ['read', 'write', 'admin', 'analytics'] as const;
export type V1Scope = (typeof V1_SCOPES)[number];

/** Staff roles → scopes, as the contract fixes them; a role it does not name reads only. */
const SCOPES_BY_ROLE: Record<string, V1Scope[]> = {
  admin: ['read', 'write', 'admin', 'analytics'],
  marketing: ['read', 'write', 'analytics'],
  tenant: ['read'],
};

/**
 * The scopes a caller holds on /api/v1. Staff: by role. Members (role `customer`): `read write`, on
 * their own data only (routes say which they may call). API keys: `read`, the contract's default for
 * a key created without `scopes` — keys do not record scopes yet, so none holds more than the default;
 * the key's role still narrows what it reads (the subgraphs check its permissions).
 */
export function scopesOf(principal: Principal): V1Scope[] {
  if (principal.kind === 'member') return ['read', 'write'];
  if (principal.kind === 'service') return ['read'];
  return SCOPES_BY_ROLE[principal.role] ?? ['read'];
}

/** The scope a v1 route needs unless it names one: `read` for GET, `write` for the rest. */
export const defaultScope = (method: string): V1Scope => (method === 'get' ? 'read' : 'write');
