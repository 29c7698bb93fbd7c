import { createHash, timingSafeEqual } from 'node:crypto';

/** The header a part presents to another part of the platform (adapter to gateway, gateway to subgraphs). */
export const INTERNAL_CREDENTIAL_HEADER = 'x-internal-credential';

/**
 * The secret the parts share (INTERNAL_SECRET, by default derived from the JWT secret). A subgraph
 * serves only callers presenting it, so an exposed subgraph port does not open `_entities` to anyone;
 * the gateway lets the REST adapter's calls through its rate limit, which the adapter already applied.
 */
export class InternalCredential {
  private readonly digest: Buffer;

  constructor(readonly secret: string) {
    this.digest = createHash('sha256').update(secret).digest();
  }

  /** Whether a presented header value is the credential (constant time). */
  matches(presented: unknown): boolean {
    if (typeof presented !== 'string' || presented === '') return false;
    return timingSafeEqual(createHash('sha256').update(presented).digest(), this.digest);
  }

  headers(): Record<string, string> {
    return { [INTERNAL_CREDENTIAL_HEADER]: this.secret };
  }
}
