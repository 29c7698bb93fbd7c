import { jwtVerify, SignJWT } from 'jose';
import { createSecretKey, KeyObject } from 'node:crypto';
import { Principal, PrincipalKind } from './principal';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** How many verified tokens each part remembers (oldest forgotten first). */
const VERIFIED_TOKENS_KEPT = 10_000;
/** Who issues the platform's access tokens (the auth subgraph) and who accepts them (every part of the platform). */
export const ACCESS_TOKEN_ISSUER = 'loyalty-platform';
export const ACCESS_TOKEN_AUDIENCE = 'loyalty-platform-api';

interface AccessClaims {
  typ: PrincipalKind;
  role: string;
  perms: string[];
  /** The granted v1 scopes, when the credential has its own (API keys). */
  scp?: string[];
  /** The credential's own hourly request limit, when it has one (enterprise API keys). */
  rlh?: number;
}

/**
 * Signs and verifies the platform's access tokens (HS256). Tokens carry `iss` and `aud`, and both are
 * checked, so that a token signed with the same secret for another purpose is not taken for one.
 */
export class AccessTokens {
  /** A KeyObject made once: jose would import a raw key into WebCrypto on every verification. */
  private readonly key: KeyObject;
  /** Tokens verified lately, until they expire: the same token is checked at every hop and on every request of a session. */
  private readonly verified = new Map<string, { principal: Principal; expiresAt: number }>();

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(principal: Principal, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
    const claims: AccessClaims = { typ: principal.kind, role: principal.role, perms: principal.permissions, ...(principal.scopes ? { scp: principal.scopes } : {}), ...(principal.rateLimitPerHour ? { rlh: principal.rateLimitPerHour } : {}) };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(principal.id)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /**
   * The principal of a valid token, or undefined for a missing, malformed, forged or expired one. A
   * token's claims never change, so a verified token is remembered (a bounded map) until it expires.
   */
  async verify(token: string | undefined): Promise<Principal | undefined> {
    if (!token) return undefined;
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known.principal;
      this.verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify<AccessClaims>(token, this.key, {
        algorithms: ['HS256'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
      });
      if (!payload.sub || !payload.typ || !payload.exp) return undefined;
      const principal = new Principal(payload.typ, payload.sub, payload.role ?? '', payload.perms ?? [], Array.isArray(payload.scp) ? payload.scp : undefined, Number.isInteger(payload.rlh) && payload.rlh! > 0 ? payload.rlh : undefined);
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { principal, expiresAt: payload.exp * 1000 });
      return principal;
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
