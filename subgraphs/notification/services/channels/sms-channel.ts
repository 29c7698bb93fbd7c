import { SmsSender } from '../../../../core/messaging/sms';
import { Recipient } from '../notification-supergraph';
import { Channel, ChannelFailure, neverSent, OutgoingMessage } from './channel';

/**
 * The HTTP SMS gateway of SMS_URL: `POST {to, text, reference}` (JSON, `Authorization: Bearer SMS_API_KEY`
 * when set, `Idempotency-Key: reference`). 2xx: taken; 429 and 5xx: temporary; other answers: refused.
 * The call (answer included) stops when `signal` aborts (the attempt's deadline), else after `timeoutMs`.
 */
export class HttpSmsSender implements SmsSender {
  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs: number,
  ) {}

  async send(phoneNumber: string, text: string, reference?: string, signal?: AbortSignal): Promise<void> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          ...(reference ? { 'idempotency-key': reference } : {}),
        },
        body: JSON.stringify({ to: phoneNumber, text, reference }),
        signal: signal ?? AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ChannelFailure(`sms gateway: ${(error as Error).message}`, neverSent(error));
    }
    const answer = (await response.text().catch(() => '')).slice(0, 200);
    if (response.ok) return;
    throw new ChannelFailure(`sms gateway answered ${response.status}: ${answer}`, response.status === 429 || response.status >= 500);
  }
}

/** SMS: title and body in one text, with the tracked link. */
export class SmsChannel implements Channel {
  constructor(private readonly sender: SmsSender) {}

  async send(recipient: Recipient, message: OutgoingMessage, signal: AbortSignal): Promise<void> {
    if (!recipient.phoneNumber) throw new ChannelFailure('the customer has no phone number', false);
    const text = [message.title, message.body, message.actionUrl].filter(Boolean).join('\n');
    await this.sender.send(recipient.phoneNumber, text, message.deliveryId, signal);
  }
}
