/** The scopes of the version-1 surface (spec Part 3, contract section 2), which API keys and OAuth tokens carry. */
export const API_SCOPES = ['read', 'write', 'admin', 'analytics'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
/** What a key created without `scopes` may do. */
export const DEFAULT_KEY_SCOPES: ApiScope[] = ['read'];

/** Staff roles → the v1 scopes they hold (contract section 2); a role it does not name reads only. */
const SCOPES_BY_ROLE: Record<string, ApiScope[]> = {
  admin: ['read', 'write', 'admin', 'analytics'],
  marketing: ['read', 'write', 'analytics'],
  tenant: ['read'],
};
export const roleScopes = (role: string): ApiScope[] => SCOPES_BY_ROLE[role] ?? ['read'];

/** The scopes of `granted` that `role` holds, in the order of API_SCOPES (an OAuth grant or an API key narrowed by its role). */
export const narrowToRole = (role: string, granted: readonly string[]): ApiScope[] => roleScopes(role).filter((scope) => granted.includes(scope));

/** The v1 scopes a credential must hold to use each permission (CONTRACT-v1 §2), every domain's together. */
export type PermissionScopes = ReadonlyMap<string, readonly ApiScope[]>;

/** Each domain contract's `permissionScopes` (by permission key) as one map by permission name. */
export function permissionScopesOf(contracts: readonly { permissions: Readonly<Record<string, string>>; permissionScopes: Readonly<Record<string, ApiScope | readonly ApiScope[]>> }[]): PermissionScopes {
  const scopes = new Map<string, readonly ApiScope[]>();
  for (const contract of contracts) {
    const unknown = Object.keys(contract.permissionScopes).filter((key) => !(key in contract.permissions));
    if (unknown.length > 0) throw new Error(`permissionScopes names no permission: ${unknown.join(', ')}`);
    for (const [key, permission] of Object.entries(contract.permissions)) {
      const needed = contract.permissionScopes[key];
      if (needed === undefined) throw new Error(`Permission ${permission} declares no scope (permissionScopes.${key} of its contract)`);
      scopes.set(permission, [needed].flat());
    }
  }
  return scopes;
}

/**
 * The permissions a credential granted `scopes` holds of its role's (an API key, an OAuth token): each
 * permission only with every scope it needs; `*` (admin) stays `*` only with every scope, else it is
 * the declared permissions those scopes allow. A permission no domain declares is not kept.
 */
export function narrowPermissions(rolePermissions: readonly string[], scopes: readonly string[], declared: PermissionScopes): string[] {
  const allowed = (permission: string) => declared.get(permission)?.every((scope) => scopes.includes(scope)) ?? false;
  if (!rolePermissions.includes('*')) return rolePermissions.filter(allowed);
  if (API_SCOPES.every((scope) => scopes.includes(scope))) return ['*'];
  return [...declared.keys()].filter(allowed);
}
