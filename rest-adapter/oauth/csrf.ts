import { Request, Response } from 'express';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_COOKIE = 'oauth_csrf';
const CSRF_MAX_AGE_MS = 30 * 60 * 1000;

/**
 * CSRF protection of the consent form: a signed double-submit token. The same value goes in an
 * HTTP-only, SameSite=Lax cookie (not sent with a cross-site POST) and in the form; the POST must carry
 * both, equal, with a valid signature (so a value planted in the cookie by a sibling host is refused).
 */
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('oauth-consent-csrf').digest();
  }

  /** The token of this browser (kept while it is valid), set in the cookie. */
  issue(req: Request, res: Response): string {
    const current = req.cookies?.[CSRF_COOKIE];
    const token = typeof current === 'string' && this.valid(current) ? current : this.create();
    res.cookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/oauth', maxAge: CSRF_MAX_AGE_MS });
    return token;
  }

  /** Whether the form's token is the cookie's, signed by us. */
  check(req: Request, given: unknown): boolean {
    const cookie = req.cookies?.[CSRF_COOKIE];
    if (typeof given !== 'string' || typeof cookie !== 'string' || given.length !== cookie.length) return false;
    return timingSafeEqual(Buffer.from(given), Buffer.from(cookie)) && this.valid(given);
  }

  private create(): string {
    const nonce = randomBytes(24).toString('base64url');
    return `${nonce}.${this.sign(nonce)}`;
  }

  private valid(token: string): boolean {
    const [nonce, signature, extra] = token.split('.');
    if (!nonce || !signature || extra !== undefined) return false;
    const expected = Buffer.from(this.sign(nonce));
    const actual = Buffer.from(signature);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  private sign(nonce: string): string {
    return createHmac('sha256', this.key).update(nonce).digest('base64url');
  }
}
