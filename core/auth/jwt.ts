import { jwtVerify, SignJWT } from 'jose';
import { Principal, PrincipalKind } from './principal';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;

interface AccessClaims {
  typ: PrincipalKind;
  role: string;
  perms: string[];
}

/** Signs and verifies the platform's access tokens (HS256). */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(principal: Principal, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
    const claims: AccessClaims = { typ: principal.kind, role: principal.role, perms: principal.permissions };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(principal.id)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The principal of a valid token, or undefined for a missing, malformed, forged or expired one. */
  async verify(token: string | undefined): Promise<Principal | undefined> {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify<AccessClaims>(token, this.key, { algorithms: ['HS256'] });
      if (!payload.sub || !payload.typ) return undefined;
      return new Principal(payload.typ, payload.sub, payload.role ?? '', payload.perms ?? []);
    } catch {
      return undefined;
    }
  }

  /** Reads `Authorization: Bearer <token>`. */
  fromHeader(header: string | undefined): Promise<Principal | undefined> {
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    return this.verify(match?.[1]);
  }
}
