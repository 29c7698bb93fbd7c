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
