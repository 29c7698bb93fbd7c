/** The scopes of the version-1 surface (spec Part 3, contract section 2), which API keys and OAuth tokens carry. */
export const API_SCOPES = ['read', 'write', 'admin', 'analytics'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
/** What a key created without `scopes` may do. */
export const DEFAULT_KEY_SCOPES: ApiScope[] = ['read'];
