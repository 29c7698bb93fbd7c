import { forbidden, unauthenticated } from '../errors';

export type PrincipalKind = 'staff' | 'member' | 'service';

/** Who is calling: a staff member, a member, or a service holding an API key. */
export class Principal {
  constructor(
    readonly kind: PrincipalKind,
    readonly id: string,
    readonly role: string,
    readonly permissions: string[],
  ) {}

  can(permission: string): boolean {
    return this.permissions.includes('*') || this.permissions.includes(permission);
  }
}

/** Whether the permissions `held` include every one of `wanted`; `*` is included only by `*`. */
export function grantsAll(held: string[], wanted: string[]): boolean {
  return held.includes('*') || (!wanted.includes('*') && wanted.every((permission) => held.includes(permission)));
}

export function requirePrincipal(principal: Principal | undefined): Principal {
  if (!principal) throw unauthenticated();
  return principal;
}

export function requireKind(principal: Principal | undefined, ...kinds: PrincipalKind[]): Principal {
  const who = requirePrincipal(principal);
  if (!kinds.includes(who.kind)) throw forbidden();
  return who;
}

export function requirePermission(principal: Principal | undefined, permission: string): Principal {
  const who = requirePrincipal(principal);
  if (!who.can(permission)) throw forbidden();
  return who;
}

/** A member may act on itself; anyone else needs the permission. */
export function requireSelfOrPermission(principal: Principal | undefined, memberId: string, permission: string): Principal {
  const who = requirePrincipal(principal);
  if (who.kind === 'member' ? who.id !== memberId : !who.can(permission)) throw forbidden();
  return who;
}
