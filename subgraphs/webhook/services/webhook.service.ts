import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { conflict, FieldError, notFound, validationError } from '../../../core/errors';
import { isRecordId } from '../../../core/ids';
import { findPage, Page, PageArgs } from '../../../core/pagination';
import { Webhook, WEBHOOK_ID } from '../entities/webhook';
import { WebhookDelivery } from '../entities/webhook-delivery';
import { WebhookSettings } from '../settings';
import { CreateWebhookInput, DeliveryListArgs, UpdateWebhookInput } from '../types/webhook.types';
import { ALL_EVENTS } from './public-event-table';
import { targetProblem } from './target-address';

export const MAX_URL = 2048;
export const SECRET = /^[\x21-\x7e]{16,256}$/;

/** A generated secret: 32 random bytes, base64url (43 characters). */
const newSecret = () => randomBytes(32).toString('base64url');

/**
 * Webhook management (CONTRACT-v1 section 4): registration with its checks, reads, changes (re-activation
 * sends the held deliveries, switching off cancels what is waiting), deletion, the delivery log and
 * redelivery. `wake` tells this process's delivery worker that deliveries became due.
 */
export class WebhookService {
  constructor(
    private readonly em: EntityManager,
    private readonly settings: Pick<WebhookSettings, 'allowPrivateTargets'>,
    /** The Part 3 event types a webhook may subscribe to (the platform's public events). */
    private readonly eventTypes: ReadonlySet<string>,
    private readonly wake: () => void = () => undefined,
  ) {}

  async create(input: CreateWebhookInput): Promise<Webhook> {
    const errors: FieldError[] = [];
    if (input.url == null) errors.push({ field: 'url', message: 'url is required' });
    else await this.checkUrl(input.url, errors);
    if (input.events == null) errors.push({ field: 'events', message: 'events is required' });
    else checkEvents(input.events, this.eventTypes, errors);
    if (input.secret != null && !SECRET.test(input.secret)) errors.push({ field: 'secret', message: 'secret must be 16 to 256 printable characters without spaces' });
    if (errors.length > 0) throw validationError(errors);
    const webhook = this.em.create(Webhook, { url: input.url!, events: normalEvents(input.events!), secret: input.secret ?? newSecret() });
    await this.em.persistAndFlush(webhook);
    webhook.revealSecret = true;
    return webhook;
  }

  async list(args: PageArgs): Promise<Page<Webhook>> {
    return findPage(this.em, Webhook, {}, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(Webhook, {}));
  }

  async get(id: string): Promise<Webhook> {
    const webhook = WEBHOOK_ID.test(id) ? await this.em.findOne(Webhook, { id }) : null;
    if (!webhook) throw notFound('Webhook', id);
    return webhook;
  }

  async update(id: string, input: UpdateWebhookInput): Promise<Webhook> {
    await this.get(id);
    const errors: FieldError[] = [];
    if (input.url != null) await this.checkUrl(input.url, errors);
    if (input.events != null) checkEvents(input.events, this.eventTypes, errors);
    if (errors.length > 0) throw validationError(errors);
    const changed = await this.em.transactional(async (em) => {
      const webhook = await em.findOneOrFail(Webhook, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (input.url != null) webhook.url = input.url;
      if (input.events != null) webhook.events = normalEvents(input.events);
      if (input.active === true && webhook.status !== 'active') {
        webhook.status = 'active';
        webhook.failedAt = null;
        await em.flush();
        await em.execute(
          `update webhook.webhook_delivery set status = 'pending', next_attempt_at = now(), retries_used = 0, lease_until = null, lease_token = null, updated_at = now()
           where webhook_id = ? and status = 'held'`,
          [id],
        );
      } else if (input.active === false && webhook.status !== 'disabled') {
        webhook.status = 'disabled';
        await em.flush();
        await em.execute(
          `update webhook.webhook_delivery set status = 'failed', next_attempt_at = null, last_error = 'cancelled: the webhook was switched off by its owner', updated_at = now()
           where webhook_id = ? and status in ('pending', 'held')`,
          [id],
        );
      }
      await em.flush();
      return webhook;
    });
    if (input.active === true) this.wake();
    return changed;
  }

  async delete(id: string): Promise<boolean> {
    const webhook = await this.get(id);
    await this.em.removeAndFlush(webhook);
    return true;
  }

  async deliveries(args: DeliveryListArgs): Promise<Page<WebhookDelivery>> {
    await this.get(args.webhookId);
    const where = { webhookId: args.webhookId, ...(args.status ? { status: args.status as WebhookDelivery['status'] } : {}) };
    const page = await findPage(this.em, WebhookDelivery, where, { createdAt: 'desc', id: 'desc' }, args, await this.em.count(WebhookDelivery, where));
    const eventIds = [...new Set(page.data.map((delivery) => delivery.eventId))];
    if (eventIds.length > 0) {
      const bodies: Array<{ id: string; body: string }> = await this.em.execute(
        `select id, body from webhook.webhook_event where id in (${eventIds.map(() => '?').join(', ')})`,
        eventIds,
      );
      const byId = new Map(bodies.map((row) => [row.id, row.body]));
      for (const delivery of page.data) delivery.payload = byId.get(delivery.eventId) ?? null;
    }
    return page;
  }

  /**
   * Sends a delivery's event again (same id), as a new round of the retry schedule. Its webhook must be
   * active (409 otherwise: re-activate it first) and the delivery not already pending (409).
   */
  async redeliver(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const webhook = await this.get(webhookId);
    const delivery = isRecordId(deliveryId) ? await this.em.findOne(WebhookDelivery, { id: deliveryId, webhookId }) : null;
    if (!delivery) throw notFound('Webhook delivery', deliveryId);
    if (webhook.status !== 'active') throw conflict(`The webhook is ${webhook.status}: activate it first`);
    const [row] = await this.em.execute(
      `update webhook.webhook_delivery set status = 'pending', next_attempt_at = now(), retries_used = 0, lease_until = null, lease_token = null, updated_at = now()
       where id = ? and status <> 'pending' returning id`,
      [deliveryId],
    );
    if (!row) throw conflict('The delivery is pending already');
    this.wake();
    await this.em.refresh(delivery);
    return delivery;
  }

  private async checkUrl(url: string, errors: FieldError[]): Promise<void> {
    if (url.length > MAX_URL) return void errors.push({ field: 'url', message: `url must be at most ${MAX_URL} characters` });
    const problem = await targetProblem(url, this.settings.allowPrivateTargets);
    if (problem) errors.push({ field: 'url', message: problem });
  }
}

function checkEvents(events: string[], known: ReadonlySet<string>, errors: FieldError[]): void {
  if (events.length === 0) return void errors.push({ field: 'events', message: 'events must name at least one event type, or "*"' });
  if (events.includes(ALL_EVENTS) && events.length > 1) return void errors.push({ field: 'events', message: '"*" stands alone' });
  events.forEach((event, index) => {
    if (event !== ALL_EVENTS && !known.has(event)) errors.push({ field: `events.${index}`, message: `unknown event type "${event}"` });
  });
}

const normalEvents = (events: string[]) => [...new Set(events)];
