import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * URLs that work without a token until they expire: the path and the expiry (Unix seconds) signed with
 * HMAC-SHA256 under a key derived from the platform's secret, for one purpose only.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = createHmac('sha256', secret).update(`signed-url:${purpose}`).digest();
  }

  private signatureOf(path: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('hex');
  }

  /** `<base><path>?expires=<unix>&signature=<hex>`. */
  sign(base: string, path: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${base}${path}?expires=${expires}&signature=${this.signatureOf(path, expires)}`;
  }

  /** Whether the signature is the path's and the expiry has not passed. */
  verify(path: string, expires: unknown, signature: unknown, now = new Date()): boolean {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
    const expected = Buffer.from(this.signatureOf(path, Number(expires)), 'hex');
    return timingSafeEqual(expected, Buffer.from(signature, 'hex')) && Number(expires) * 1000 > now.getTime();
  }
}
