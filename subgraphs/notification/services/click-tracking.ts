import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The tracked link of one delivery: `/api/v1/notifications/track/<delivery id>?sig=<HMAC>`, signed with
 * the platform's secret so that nobody can count clicks for deliveries they did not receive.
 */
export class ClickTracking {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  signature(deliveryId: string): string {
    return createHmac('sha256', this.secret).update(`notification-click:${deliveryId}`).digest('base64url').slice(0, 22);
  }

  link(deliveryId: string): string {
    return `${this.publicUrl.replace(/\/$/, '')}/api/v1/notifications/track/${deliveryId}?sig=${this.signature(deliveryId)}`;
  }

  verify(deliveryId: string, signature: string): boolean {
    const expected = Buffer.from(this.signature(deliveryId));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
