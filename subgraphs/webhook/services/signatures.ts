import { createHmac } from 'node:crypto';

/**
 * The signature headers of one attempt (CONTRACT-v1 section 4), the key being the secret's UTF-8 bytes:
 * `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (Stripe's scheme, Part 3) and the
 * Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
 * of "<id>.<t>.<body>">`.
 */
export function signatureHeaders(secret: string, eventId: string, body: string, timestamp: number): Record<string, string> {
  const t = String(timestamp);
  const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`).digest('hex');
  const base64 = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${eventId}.${t}.${body}`).digest('base64');
  return {
    'x-service-signature': `t=${t},v1=${hex}`,
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${base64}`,
  };
}
