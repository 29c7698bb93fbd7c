import { Webhook } from 'standardwebhooks';
import { FakeWebhookReceiver, ReceivedDelivery, startFakeWebhookReceiver } from '../test/support/fake-webhook-receiver';

/** The receiver's path the suite's webhook delivers to. */
export const HOOK_PATH = '/faults';

/**
 * The partner's endpoint of the suite: verifies each delivery's Standard Webhooks signature and keeps,
 * per event id, when each delivery of it arrived. It can go down (its port refuses) and come back on the
 * same port, where the platform keeps delivering.
 */
export class DeliveryCounter {
  /** Arrival times (ms) of each event's deliveries, by event id (`webhook-id`). */
  readonly arrivals = new Map<string, number[]>();
  /** Deliveries whose signature did not verify. */
  badSignatures = 0;
  private receiver: FakeWebhookReceiver | undefined;
  private verifier: Webhook | undefined;
  private port = 0;

  async start(): Promise<void> {
    this.receiver = await startFakeWebhookReceiver(this.port);
    this.port = Number(new URL(this.receiver.url).port);
    this.receiver.behave(HOOK_PATH, (delivery, res) => {
      this.count(delivery);
      res.writeHead(200).end('ok');
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${HOOK_PATH}`;
  }

  /** The webhook's secret, once it is registered: deliveries are verified from then on. */
  verifyWith(secret: string): void {
    this.verifier = new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
  }

  async stop(): Promise<void> {
    await this.receiver?.close();
    this.receiver = undefined;
  }

  private count(delivery: ReceivedDelivery): void {
    const header = (name: string) => String(delivery.headers[name] ?? '');
    try {
      this.verifier?.verify(delivery.body, { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') });
    } catch {
      this.badSignatures += 1;
      return;
    }
    const times = this.arrivals.get(header('webhook-id')) ?? [];
    times.push(delivery.receivedAt);
    this.arrivals.set(header('webhook-id'), times);
  }
}
