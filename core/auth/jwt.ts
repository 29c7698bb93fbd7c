import { jwtVerify, SignJWT } from 'jose';
import { createSecretKey, KeyObject } from 'node:crypto';
import { Principal, PrincipalKind } from './principal';
import { credentialRevocations, revocationSubject } from './revocations';

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
  /** When it was issued, in epoch milliseconds of the database's clock (revocations are compared with it). */
  ims?: number;
  /** The OAuth token family it was exchanged from (revoked with the family). */
  sid?: string;
  /** The OAuth client it was exchanged for (revoked when the client is disabled, deleted or its secret rotated). */
  cid?: string;
}

/** What a token is signed with besides its principal: when it was issued (the database's clock), and what revokes it. */
export interface TokenIssue {
  ttlSeconds?: number;
  /** Epoch milliseconds of the database's clock (`databaseNowMs`) for a token a revocation may concern. */
  issuedAtMs?: number;
  oauthFamily?: string;
  oauthClient?: string;
}

interface VerifiedToken {
  principal: Principal;
  expiresAt: number;
  issuedAtMs: number;
  /** What a revocation may name to void it: its subject, and its OAuth family and client. */
  revocable: string[];
}

/**
 * Signs and verifies the platform's access tokens (HS256). Tokens carry `iss` and `aud`, and both are
 * checked, so that a token signed with the same secret for another purpose is not taken for one.
 */
export class AccessTokens {
  /** A KeyObject made once: jose would import a raw key into WebCrypto on every verification. */
  private readonly key: KeyObject;
  /** Tokens verified lately, until they expire: the same token is checked at every hop and on every request of a session. */
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(principal: Principal, issue: TokenIssue = {}): Promise<string> {
    const { ttlSeconds = ACCESS_TOKEN_TTL_SECONDS, issuedAtMs, oauthFamily, oauthClient } = issue;
    const claims: AccessClaims = {
      typ: principal.kind,
      role: principal.role,
      perms: principal.permissions,
      ...(principal.scopes ? { scp: principal.scopes } : {}),
      ...(principal.rateLimitPerHour ? { rlh: principal.rateLimitPerHour } : {}),
      ...(issuedAtMs ? { ims: issuedAtMs } : {}),
      ...(oauthFamily ? { sid: oauthFamily } : {}),
      ...(oauthClient ? { cid: oauthClient } : {}),
    };
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
   * The principal of a valid token, or undefined for a missing, malformed, forged, expired or revoked
   * one. A token's claims never change, so a verified token is remembered (a bounded map) until it
   * expires; whether it was revoked since is asked on every call (this process's revocations).
   */
  async verify(token: string | undefined): Promise<Principal | undefined> {
    if (!token) return undefined;
    const known = this.verified.get(token) ?? (await this.decode(token));
    if (!known) return undefined;
    if (known.expiresAt <= Date.now()) {
      this.verified.delete(token);
      return undefined;
    }
    return credentialRevocations.isRevoked(known.revocable, known.issuedAtMs) ? undefined : known.principal;
  }

  private async decode(token: string): Promise<VerifiedToken | undefined> {
    try {
      const { payload } = await jwtVerify<AccessClaims>(token, this.key, {
        algorithms: ['HS256'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
      });
      if (!payload.sub || !payload.typ || !payload.exp) return undefined;
      const principal = new Principal(payload.typ, payload.sub, payload.role ?? '', payload.perms ?? [], Array.isArray(payload.scp) ? payload.scp : undefined, Number.isInteger(payload.rlh) && payload.rlh! > 0 ? payload.rlh : undefined);
      const verified: VerifiedToken = {
        principal,
        expiresAt: payload.exp * 1000,
        // A token without its issue time in milliseconds counts as issued at the end of its `iat` second.
        issuedAtMs: Number.isInteger(payload.ims) ? payload.ims! : ((payload.iat ?? 0) + 1) * 1000 - 1,
        revocable: [
          revocationSubject.principal(payload.sub),
          ...(typeof payload.sid === 'string' ? [revocationSubject.oauthFamily(payload.sid)] : []),
          ...(typeof payload.cid === 'string' ? [revocationSubject.oauthClient(payload.cid)] : []),
        ],
      };
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, verified);
      return verified;
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
