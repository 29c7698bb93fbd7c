import { AccessTokens } from './jwt';
import { Principal } from './principal';

/** A token is signed for an hour and renewed ten minutes before it ends. */
const TOKEN_TTL_SECONDS = 3600;
const RENEW_BEFORE_MS = 10 * 60 * 1000;

/**
 * A part of the platform acting as itself on another domain (a `service` principal of its own, with only
 * the permissions it needs), rather than as its caller. It signs its own access token with the secret
 * every part shares, keeps it until shortly before it ends, and sends it as a Bearer header on its
 * calls to the gateway. Its id is not a UUID, so it is never taken for a staff member, member or API key.
 */
export class ServiceIdentity {
  private current?: { header: string; renewAt: number };
  private signing?: Promise<string>;

  constructor(
    private readonly tokens: AccessTokens,
    readonly principal: Principal,
  ) {
    if (principal.kind !== 'service') throw new Error('A service identity is a service principal');
  }

  /** `Bearer <token>`, a fresh one once the last is near its end. */
  async authorization(): Promise<string> {
    if (this.current && Date.now() < this.current.renewAt) return this.current.header;
    this.signing ??= this.tokens.sign(this.principal, { ttlSeconds: TOKEN_TTL_SECONDS }).then((token) => {
      this.current = { header: `Bearer ${token}`, renewAt: Date.now() + TOKEN_TTL_SECONDS * 1000 - RENEW_BEFORE_MS };
      this.signing = undefined;
      return this.current.header;
    });
    return this.signing;
  }
}
