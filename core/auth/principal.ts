export type PrincipalKind = 'staff' | 'member' | 'service';

/** Who is calling: a staff member, a member, or a service holding an API key. */
export class Principal {
  constructor(
    readonly kind: PrincipalKind,
    readonly id: string,
    readonly role: string,
    readonly permissions: string[],
    /** The v1 scopes the credential was granted (API keys); undefined when its kind and role decide them. */
    readonly scopes?: string[],
    /** The credential's own hourly request limit (API keys of the enterprise tier). */
    readonly rateLimitPerHour?: number,
  ) {}

  can(permission: string): boolean {
    return this.permissions.includes('*') || this.permissions.includes(permission);
  }
}

/** Whether the permissions `held` include every one of `wanted`; `*` is included only by `*`. */
export function grantsAll(held: string[], wanted: string[]): boolean {
  return held.includes('*') || (!wanted.includes('*') && wanted.every((permission) => held.includes(permission)));
}
