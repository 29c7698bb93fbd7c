import { jwtVerify, SignJWT } from 'jose';
import { Principal, PrincipalKind } from './principal';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Who issues the platform's access tokens (the auth subgraph) and who accepts them (every part of the platform). */
export const ACCESS_TOKEN_ISSUER = 'loyalty-platform';
export const ACCESS_TOKEN_AUDIENCE = 'loyalty-platform-api';

interface AccessClaims {
  typ: PrincipalKind;
  role: string;
  perms: string[];
}

/**
 * Signs and verifies the platform's access tokens (HS256). Tokens carry `iss` and `aud`, and both are
 * checked, so that a token signed with the same secret for another purpose is not taken for one.
 */
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
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The principal of a valid token, or undefined for a missing, malformed, forged or expired one. */
  async verify(token: string | undefined): Promise<Principal | undefined> {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify<AccessClaims>(token, this.key, {
        algorithms: ['HS256'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
      });
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
